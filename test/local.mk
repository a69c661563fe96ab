# Tests. Every test is bounded by $(TIMEOUT) (see Makefile.am).

# --- unit tests (GoogleTest) ---------------------------------------------------
if HAVE_GTEST
check_PROGRAMS += test/unit/common_tests
TESTS += test/unit/common_tests
test_unit_common_tests_SOURCES = \
	test/unit/common/argv_test.cc \
	test/unit/common/data_types_test.cc \
	test/unit/common/ids_test.cc \
	test/unit/common/info_list_test.cc \
	test/unit/common/info_test.cc \
	test/unit/common/output_test.cc \
	test/unit/common/strings_test.cc \
	test/unit/common/structs_test.cc \
	test/unit/common/type_samples.cc test/unit/common/type_samples.h \
	test/unit/common/value_compare_test.cc \
	test/unit/common/value_test.cc
test_unit_common_tests_CPPFLAGS = $(AM_CPPFLAGS) -DPMIXX_TEST_DATA_DIR='"$(abs_top_srcdir)/test/unit/common"'
test_unit_common_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_common_tests_LDFLAGS = -pthread
endif
EXTRA_DIST += test/unit/common/reference_strings.tsv
# pmix_proc_t from nspace and rank, for the unit tests.
EXTRA_DIST += test/unit/common/proc_ids.h

# --- header, generator, API-table and ABI tests (scripts) ------------------------
TESTS += \
	test/headers/check_headers.sh \
	test/gen_check.sh \
	test/api_exports.sh \
	test/abi/run_abi.sh \
	test/abi/run_symbols.sh \
	test/abi/run_crosscheck.sh \
	test/abi/run_datacheck.sh \
	test/abi/run_v4_portability.sh \
	test/pmix_info.sh \
	test/plugin_example.sh \
	test/build/compilers.sh
EXTRA_DIST += test/build/compilers.sh
EXTRA_DIST += test/headers test/abi test/gen_check.sh test/api_exports.sh \
	test/pmix_info.sh test/plugin_example.sh contrib/plugin-example
# The out-of-tree pnet component (contrib/pnet-example) and its job hooks.
TESTS += test/pnet_example.sh
EXTRA_DIST += test/pnet_example.sh contrib/pnet-example test/tools/staged_component.sh
