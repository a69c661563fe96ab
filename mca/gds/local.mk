# mca/gds: framework base (multi-select data store), module lookup and the
# internal Store wrapper used by the server and the client.
src_libpmix_core_la_SOURCES += \
	mca/gds/base/gds_base.cc mca/gds/base/gds_base.h \
	mca/gds/base/region.cc mca/gds/base/region.h \
	mca/gds/base/image.cc mca/gds/base/image.h \
	mca/gds/base/image_format.h \
	mca/gds/base/image_layout.cc mca/gds/base/image_layout.h \
	mca/gds/base/image_derive.cc mca/gds/base/image_derive.h \
	mca/gds/base/image_values.cc mca/gds/base/image_values.h \
	mca/gds/base/image_writer.cc

if HAVE_GTEST
# The hash module driven through its descriptor (compiled in; the public
# data API it calls comes from libpmix).
check_PROGRAMS += test/unit/gds/gds_hash_tests
TESTS += test/unit/gds/gds_hash_tests
test_unit_gds_gds_hash_tests_SOURCES = \
	test/unit/gds/hash_test.cc test/unit/gds/hash_errors_test.cc \
	test/unit/gds/hash_scale_test.cc \
	test/unit/gds/gds_test_util.cc test/unit/gds/gds_test_util.h \
	$(PMIXX_GDS_HASH_SOURCES)
# Own CPPFLAGS: distinct object names from the plugin's (same sources).
test_unit_gds_gds_hash_tests_CPPFLAGS = $(AM_CPPFLAGS)
test_unit_gds_gds_hash_tests_LDADD = src/libpmix.la -lgtest -lgtest_main
test_unit_gds_gds_hash_tests_LDFLAGS = -pthread

# Framework selection and the Store wrapper (internal: links the core).
check_PROGRAMS += test/unit/gds/gds_base_tests
TESTS += test/unit/gds/gds_base_tests
test_unit_gds_gds_base_tests_SOURCES = test/unit/gds/gds_base_test.cc \
	test/unit/gds/region_test.cc \
	test/unit/gds/region_test_util.cc test/unit/gds/region_test_util.h \
	test/unit/gds/gds_test_util.cc test/unit/gds/gds_test_util.h
test_unit_gds_gds_base_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_gds_gds_base_tests_LDFLAGS = -pthread

# The region conformance suite, run against every module with regions
# (shmem, compiled in and driven through its descriptor).
check_PROGRAMS += test/unit/gds/gds_region_tests
TESTS += test/unit/gds/gds_region_tests
test_unit_gds_gds_region_tests_SOURCES = test/unit/gds/region_conformance_test.cc \
	test/unit/gds/region_test_util.cc test/unit/gds/region_test_util.h \
	test/unit/gds/gds_test_util.h \
	$(PMIXX_GDS_SHMEM_SOURCES)
test_unit_gds_gds_region_tests_CPPFLAGS = $(AM_CPPFLAGS)
test_unit_gds_gds_region_tests_LDADD = -lgtest -lgtest_main
test_unit_gds_gds_region_tests_LDFLAGS = -pthread
endif
