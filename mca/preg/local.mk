# mca/preg: framework base (multi-select, generate and parse) and the
# PMIx_generate_regex / PMIx_generate_ppn API.
src_libpmix_core_la_SOURCES += \
	mca/preg/base/preg_api.cc \
	mca/preg/base/preg_base.cc mca/preg/base/preg_base.h

if HAVE_GTEST
# Conformance of every component, compiled in and driven through its
# descriptor; PMIx_Data_compress comes from a shim over the zlib module.
check_PROGRAMS += test/unit/preg/preg_module_tests
TESTS += test/unit/preg/preg_module_tests
test_unit_preg_preg_module_tests_SOURCES = \
	test/unit/preg/compress_raw_format_test.cc \
	test/unit/preg/native_format_test.cc \
	test/unit/preg/pcompress_shim.cc \
	test/unit/preg/preg_cases.cc test/unit/preg/preg_cases.h \
	test/unit/preg/preg_module_test.cc \
	$(PMIXX_PREG_NATIVE_SOURCES) $(PMIXX_PREG_COMPRESS_SOURCES) $(PMIXX_PREG_RAW_SOURCES) \
	plugins/preg/common/preg_util.h \
	plugins/pcompress/zlib/zlib_module.cc plugins/pcompress/zlib/zlib_module.h
# Own CPPFLAGS: distinct object names from the plugins' (same sources).
test_unit_preg_preg_module_tests_CPPFLAGS = $(AM_CPPFLAGS)
test_unit_preg_preg_module_tests_LDADD = -lgtest -lgtest_main -lz
test_unit_preg_preg_module_tests_LDFLAGS = -pthread

# The public API over the real plugins (links libpmix: the compress plugin
# links it too, so the process holds one copy).
check_PROGRAMS += test/unit/preg/preg_api_tests
TESTS += test/unit/preg/preg_api_tests
test_unit_preg_preg_api_tests_SOURCES = test/unit/preg/preg_api_test.cc
test_unit_preg_preg_api_tests_LDADD = src/libpmix.la -lgtest -lgtest_main
test_unit_preg_preg_api_tests_LDFLAGS = -pthread

# Internal parse functions (links the core library, so its main() keeps the
# compress plugin, which links libpmix, off the component path).
check_PROGRAMS += test/unit/preg/preg_base_tests
TESTS += test/unit/preg/preg_base_tests
test_unit_preg_preg_base_tests_SOURCES = \
	test/unit/preg/preg_base_test.cc \
	test/unit/preg/preg_cases.cc test/unit/preg/preg_cases.h
test_unit_preg_preg_base_tests_LDADD = src/libpmix_core.la -lgtest
test_unit_preg_preg_base_tests_LDFLAGS = -pthread
endif
