# plugins/psec: native (SO_PEERCRED; loopback tcp from /proc/net/tcp), none,
# and munge when configure found libmunge. None of them links libpmix.
PMIXX_PSEC_NATIVE_SOURCES = \
	plugins/psec/native/component.cc \
	plugins/psec/native/native_module.cc plugins/psec/native/native_module.h \
	plugins/psec/common/proc_net_tcp.cc plugins/psec/common/proc_net_tcp.h \
	plugins/psec/common/tcp_peer.cc plugins/psec/common/tcp_peer.h
PMIXX_PSEC_NONE_SOURCES = \
	plugins/psec/none/component.cc \
	plugins/psec/none/none_module.cc plugins/psec/none/none_module.h
PMIXX_PSEC_MUNGE_SOURCES = \
	plugins/psec/munge/component.cc \
	plugins/psec/munge/munge_module.cc plugins/psec/munge/munge_module.h
PMIXX_PSEC_UTIL_SOURCES = plugins/psec/common/psec_util.h

if PMIX_DLOPEN
pmixcomponent_LTLIBRARIES += \
	plugins/psec/native/pmix_mca_psec_native.la \
	plugins/psec/none/pmix_mca_psec_none.la
plugins_psec_native_pmix_mca_psec_native_la_SOURCES = $(PMIXX_PSEC_NATIVE_SOURCES) \
	$(PMIXX_PSEC_UTIL_SOURCES)
plugins_psec_native_pmix_mca_psec_native_la_LDFLAGS = $(PMIXX_COMPONENT_LDFLAGS)
plugins_psec_none_pmix_mca_psec_none_la_SOURCES = $(PMIXX_PSEC_NONE_SOURCES) \
	$(PMIXX_PSEC_UTIL_SOURCES)
plugins_psec_none_pmix_mca_psec_none_la_LDFLAGS = $(PMIXX_COMPONENT_LDFLAGS)
PMIXX_COMPONENT_BUILD_DIRS += \
	$(abs_top_builddir)/plugins/psec/native/.libs \
	$(abs_top_builddir)/plugins/psec/none/.libs
if HAVE_MUNGE
pmixcomponent_LTLIBRARIES += plugins/psec/munge/pmix_mca_psec_munge.la
plugins_psec_munge_pmix_mca_psec_munge_la_SOURCES = $(PMIXX_PSEC_MUNGE_SOURCES) \
	$(PMIXX_PSEC_UTIL_SOURCES)
plugins_psec_munge_pmix_mca_psec_munge_la_LDFLAGS = $(PMIXX_COMPONENT_LDFLAGS)
plugins_psec_munge_pmix_mca_psec_munge_la_LIBADD = -lmunge
PMIXX_COMPONENT_BUILD_DIRS += $(abs_top_builddir)/plugins/psec/munge/.libs
endif
else
src_libpmix_core_la_SOURCES += $(PMIXX_PSEC_NATIVE_SOURCES) $(PMIXX_PSEC_NONE_SOURCES) \
	$(PMIXX_PSEC_UTIL_SOURCES)
PMIXX_STATIC_COMPONENTS += psec_native psec_none
if HAVE_MUNGE
src_libpmix_core_la_SOURCES += $(PMIXX_PSEC_MUNGE_SOURCES)
src_libpmix_core_la_LIBADD += -lmunge
PMIXX_STATIC_COMPONENTS += psec_munge
endif
endif

# native over loopback tcp: the socket-table parser and real loopback pairs.
if HAVE_GTEST
check_PROGRAMS += test/unit/psec/psec_native_tcp_tests
TESTS += test/unit/psec/psec_native_tcp_tests
test_unit_psec_psec_native_tcp_tests_SOURCES = \
	test/unit/psec/native_tcp_test.cc test/unit/psec/native_tcp_socket_test.cc \
	test/unit/psec/psec_harness.h \
	$(PMIXX_PSEC_NATIVE_SOURCES) $(PMIXX_PSEC_UTIL_SOURCES)
# Own CPPFLAGS: distinct object names from the plugin's (same sources).
test_unit_psec_psec_native_tcp_tests_CPPFLAGS = $(AM_CPPFLAGS)
test_unit_psec_psec_native_tcp_tests_LDADD = -lgtest -lgtest_main
test_unit_psec_psec_native_tcp_tests_LDFLAGS = -pthread
endif
