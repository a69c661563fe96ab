# plugins/bfrops: the native codec component (codec "native1").
PLUGIN_BFROPS_NATIVE_SOURCES = \
	plugins/bfrops/native/codec.h \
	plugins/bfrops/native/codec_containers.cc \
	plugins/bfrops/native/codec_hwloc.cc \
	plugins/bfrops/native/codec_scalars.cc \
	plugins/bfrops/native/codec_stats.cc \
	plugins/bfrops/native/codec_strings.cc \
	plugins/bfrops/native/codec_structs.cc \
	plugins/bfrops/native/codec_table.cc \
	plugins/bfrops/native/component.cc \
	plugins/bfrops/native/native_module.cc \
	plugins/bfrops/native/native_module.h \
	plugins/bfrops/native/wire.h
if PMIX_DLOPEN
pmixcomponent_LTLIBRARIES += plugins/bfrops/native/pmix_mca_bfrops_native.la
plugins_bfrops_native_pmix_mca_bfrops_native_la_SOURCES = $(PLUGIN_BFROPS_NATIVE_SOURCES)
plugins_bfrops_native_pmix_mca_bfrops_native_la_LDFLAGS = $(PMIXX_COMPONENT_LDFLAGS)
plugins_bfrops_native_pmix_mca_bfrops_native_la_LIBADD = src/libpmix.la -lhwloc
PMIXX_COMPONENT_BUILD_DIRS += $(abs_top_builddir)/plugins/bfrops/native/.libs
else
src_libpmix_core_la_SOURCES += $(PLUGIN_BFROPS_NATIVE_SOURCES)
PMIXX_STATIC_COMPONENTS += bfrops_native
endif
