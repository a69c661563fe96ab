# src/server: the server library (PMIx_server_*), DESIGN §5.
src_libpmix_core_la_SOURCES += \
	src/server/server.cc src/server/server_internal.h src/server/server_state.h \
	src/server/server_peers.cc \
	src/server/server_credential.cc \
	src/server/server_self.cc src/server/server_self.h \
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
# The fence test client (test host, public pmix.h only) and its integration test.
check_PROGRAMS += test/host/clients/client_fence
test_host_clients_client_fence_SOURCES = test/host/clients/client_fence.c test/host/clients/client_util.h
test_host_clients_client_fence_CFLAGS = $(AM_CFLAGS) -pedantic
test_host_clients_client_fence_LDADD = src/libpmix.la
test_host_clients_client_fence_LDFLAGS = -no-install -pthread
TESTS += test/integration/fence.sh
EXTRA_DIST += test/integration/fence.sh
# Job control: cleanup registrations and the host's job_control (h7).
src_libpmix_core_la_SOURCES += \
	src/server/server_job_control.cc src/server/server_job_control.h \
	src/server/server_upcall.cc src/server/server_upcall.h \
	src/server/server_cleanup.cc src/server/server_cleanup.h
if HAVE_GTEST
check_PROGRAMS += test/unit/server/cleanup_tests
TESTS += test/unit/server/cleanup_tests
test_unit_server_cleanup_tests_SOURCES = test/unit/server/cleanup_test.cc
test_unit_server_cleanup_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_server_cleanup_tests_LDFLAGS = -pthread
endif
