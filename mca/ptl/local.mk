# mca/ptl: framework base (multi-select listen/accept/connect), framing and
# whole-frame I/O.
src_libpmix_core_la_SOURCES += \
	mca/ptl/base/fd.h \
	mca/ptl/base/fd_passing.cc mca/ptl/base/fd_passing.h \
	mca/ptl/base/frame.cc mca/ptl/base/frame.h \
	mca/ptl/base/frame_io.cc mca/ptl/base/frame_io.h \
	mca/ptl/base/ptl_base.cc mca/ptl/base/ptl_base.h

if HAVE_GTEST
# Framing and frame I/O (pure code over socketpairs).
check_PROGRAMS += test/unit/ptl/ptl_frame_tests
TESTS += test/unit/ptl/ptl_frame_tests
test_unit_ptl_ptl_frame_tests_SOURCES = \
	test/unit/ptl/frame_test.cc test/unit/ptl/frame_io_test.cc \
	test/unit/ptl/fd_passing_test.cc test/unit/ptl/fd_test_util.h
test_unit_ptl_ptl_frame_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_ptl_ptl_frame_tests_LDFLAGS = -pthread

# Both components compiled in and driven through their descriptors, with
# the framing sources (no libpmix: the components use none of it).
check_PROGRAMS += test/unit/ptl/ptl_module_tests
TESTS += test/unit/ptl/ptl_module_tests
test_unit_ptl_ptl_module_tests_SOURCES = \
	test/unit/ptl/ptl_test_util.cc test/unit/ptl/ptl_test_util.h \
	test/unit/ptl/usock_test.cc test/unit/ptl/tcp_test.cc \
	mca/ptl/base/fd_passing.cc mca/ptl/base/fd_passing.h \
	mca/ptl/base/frame.cc mca/ptl/base/frame.h \
	mca/ptl/base/frame_io.cc mca/ptl/base/frame_io.h \
	$(PMIXX_PTL_USOCK_SOURCES) $(PMIXX_PTL_TCP_SOURCES) plugins/ptl/common/ptl_socket.h
# Own CPPFLAGS: distinct object names from the plugins' and the core's.
test_unit_ptl_ptl_module_tests_CPPFLAGS = $(AM_CPPFLAGS)
test_unit_ptl_ptl_module_tests_LDADD = -lgtest -lgtest_main
test_unit_ptl_ptl_module_tests_LDFLAGS = -pthread

# The framework API over the real components (selection, params).
check_PROGRAMS += test/unit/ptl/ptl_base_tests
TESTS += test/unit/ptl/ptl_base_tests
test_unit_ptl_ptl_base_tests_SOURCES = \
	test/unit/ptl/ptl_base_test.cc \
	test/unit/ptl/ptl_test_util.cc test/unit/ptl/ptl_test_util.h
test_unit_ptl_ptl_base_tests_LDADD = src/libpmix_core.la -lgtest
test_unit_ptl_ptl_base_tests_LDFLAGS = -pthread
endif
