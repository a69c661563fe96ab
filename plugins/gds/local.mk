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

# plugins/gds/shmem: regions in sealed memfds (no store). Plain libc: its
# plugin does not link libpmix.
PMIXX_GDS_SHMEM_SOURCES = \
	plugins/gds/shmem/component.cc \
	plugins/gds/shmem/shmem_module.cc plugins/gds/shmem/shmem_module.h

if PMIX_DLOPEN
pmixcomponent_LTLIBRARIES += plugins/gds/shmem/pmix_mca_gds_shmem.la
plugins_gds_shmem_pmix_mca_gds_shmem_la_SOURCES = $(PMIXX_GDS_SHMEM_SOURCES)
plugins_gds_shmem_pmix_mca_gds_shmem_la_LDFLAGS = $(PMIXX_COMPONENT_LDFLAGS)
PMIXX_COMPONENT_BUILD_DIRS += $(abs_top_builddir)/plugins/gds/shmem/.libs
else
src_libpmix_core_la_SOURCES += $(PMIXX_GDS_SHMEM_SOURCES)
PMIXX_STATIC_COMPONENTS += gds_shmem
endif
