# test/host: the in-tree test host (public pmix_server.h API only), its test
# clients (public pmix.h API only) and the integration tests that run them.
# The same sources build against OpenPMIx: PMIXX_TEST_LIB=debian makes the
# scripts compile them against Debian's libpmix-dev and run them there.

PMIXX_TEST_HOST_COMPILE = $(AM_CFLAGS) -pedantic
# -no-install: real binaries (no libtool wrapper), so the host can exec the
# clients directly and the scripts can swap the library underneath.
PMIXX_TEST_HOST_LINK = -no-install -pthread

check_PROGRAMS += test/host/pmix_test_host
test_host_pmix_test_host_SOURCES = \
	test/host/pmix_test_host.c test/host/host.h test/host/self_usage.h \
	test/host/host_module.c test/host/host_launch.c test/host/host_peer.c \
	test/host/host_tool.c
test_host_pmix_test_host_CFLAGS = $(PMIXX_TEST_HOST_COMPILE)
test_host_pmix_test_host_LDADD = src/libpmix.la
test_host_pmix_test_host_LDFLAGS = $(PMIXX_TEST_HOST_LINK)

PMIXX_TEST_CLIENTS = \
	test/host/clients/client_basic \
	test/host/clients/client_image \
	test/host/clients/client_owner \
	test/host/clients/client_modex \
	test/host/clients/client_events \
	test/host/clients/client_abort \
	test/host/clients/client_fence_wait \
	test/host/clients/client_lost_server \
	test/host/clients/client_external \
	test/host/clients/client_credential
check_PROGRAMS += $(PMIXX_TEST_CLIENTS) test/host/clients/bad_peer

test_host_clients_client_external_SOURCES = test/host/clients/client_external.c test/host/clients/client_util.h
test_host_clients_client_external_CFLAGS = $(PMIXX_TEST_HOST_COMPILE)
test_host_clients_client_external_LDADD = src/libpmix.la
test_host_clients_client_external_LDFLAGS = $(PMIXX_TEST_HOST_LINK)
test_host_clients_client_credential_SOURCES = test/host/clients/client_credential.c test/host/clients/client_util.h
test_host_clients_client_credential_CFLAGS = $(PMIXX_TEST_HOST_COMPILE)
test_host_clients_client_credential_LDADD = src/libpmix.la
test_host_clients_client_credential_LDFLAGS = $(PMIXX_TEST_HOST_LINK)
test_host_clients_client_image_SOURCES = test/host/clients/client_image.c test/host/clients/client_util.h \
	test/common/jobinfo_dump.h
test_host_clients_client_image_CFLAGS = $(PMIXX_TEST_HOST_COMPILE)
test_host_clients_client_image_LDADD = src/libpmix.la
test_host_clients_client_image_LDFLAGS = $(PMIXX_TEST_HOST_LINK)
test_host_clients_client_owner_SOURCES = test/host/clients/client_owner.c test/host/clients/client_util.h
test_host_clients_client_owner_CFLAGS = $(PMIXX_TEST_HOST_COMPILE)
test_host_clients_client_owner_LDADD = src/libpmix.la
test_host_clients_client_owner_LDFLAGS = $(PMIXX_TEST_HOST_LINK)
test_host_clients_client_basic_SOURCES = test/host/clients/client_basic.c test/host/clients/client_util.h
test_host_clients_client_basic_CFLAGS = $(PMIXX_TEST_HOST_COMPILE)
test_host_clients_client_basic_LDADD = src/libpmix.la
test_host_clients_client_basic_LDFLAGS = $(PMIXX_TEST_HOST_LINK)
test_host_clients_client_modex_SOURCES = test/host/clients/client_modex.c test/host/clients/client_util.h
test_host_clients_client_modex_CFLAGS = $(PMIXX_TEST_HOST_COMPILE)
test_host_clients_client_modex_LDADD = src/libpmix.la
test_host_clients_client_modex_LDFLAGS = $(PMIXX_TEST_HOST_LINK)
test_host_clients_client_events_SOURCES = test/host/clients/client_events.c test/host/clients/client_util.h
test_host_clients_client_events_CFLAGS = $(PMIXX_TEST_HOST_COMPILE)
test_host_clients_client_events_LDADD = src/libpmix.la
test_host_clients_client_events_LDFLAGS = $(PMIXX_TEST_HOST_LINK)
test_host_clients_client_abort_SOURCES = test/host/clients/client_abort.c test/host/clients/client_util.h
test_host_clients_client_abort_CFLAGS = $(PMIXX_TEST_HOST_COMPILE)
test_host_clients_client_abort_LDADD = src/libpmix.la
test_host_clients_client_abort_LDFLAGS = $(PMIXX_TEST_HOST_LINK)
test_host_clients_client_fence_wait_SOURCES = test/host/clients/client_fence_wait.c test/host/clients/client_util.h
test_host_clients_client_fence_wait_CFLAGS = $(PMIXX_TEST_HOST_COMPILE)
test_host_clients_client_fence_wait_LDADD = src/libpmix.la
test_host_clients_client_fence_wait_LDFLAGS = $(PMIXX_TEST_HOST_LINK)
test_host_clients_client_lost_server_SOURCES = test/host/clients/client_lost_server.c test/host/clients/client_util.h
test_host_clients_client_lost_server_CFLAGS = $(PMIXX_TEST_HOST_COMPILE)
test_host_clients_client_lost_server_LDADD = src/libpmix.la
test_host_clients_client_lost_server_LDFLAGS = $(PMIXX_TEST_HOST_LINK)
# bad_peer speaks raw bytes: no PMIx library at all.
test_host_clients_bad_peer_SOURCES = test/host/clients/bad_peer.c
test_host_clients_bad_peer_CFLAGS = $(PMIXX_TEST_HOST_COMPILE)

