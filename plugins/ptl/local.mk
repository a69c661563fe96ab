# plugins/ptl: usock (Unix socket in the server's tmpdir, local default)
# and tcp (IPv4/IPv6, loopback by default). Neither links libpmix.
PMIXX_PTL_USOCK_SOURCES = \
	plugins/ptl/usock/component.cc \
	plugins/ptl/usock/usock_module.cc plugins/ptl/usock/usock_module.h
PMIXX_PTL_TCP_SOURCES = \
	plugins/ptl/tcp/component.cc \
	plugins/ptl/tcp/tcp_addr.cc plugins/ptl/tcp/tcp_addr.h \
	plugins/ptl/tcp/tcp_module.cc plugins/ptl/tcp/tcp_module.h

if PMIX_DLOPEN
pmixcomponent_LTLIBRARIES += \
	plugins/ptl/usock/pmix_mca_ptl_usock.la \
	plugins/ptl/tcp/pmix_mca_ptl_tcp.la
plugins_ptl_usock_pmix_mca_ptl_usock_la_SOURCES = $(PMIXX_PTL_USOCK_SOURCES) \
	plugins/ptl/common/ptl_socket.h
plugins_ptl_usock_pmix_mca_ptl_usock_la_LDFLAGS = $(PMIXX_COMPONENT_LDFLAGS)
plugins_ptl_tcp_pmix_mca_ptl_tcp_la_SOURCES = $(PMIXX_PTL_TCP_SOURCES) \
	plugins/ptl/common/ptl_socket.h
plugins_ptl_tcp_pmix_mca_ptl_tcp_la_LDFLAGS = $(PMIXX_COMPONENT_LDFLAGS)
PMIXX_COMPONENT_BUILD_DIRS += \
	$(abs_top_builddir)/plugins/ptl/usock/.libs \
	$(abs_top_builddir)/plugins/ptl/tcp/.libs
else
src_libpmix_core_la_SOURCES += $(PMIXX_PTL_USOCK_SOURCES) $(PMIXX_PTL_TCP_SOURCES) \
	plugins/ptl/common/ptl_socket.h
PMIXX_STATIC_COMPONENTS += ptl_usock ptl_tcp
endif
