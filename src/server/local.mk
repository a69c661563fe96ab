# src/server: the server library (PMIx_server_*), DESIGN §5.
src_libpmix_core_la_SOURCES += \
	src/server/server.cc src/server/server_internal.h src/server/server_state.h \
	src/server/server_accept.cc src/server/server_accept.h \
	src/server/server_peers.cc \
	src/server/server_credential.cc \
	src/server/server_self.cc src/server/server_self.h \
	src/server/server_identity.cc src/server/server_identity.h \
	src/server/server_registry.cc src/server/registration_input.cc src/server/registration_input.h \
	src/server/server_job_update.cc src/server/server_job_update.h \
	src/server/server_tool.cc src/server/server_tool.h \
	src/server/server_rendezvous.cc src/server/server_rendezvous.h \
	src/server/server_iof_peer.cc src/server/server_iof_peer.h
# PMIx_Fence on the server (server_fence*.{h,cc}).
src_libpmix_core_la_SOURCES += \
	src/server/server_fence.cc src/server/server_fence.h \
	src/server/server_fence_tracker.cc \
	src/server/server_collective.cc src/server/server_collective.h \
	src/server/fence_result.cc src/server/fence_result.h \
	src/server/host_blob.cc src/server/host_blob.h
if HAVE_GTEST
check_PROGRAMS += test/unit/server/fence_tracker_tests
TESTS += test/unit/server/fence_tracker_tests
test_unit_server_fence_tracker_tests_SOURCES = test/unit/server/fence_tracker_test.cc
test_unit_server_fence_tracker_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_server_fence_tracker_tests_LDFLAGS = -pthread
endif
# Commit/Get/direct modex (h6).
src_libpmix_core_la_SOURCES += \
	src/server/server_get.cc src/server/server_get.h src/server/server_dmodex.cc \
	src/server/server_commit.cc \
	src/server/modex_store.cc src/server/modex_store.h \
	src/server/modex_arena.cc src/server/modex_arena.h
if HAVE_GTEST
check_PROGRAMS += test/unit/server/modex_store_tests
TESTS += test/unit/server/modex_store_tests
test_unit_server_modex_store_tests_SOURCES = test/unit/server/modex_store_test.cc \
	test/unit/server/modex_ingest_test.cc test/unit/server/host_blob_test.cc
test_unit_server_modex_store_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_server_modex_store_tests_LDFLAGS = -pthread
endif
# The fence test client (test host, public pmix.h only) and its integration test.
check_PROGRAMS += test/host/clients/client_fence
test_host_clients_client_fence_SOURCES = test/host/clients/client_fence.c test/host/clients/client_util.h
test_host_clients_client_fence_CFLAGS = $(AM_CFLAGS) -pedantic
test_host_clients_client_fence_LDADD = src/libpmix.la
test_host_clients_client_fence_LDFLAGS = -no-install -pthread
TESTS += test/integration/fence.sh
EXTRA_DIST += test/integration/fence.sh
# Large blobs through collecting fences: shared regions, inline over TCP
# (test/integration/modex_shared.sh).
check_PROGRAMS += test/host/clients/client_bigblob
test_host_clients_client_bigblob_SOURCES = test/host/clients/client_bigblob.c test/host/clients/client_util.h
test_host_clients_client_bigblob_CFLAGS = $(AM_CFLAGS) -pedantic
test_host_clients_client_bigblob_LDADD = src/libpmix.la
test_host_clients_client_bigblob_LDFLAGS = -no-install -pthread
TESTS += test/integration/modex_shared.sh
EXTRA_DIST += test/integration/modex_shared.sh
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
# Publish / lookup / unpublish: the host's datastore upcalls (h1).
src_libpmix_core_la_SOURCES += src/server/server_publish.cc src/server/server_publish.h
# Connect/disconnect collectives and spawn: the host's upcalls (h2).
src_libpmix_core_la_SOURCES += \
	src/server/server_connect.cc src/server/server_connect.h \
	src/server/server_spawn.cc src/server/server_spawn.h
if HAVE_GTEST
check_PROGRAMS += test/unit/server/connect_spawn_tests
TESTS += test/unit/server/connect_spawn_tests
test_unit_server_connect_spawn_tests_SOURCES = test/unit/server/connect_spawn_test.cc
test_unit_server_connect_spawn_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_server_connect_spawn_tests_LDFLAGS = -pthread
endif
# Application setup, inventory, IOF delivery, attribute registration,
# allocation and monitoring (h5).
src_libpmix_core_la_SOURCES += \
	src/server/envar_directives.cc src/server/envar_directives.h \
	src/server/server_app_setup.cc src/server/server_app_setup.h \
	src/server/server_inventory.cc src/server/server_inventory.h \
	src/server/server_iof.cc src/server/server_iof.h \
	src/server/server_attributes.cc src/server/server_attributes.h \
	src/server/server_alloc.cc src/server/server_alloc.h \
	src/server/server_monitor.cc src/server/server_monitor.h \
	src/server/server_fabric.cc src/server/server_fabric.h
