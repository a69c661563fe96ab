# plugins/preg: native (readable ranges), compress (zlib blob), raw.
# compress calls PMIx_Data_compress/decompress, so its plugin links libpmix.
PMIXX_PREG_NATIVE_SOURCES = \
	plugins/preg/native/component.cc \
	plugins/preg/native/native_module.cc plugins/preg/native/native_module.h \
	plugins/preg/native/native_parse.cc plugins/preg/native/native_parse.h \
	plugins/preg/native/native_terms.cc plugins/preg/native/native_terms.h
PMIXX_PREG_COMPRESS_SOURCES = \
	plugins/preg/compress/component.cc \
	plugins/preg/compress/compress_module.cc plugins/preg/compress/compress_module.h
PMIXX_PREG_RAW_SOURCES = \
	plugins/preg/raw/component.cc \
	plugins/preg/raw/raw_module.cc plugins/preg/raw/raw_module.h

if PMIX_DLOPEN
pmixcomponent_LTLIBRARIES += \
	plugins/preg/native/pmix_mca_preg_native.la \
	plugins/preg/compress/pmix_mca_preg_compress.la \
	plugins/preg/raw/pmix_mca_preg_raw.la
plugins_preg_native_pmix_mca_preg_native_la_SOURCES = $(PMIXX_PREG_NATIVE_SOURCES) \
	plugins/preg/common/preg_util.h
plugins_preg_native_pmix_mca_preg_native_la_LDFLAGS = $(PMIXX_COMPONENT_LDFLAGS)
plugins_preg_compress_pmix_mca_preg_compress_la_SOURCES = $(PMIXX_PREG_COMPRESS_SOURCES) \
	plugins/preg/common/preg_util.h
plugins_preg_compress_pmix_mca_preg_compress_la_LDFLAGS = $(PMIXX_COMPONENT_LDFLAGS)
plugins_preg_compress_pmix_mca_preg_compress_la_LIBADD = src/libpmix.la
plugins_preg_raw_pmix_mca_preg_raw_la_SOURCES = $(PMIXX_PREG_RAW_SOURCES) \
	plugins/preg/common/preg_util.h
plugins_preg_raw_pmix_mca_preg_raw_la_LDFLAGS = $(PMIXX_COMPONENT_LDFLAGS)
PMIXX_COMPONENT_BUILD_DIRS += \
	$(abs_top_builddir)/plugins/preg/native/.libs \
	$(abs_top_builddir)/plugins/preg/compress/.libs \
	$(abs_top_builddir)/plugins/preg/raw/.libs
else
src_libpmix_core_la_SOURCES += $(PMIXX_PREG_NATIVE_SOURCES) $(PMIXX_PREG_COMPRESS_SOURCES) \
	$(PMIXX_PREG_RAW_SOURCES) plugins/preg/common/preg_util.h
PMIXX_STATIC_COMPONENTS += preg_native preg_compress preg_raw
endif
