# plugins/pcompress: zlib.
PMIXX_PCOMPRESS_ZLIB_SOURCES = \
	plugins/pcompress/zlib/component.cc \
	plugins/pcompress/zlib/zlib_module.cc plugins/pcompress/zlib/zlib_module.h

if PMIX_DLOPEN
pmixcomponent_LTLIBRARIES += plugins/pcompress/zlib/pmix_mca_pcompress_zlib.la
plugins_pcompress_zlib_pmix_mca_pcompress_zlib_la_SOURCES = $(PMIXX_PCOMPRESS_ZLIB_SOURCES)
plugins_pcompress_zlib_pmix_mca_pcompress_zlib_la_LDFLAGS = $(PMIXX_COMPONENT_LDFLAGS)
plugins_pcompress_zlib_pmix_mca_pcompress_zlib_la_LIBADD = -lz
PMIXX_COMPONENT_BUILD_DIRS += $(abs_top_builddir)/plugins/pcompress/zlib/.libs
else
src_libpmix_core_la_SOURCES += $(PMIXX_PCOMPRESS_ZLIB_SOURCES)
PMIXX_STATIC_COMPONENTS += pcompress_zlib
endif
