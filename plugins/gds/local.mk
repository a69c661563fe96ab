# plugins/gds: hash (in-process store). It copies values through the
# public data API (PMIx_Value_xfer, PMIx_Info_create), so its plugin links
# libpmix.
PMIXX_GDS_HASH_SOURCES = \
	plugins/gds/hash/component.cc \
	plugins/gds/hash/hash_module.cc plugins/gds/hash/hash_module.h \
	plugins/gds/hash/hash_store.cc plugins/gds/hash/hash_store.h

if PMIX_DLOPEN
pmixcomponent_LTLIBRARIES += plugins/gds/hash/pmix_mca_gds_hash.la
plugins_gds_hash_pmix_mca_gds_hash_la_SOURCES = $(PMIXX_GDS_HASH_SOURCES)
plugins_gds_hash_pmix_mca_gds_hash_la_LDFLAGS = $(PMIXX_COMPONENT_LDFLAGS)
plugins_gds_hash_pmix_mca_gds_hash_la_LIBADD = src/libpmix.la
PMIXX_COMPONENT_BUILD_DIRS += $(abs_top_builddir)/plugins/gds/hash/.libs
else
src_libpmix_core_la_SOURCES += $(PMIXX_GDS_HASH_SOURCES)
PMIXX_STATIC_COMPONENTS += gds_hash
endif
