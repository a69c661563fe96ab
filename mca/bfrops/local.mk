# mca/bfrops: the bfrops framework base, the PMIx_Data_* API and printing.
src_libpmix_core_la_SOURCES += \
	mca/bfrops/base/bfrops_base.cc mca/bfrops/base/bfrops_base.h \
	mca/bfrops/base/data_api.cc \
	src/common/print.cc src/common/print.h \
	src/common/print_structs.cc \
	src/common/print_topology.cc src/common/print_topology.h

if HAVE_GTEST
# Module-level tests: the native codec compiled in, called through its
# descriptor; the core library for the registry, copy and print.
check_PROGRAMS += test/unit/bfrops/bfrops_native_tests
TESTS += test/unit/bfrops/bfrops_native_tests
test_unit_bfrops_bfrops_native_tests_SOURCES = \
	$(PLUGIN_BFROPS_NATIVE_SOURCES) \
	test/unit/bfrops/random_values.cc test/unit/bfrops/random_values.h \
	test/unit/bfrops/roundtrip_test.cc \
	test/unit/bfrops/corruption_test.cc \
	test/unit/bfrops/data_api_test.cc \
	test/unit/bfrops/print_test.cc \
	test/unit/common/type_samples.cc test/unit/common/type_samples.h
# Per-target flags give these objects their own names (the plugin sources
# are also built with libtool for the component).
test_unit_bfrops_bfrops_native_tests_CPPFLAGS = $(AM_CPPFLAGS)
test_unit_bfrops_bfrops_native_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_bfrops_bfrops_native_tests_LDFLAGS = -pthread
# The public API through the framework (the plugin dlopen'd or built in).
check_PROGRAMS += test/unit/bfrops/bfrops_api_tests
TESTS += test/unit/bfrops/bfrops_api_tests
test_unit_bfrops_bfrops_api_tests_SOURCES = test/unit/bfrops/pack_api_test.cc
test_unit_bfrops_bfrops_api_tests_LDADD = src/libpmix.la -lgtest -lgtest_main
test_unit_bfrops_bfrops_api_tests_LDFLAGS = -pthread
# The module tests again under valgrind (skipped without valgrind).
TESTS += test/unit/bfrops/run_valgrind.sh
endif
EXTRA_DIST += test/unit/bfrops/run_valgrind.sh
