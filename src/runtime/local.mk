# src/runtime: library init/finalize, version, progress.
src_libpmix_core_la_SOURCES += src/runtime/version.cc
src_libpmix_core_la_SOURCES += src/runtime/state.h src/runtime/context.cc src/runtime/context.h
# The progress engine (one libevent loop per process, DESIGN §5).
src_libpmix_core_la_SOURCES += \
	src/runtime/progress.cc src/runtime/progress.h \
	src/runtime/progress_slot.cc src/runtime/progress_slot.h \
	src/runtime/read_mostly.cc src/runtime/read_mostly.h

if HAVE_GTEST
check_PROGRAMS += test/unit/runtime/progress_tests
TESTS += test/unit/runtime/progress_tests
test_unit_runtime_progress_tests_SOURCES = \
	test/unit/runtime/context_test.cc \
	test/unit/runtime/progress_test.cc \
	test/unit/runtime/progress_timer_fd_test.cc \
	test/unit/runtime/read_mostly_test.cc
test_unit_runtime_progress_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_runtime_progress_tests_LDFLAGS = -pthread
endif
