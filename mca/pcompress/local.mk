# mca/pcompress: framework base (selection, pcompress_base_limit) and the
# PMIx_Data_compress / PMIx_Data_decompress API.
src_libpmix_core_la_SOURCES += \
	mca/pcompress/base/pcompress_api.cc \
	mca/pcompress/base/pcompress_base.cc mca/pcompress/base/pcompress_base.h

if HAVE_GTEST
# The zlib module on its own (its sources compiled in; no libpmix).
check_PROGRAMS += test/unit/pcompress/pcompress_module_tests
TESTS += test/unit/pcompress/pcompress_module_tests
test_unit_pcompress_pcompress_module_tests_SOURCES = \
	test/unit/pcompress/zlib_module_test.cc \
	plugins/pcompress/zlib/component.cc \
	plugins/pcompress/zlib/zlib_module.cc plugins/pcompress/zlib/zlib_module.h
# Own CPPFLAGS: distinct object names from the plugin's (same sources).
test_unit_pcompress_pcompress_module_tests_CPPFLAGS = $(AM_CPPFLAGS)
test_unit_pcompress_pcompress_module_tests_LDADD = -lgtest -lgtest_main -lz
test_unit_pcompress_pcompress_module_tests_LDFLAGS = -pthread

# The framework path: internals and the API over the real zlib plugin
# (which does not link libpmix, so the core library may load it).
check_PROGRAMS += test/unit/pcompress/pcompress_base_tests
TESTS += test/unit/pcompress/pcompress_base_tests
test_unit_pcompress_pcompress_base_tests_SOURCES = test/unit/pcompress/pcompress_base_test.cc
test_unit_pcompress_pcompress_base_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_pcompress_pcompress_base_tests_LDFLAGS = -pthread
endif
