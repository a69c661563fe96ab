# mca/pnet: fabric support (multi-select): fabric descriptions for
# PMIx_Fabric_* and the per-job hooks of setup_application/local_support.
src_libpmix_core_la_SOURCES += \
	mca/pnet/base/pnet_base.cc mca/pnet/base/pnet_base.h