if HAVE_GTEST
check_PROGRAMS += test/unit/server/server_misc_tests
TESTS += test/unit/server/server_misc_tests
test_unit_server_server_misc_tests_SOURCES = \
	test/unit/server/envar_directives_test.cc \
	test/unit/server/iof_registry_test.cc \
	test/unit/server/server_apis_test.cc test/unit/server/in_process_server.h \
	test/unit/server/server_identity_test.cc \
	test/unit/server/job_image_server_test.cc \
	test/unit/server/registration_input_test.cc
test_unit_server_server_misc_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
# The test runs a server in-process: its dlopen'd components (gds, ptl, ...)
# resolve the PMIx_* API against the executable, so export it.
test_unit_server_server_misc_tests_LDFLAGS = -pthread -Wl,--export-dynamic
# The limits a server puts on its peers, before and after the hello, the
# modes of the files and sockets it creates, and what a refused or
# deregistered client does to the others' fences.
check_PROGRAMS += test/unit/server/peer_limits_tests
TESTS += test/unit/server/peer_limits_tests
test_unit_server_peer_limits_tests_SOURCES = test/unit/server/peer_limits_test.cc \
	test/unit/server/file_modes_test.cc test/unit/server/deregister_client_test.cc \
	test/unit/server/region_admission_test.cc test/unit/server/doorbell_test.cc \
	test/unit/server/in_process_server.h test/unit/server/raw_peer.h \
	test/unit/gds/region_test_util.cc test/unit/gds/region_test_util.h
test_unit_server_peer_limits_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_server_peer_limits_tests_LDFLAGS = -pthread -Wl,--export-dynamic
endif
# Allocation and monitoring through the test host (client_alloc).
check_PROGRAMS += test/host/clients/client_alloc
test_host_clients_client_alloc_SOURCES = test/host/clients/client_alloc.c test/host/clients/client_util.h
test_host_clients_client_alloc_CFLAGS = $(AM_CFLAGS) -pedantic
test_host_clients_client_alloc_LDADD = src/libpmix.la
test_host_clients_client_alloc_LDFLAGS = -no-install -pthread
TESTS += test/integration/alloc_monitor.sh
EXTRA_DIST += test/integration/alloc_monitor.sh
# Query and log on the server (h4).
src_libpmix_core_la_SOURCES += \
	src/server/query_answers.cc src/server/query_answers.h \
	src/server/server_query.cc src/server/server_query.h \
	src/server/server_query_keys.cc src/server/server_query_keys.h \
	src/server/server_log.cc src/server/server_log.h \
	src/server/log_channels.cc src/server/log_channels.h
if HAVE_GTEST
check_PROGRAMS += test/unit/server/query_answers_tests test/unit/server/log_channels_tests
TESTS += test/unit/server/query_answers_tests test/unit/server/log_channels_tests
test_unit_server_query_answers_tests_SOURCES = test/unit/server/query_answers_test.cc
test_unit_server_query_answers_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_server_query_answers_tests_LDFLAGS = -pthread
test_unit_server_log_channels_tests_SOURCES = test/unit/server/log_channels_test.cc
test_unit_server_log_channels_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_server_log_channels_tests_LDFLAGS = -pthread
endif
if HAVE_GTEST
check_PROGRAMS += test/unit/server/publish_tests
TESTS += test/unit/server/publish_tests
test_unit_server_publish_tests_SOURCES = test/unit/server/publish_test.cc \
	test/unit/server/in_process_server.h
test_unit_server_publish_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
# An in-process server: its dlopen'd components resolve the API against the executable.
test_unit_server_publish_tests_LDFLAGS = -pthread -Wl,--export-dynamic
endif
# Monitoring done by the library (heartbeats, files) without a host upcall.
check_PROGRAMS += test/host/clients/client_monitor
test_host_clients_client_monitor_SOURCES = test/host/clients/client_monitor.c test/host/clients/client_util.h
test_host_clients_client_monitor_CFLAGS = $(AM_CFLAGS) -pedantic
test_host_clients_client_monitor_LDADD = src/libpmix.la
test_host_clients_client_monitor_LDFLAGS = -no-install -pthread
TESTS += test/integration/monitor.sh
EXTRA_DIST += test/integration/monitor.sh
