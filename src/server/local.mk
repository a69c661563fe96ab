# src/server: the server library (PMIx_server_*), DESIGN §5.
src_libpmix_core_la_SOURCES += \
	src/server/server.cc src/server/server_internal.h src/server/server_state.h \
	src/server/server_peers.cc \
	src/server/server_credential.cc \
	src/server/server_registry.cc
# PMIx_Fence on the server (server_fence*.{h,cc}).
src_libpmix_core_la_SOURCES += \
	src/server/server_fence.cc src/server/server_fence.h \
	src/server/server_fence_tracker.cc
if HAVE_GTEST
check_PROGRAMS += test/unit/server/fence_tracker_tests
TESTS += test/unit/server/fence_tracker_tests
test_unit_server_fence_tracker_tests_SOURCES = test/unit/server/fence_tracker_test.cc
test_unit_server_fence_tracker_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_server_fence_tracker_tests_LDFLAGS = -pthread
endif
# Commit/Get/direct modex (h6).
src_libpmix_core_la_SOURCES += \
	src/server/server_get.cc src/server/server_get.h src/server/server_dmodex.cc
