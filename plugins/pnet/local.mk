# plugins/pnet: nic (the node's own network devices, from hwloc and sysfs).
# It calls PMIx_Load_topology and the info API, so its plugin links libpmix.
PMIXX_PNET_NIC_SOURCES = \
	plugins/pnet/nic/component.cc \
	plugins/pnet/nic/nic_module.cc plugins/pnet/nic/nic_module.h

if PMIX_DLOPEN
pmixcomponent_LTLIBRARIES += plugins/pnet/nic/pmix_mca_pnet_nic.la
plugins_pnet_nic_pmix_mca_pnet_nic_la_SOURCES = $(PMIXX_PNET_NIC_SOURCES)
plugins_pnet_nic_pmix_mca_pnet_nic_la_LDFLAGS = $(PMIXX_COMPONENT_LDFLAGS)
plugins_pnet_nic_pmix_mca_pnet_nic_la_LIBADD = src/libpmix.la -lhwloc
PMIXX_COMPONENT_BUILD_DIRS += $(abs_top_builddir)/plugins/pnet/nic/.libs
else
src_libpmix_core_la_SOURCES += $(PMIXX_PNET_NIC_SOURCES)
PMIXX_STATIC_COMPONENTS += pnet_nic
endif