# Integration tests: each script runs the host with real client processes.
PMIXX_INTEGRATION_TESTS = \
	test/integration/basic.sh \
	test/integration/external_progress.sh \
	test/integration/munge.sh \
	test/integration/modex.sh \
	test/integration/events.sh \
	test/integration/abort.sh \
	test/integration/fence_kill.sh \
	test/integration/lost_server.sh \
	test/integration/bad_peer.sh \
	test/integration/wrong_uid.sh \
	test/integration/tcp.sh \
	test/integration/image.sh
TESTS += $(PMIXX_INTEGRATION_TESTS)
EXTRA_DIST += $(PMIXX_INTEGRATION_TESTS) test/integration/common.sh test/integration/README.md
# Process groups through the test host (test/integration/group.sh).
check_PROGRAMS += test/host/clients/client_group
test_host_clients_client_group_SOURCES = test/host/clients/client_group.c test/host/clients/client_util.h
test_host_clients_client_group_CFLAGS = $(AM_CFLAGS) -pedantic
test_host_clients_client_group_LDADD = src/libpmix.la
test_host_clients_client_group_LDFLAGS = -no-install -pthread
TESTS += test/integration/group.sh
EXTRA_DIST += test/integration/group.sh

# Tools against the test host (issue 11): the tool program, the job process
# it releases, and the script running every connection mode.
check_PROGRAMS += test/host/clients/client_tool_peer test/host/clients/tool_connect
test_host_clients_client_tool_peer_SOURCES = test/host/clients/client_tool_peer.c \
	test/host/clients/client_util.h test/host/clients/tool_util.h
test_host_clients_client_tool_peer_CFLAGS = $(PMIXX_TEST_HOST_COMPILE)
test_host_clients_client_tool_peer_LDADD = src/libpmix.la
test_host_clients_client_tool_peer_LDFLAGS = $(PMIXX_TEST_HOST_LINK)
test_host_clients_tool_connect_SOURCES = test/host/clients/tool_connect.c test/host/clients/tool_util.h
test_host_clients_tool_connect_CFLAGS = $(PMIXX_TEST_HOST_COMPILE)
test_host_clients_tool_connect_LDADD = src/libpmix.la
test_host_clients_tool_connect_LDFLAGS = $(PMIXX_TEST_HOST_LINK)
TESTS += test/integration/tool.sh
EXTRA_DIST += test/integration/tool.sh

# Several application threads per process at once, for the TSan build
# (test/integration/threads.sh).
check_PROGRAMS += test/host/clients/client_threads
test_host_clients_client_threads_SOURCES = test/host/clients/client_threads.c test/host/clients/client_util.h
test_host_clients_client_threads_CFLAGS = $(PMIXX_TEST_HOST_COMPILE)
test_host_clients_client_threads_LDADD = src/libpmix.la
test_host_clients_client_threads_LDFLAGS = $(PMIXX_TEST_HOST_LINK)
TESTS += test/integration/threads.sh
EXTRA_DIST += test/integration/threads.sh

# Load and soak (issue 15): many clients, many fences, init/finalize cycles,
# a connection flood; scaled down here, at full size in bench/soak.sh.
check_PROGRAMS += test/host/clients/client_soak
test_host_clients_client_soak_SOURCES = test/host/clients/client_soak.c test/host/clients/client_util.h \
	test/host/self_usage.h
test_host_clients_client_soak_CFLAGS = $(PMIXX_TEST_HOST_COMPILE)
test_host_clients_client_soak_LDADD = src/libpmix.la
test_host_clients_client_soak_LDFLAGS = $(PMIXX_TEST_HOST_LINK)
TESTS += test/integration/soak.sh
EXTRA_DIST += test/integration/soak.sh
