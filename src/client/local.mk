# src/client: the client library (PMIx_Init, Put/Commit, Fence, Get, ...).
src_libpmix_core_la_SOURCES += \
	src/client/client.cc src/client/client_state.h \
	src/client/client_debug.cc src/client/client_debug.h \
	src/client/client_link.cc src/client/client_link.h \
	src/client/client_credential.cc
# PMIx_Fence / PMIx_Fence_nb on the client.
src_libpmix_core_la_SOURCES += src/client/client_doorbell.cc src/client/client_doorbell.h src/client/client_fence.cc src/client/client_modex.cc src/client/client_modex.h
# Put/Commit/Get (h6).
src_libpmix_core_la_SOURCES += \
	src/client/client_put.cc src/client/client_get.cc src/client/client_job_update.cc \
	src/client/get_rules.cc src/client/get_rules.h
if HAVE_GTEST
check_PROGRAMS += test/unit/client/get_rules_tests
TESTS += test/unit/client/get_rules_tests
test_unit_client_get_rules_tests_SOURCES = test/unit/client/get_rules_test.cc
test_unit_client_get_rules_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_client_get_rules_tests_LDFLAGS = -pthread
# Which processes a debugger's stop directive names (client_debug.h).
check_PROGRAMS += test/unit/client/client_debug_tests
TESTS += test/unit/client/client_debug_tests
test_unit_client_client_debug_tests_SOURCES = test/unit/client/client_debug_test.cc
test_unit_client_client_debug_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_client_client_debug_tests_LDFLAGS = -pthread
endif
# The get rules against a real server: test host + client_get (test/host/).
check_PROGRAMS += test/host/clients/client_get
test_host_clients_client_get_SOURCES = test/host/clients/client_get.c test/host/clients/client_util.h
test_host_clients_client_get_CFLAGS = $(AM_CFLAGS) -pedantic
test_host_clients_client_get_LDADD = src/libpmix.la
test_host_clients_client_get_LDFLAGS = -no-install -pthread
TESTS += test/integration/get.sh
EXTRA_DIST += test/integration/get.sh
# PMIx_Job_control(_nb) (h7).
src_libpmix_core_la_SOURCES += src/client/client_job_control.cc \
	src/client/client_request.cc src/client/client_request.h
# PMIx_Publish / Lookup / Unpublish (h1).
src_libpmix_core_la_SOURCES += src/client/client_publish.cc
# PMIx_Connect/Disconnect and PMIx_Spawn (h2).
src_libpmix_core_la_SOURCES += src/client/client_connect.cc src/client/client_spawn.cc
# PMIx_Allocation_request(_nb), PMIx_Process_monitor(_nb) (h5).
src_libpmix_core_la_SOURCES += src/client/client_alloc.cc src/client/client_monitor.cc \
	src/client/client_fabric.cc
# PMIx_Query_info(_nb), PMIx_Resolve_peers/nodes, PMIx_Log(_nb) (h4).
src_libpmix_core_la_SOURCES += \
	src/client/client_query.cc src/client/client_log.cc \
	src/client/client_resolve.cc src/client/resolve_data.cc src/client/resolve_data.h
if HAVE_GTEST
check_PROGRAMS += test/unit/client/resolve_data_tests
TESTS += test/unit/client/resolve_data_tests
test_unit_client_resolve_data_tests_SOURCES = test/unit/client/resolve_data_test.cc
test_unit_client_resolve_data_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_client_resolve_data_tests_LDFLAGS = -pthread
endif
# Connect/disconnect/spawn against the test host (h2).
check_PROGRAMS += test/host/clients/client_connect
test_host_clients_client_connect_SOURCES = test/host/clients/client_connect.c test/host/clients/client_util.h
test_host_clients_client_connect_CFLAGS = $(AM_CFLAGS) -pedantic
test_host_clients_client_connect_LDADD = src/libpmix.la
test_host_clients_client_connect_LDFLAGS = -no-install -pthread
TESTS += test/integration/connect.sh
EXTRA_DIST += test/integration/connect.sh
# The client's waiting records of peers (client_modex.h).
if HAVE_GTEST
check_PROGRAMS += test/unit/client/client_modex_tests
TESTS += test/unit/client/client_modex_tests
test_unit_client_client_modex_tests_SOURCES = test/unit/client/client_modex_test.cc test/unit/client/client_doorbell_test.cc
test_unit_client_client_modex_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_client_client_modex_tests_LDFLAGS = -pthread
endif
