# mca/psec: framework base (multi-select) and the internal credential API
# (handshake, PMIx_Get/Validate_credential fallbacks).
src_libpmix_core_la_SOURCES += \
	mca/psec/base/psec_base.cc mca/psec/base/psec_base.h

EXTRA_DIST += test/tools/munged.sh

if HAVE_GTEST
PMIXX_PSEC_TEST_HELPERS = \
	test/unit/psec/private_munged.cc test/unit/psec/private_munged.h \
	test/unit/psec/psec_harness.h
if HAVE_MUNGE
PMIXX_PSEC_TEST_HAVE_MUNGE = 1
else
PMIXX_PSEC_TEST_HAVE_MUNGE = 0
endif
PMIXX_PSEC_TEST_CPPFLAGS = $(AM_CPPFLAGS) -DPMIXX_TEST_SRCDIR='"$(abs_top_srcdir)"' \
	-DPMIXX_TEST_HAVE_MUNGE=$(PMIXX_PSEC_TEST_HAVE_MUNGE)

# Each component compiled in and driven through its descriptor; munge
# against a private munged the suite starts (skipped without the daemon).
check_PROGRAMS += test/unit/psec/psec_module_tests
TESTS += test/unit/psec/psec_module_tests
test_unit_psec_psec_module_tests_SOURCES = \
	test/unit/psec/psec_module_test.cc \
	$(PMIXX_PSEC_TEST_HELPERS) \
	$(PMIXX_PSEC_NATIVE_SOURCES) $(PMIXX_PSEC_NONE_SOURCES) $(PMIXX_PSEC_UTIL_SOURCES)
# Own CPPFLAGS: distinct object names from the plugins' (same sources).
test_unit_psec_psec_module_tests_CPPFLAGS = $(PMIXX_PSEC_TEST_CPPFLAGS)
test_unit_psec_psec_module_tests_LDADD = -lgtest -lgtest_main
test_unit_psec_psec_module_tests_LDFLAGS = -pthread
if HAVE_MUNGE
test_unit_psec_psec_module_tests_SOURCES += test/unit/psec/munge_module_test.cc \
	$(PMIXX_PSEC_MUNGE_SOURCES)
test_unit_psec_psec_module_tests_LDADD += -lmunge
endif

# The framework over the real components (links the core library).
check_PROGRAMS += test/unit/psec/psec_base_tests
TESTS += test/unit/psec/psec_base_tests
test_unit_psec_psec_base_tests_SOURCES = \
	test/unit/psec/psec_base_test.cc $(PMIXX_PSEC_TEST_HELPERS)
test_unit_psec_psec_base_tests_CPPFLAGS = $(PMIXX_PSEC_TEST_CPPFLAGS)
test_unit_psec_psec_base_tests_LDADD = src/libpmix_core.la -lgtest
test_unit_psec_psec_base_tests_LDFLAGS = -pthread
endif
