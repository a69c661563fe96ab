# test/pmixrun: pmixrun end to end (run_pmixrun.sh), with the README's
# example (examples/job_view.c) and a test client of its own.
PMIXX_PMIXRUN_LINK = -no-install -pthread

check_PROGRAMS += test/pmixrun/job_view test/pmixrun/pmixrun_client
test_pmixrun_job_view_SOURCES = examples/job_view.c
test_pmixrun_job_view_CFLAGS = $(AM_CFLAGS) -pedantic
test_pmixrun_job_view_LDADD = src/libpmix.la
test_pmixrun_job_view_LDFLAGS = $(PMIXX_PMIXRUN_LINK)
test_pmixrun_pmixrun_client_SOURCES = test/pmixrun/pmixrun_client.c
test_pmixrun_pmixrun_client_CFLAGS = $(AM_CFLAGS) -pedantic
test_pmixrun_pmixrun_client_LDADD = src/libpmix.la
test_pmixrun_pmixrun_client_LDFLAGS = $(PMIXX_PMIXRUN_LINK)

TESTS += test/pmixrun/run_pmixrun.sh
EXTRA_DIST += test/pmixrun/run_pmixrun.sh test/pmixrun/common.sh

# Publish/lookup through pmixrun's datastore (h1): the end-to-end client and
# script, and the datastore's rules alone (gtest).
check_PROGRAMS += test/pmixrun/pubsub_client
test_pmixrun_pubsub_client_SOURCES = test/pmixrun/pubsub_client.c test/pmixrun/client_util.h
test_pmixrun_pubsub_client_CFLAGS = $(AM_CFLAGS) -pedantic
test_pmixrun_pubsub_client_LDADD = src/libpmix.la
test_pmixrun_pubsub_client_LDFLAGS = $(PMIXX_PMIXRUN_LINK)
TESTS += test/pmixrun/pubsub.sh
EXTRA_DIST += test/pmixrun/pubsub.sh
if HAVE_GTEST
check_PROGRAMS += test/unit/pmixrun/pubsub_store_tests
TESTS += test/unit/pmixrun/pubsub_store_tests
test_unit_pmixrun_pubsub_store_tests_SOURCES = test/unit/pmixrun/pubsub_store_test.cc \
	src/tools/pmixrun/pubsub_store.cc src/tools/pmixrun/pubsub_store.h
test_unit_pmixrun_pubsub_store_tests_LDADD = src/libpmix.la -lgtest -lgtest_main
test_unit_pmixrun_pubsub_store_tests_LDFLAGS = -no-install -pthread
endif
# Query, resolve and log under pmixrun (h4).
check_PROGRAMS += test/pmixrun/query_client
test_pmixrun_query_client_SOURCES = test/pmixrun/query_client.c test/pmixrun/client_util.h
test_pmixrun_query_client_CFLAGS = $(AM_CFLAGS) -pedantic
test_pmixrun_query_client_LDADD = src/libpmix.la
test_pmixrun_query_client_LDFLAGS = $(PMIXX_PMIXRUN_LINK)
TESTS += test/pmixrun/query.sh
EXTRA_DIST += test/pmixrun/query.sh
# Spawn, connect and disconnect under pmixrun (h3): the end-to-end client and
# script, and the spawn request rules alone (gtest).
check_PROGRAMS += test/pmixrun/spawn_client
test_pmixrun_spawn_client_SOURCES = test/pmixrun/spawn_client.c test/pmixrun/client_util.h
test_pmixrun_spawn_client_CFLAGS = $(AM_CFLAGS) -pedantic
test_pmixrun_spawn_client_LDADD = src/libpmix.la
test_pmixrun_spawn_client_LDFLAGS = $(PMIXX_PMIXRUN_LINK)
TESTS += test/pmixrun/spawn.sh
EXTRA_DIST += test/pmixrun/spawn.sh
if HAVE_GTEST
check_PROGRAMS += test/unit/pmixrun/spawn_request_tests
TESTS += test/unit/pmixrun/spawn_request_tests
test_unit_pmixrun_spawn_request_tests_SOURCES = test/unit/pmixrun/spawn_request_test.cc \
	test/unit/pmixrun/debug_directives_test.cc \
	src/tools/pmixrun/spawn_request.cc src/tools/pmixrun/spawn_request.h \
	src/tools/pmixrun/debug_directives.cc src/tools/pmixrun/debug_directives.h \
	src/tools/pmixrun/children.cc src/tools/pmixrun/children.h \
	src/tools/pmixrun/iof_forward.cc src/tools/pmixrun/iof_forward.h \
	src/tools/pmixrun/wakeup.cc src/tools/pmixrun/wakeup.h \
	src/tools/pmixrun/job_info.cc src/tools/pmixrun/job_info.h \
	src/tools/pmixrun/jobs.cc src/tools/pmixrun/jobs.h
test_unit_pmixrun_spawn_request_tests_LDADD = src/libpmix.la -lgtest -lgtest_main
test_unit_pmixrun_spawn_request_tests_LDFLAGS = -no-install -pthread
endif
# Process groups and process sets under pmixrun (issue 12).
check_PROGRAMS += test/pmixrun/group_client
test_pmixrun_group_client_SOURCES = test/pmixrun/group_client.c test/pmixrun/client_util.h
test_pmixrun_group_client_CFLAGS = $(AM_CFLAGS) -pedantic
test_pmixrun_group_client_LDADD = src/libpmix.la
test_pmixrun_group_client_LDFLAGS = $(PMIXX_PMIXRUN_LINK)
TESTS += test/pmixrun/group.sh
EXTRA_DIST += test/pmixrun/group.sh
# OpenPMIx's group examples (Debian's libpmix-dev) under pmixrun on pmixx.
TESTS += test/pmixrun/openpmix_examples.sh
EXTRA_DIST += test/pmixrun/openpmix_examples.sh test/pmixrun/openpmix_examples.h \
	test/pmixrun/common_examples.sh

# The node topology and binding under pmixrun (issue 13).
check_PROGRAMS += test/pmixrun/topo_client
test_pmixrun_topo_client_SOURCES = test/pmixrun/topo_client.c test/pmixrun/client_util.h
test_pmixrun_topo_client_CFLAGS = $(AM_CFLAGS) -pedantic
test_pmixrun_topo_client_LDADD = src/libpmix.la -lhwloc
test_pmixrun_topo_client_LDFLAGS = $(PMIXX_PMIXRUN_LINK)
TESTS += test/pmixrun/topology.sh test/pmixrun/openpmix_client.sh
EXTRA_DIST += test/pmixrun/topology.sh test/pmixrun/openpmix_client.sh
# Tools attached to a running pmixrun (issue 11): every connection mode,
# forwarded output in every format, stdin pushed by a tool, 1 GiB through a
# slow tool with bounded memory.
check_PROGRAMS += test/pmixrun/iof_job test/pmixrun/tool_iof
test_pmixrun_iof_job_SOURCES = test/pmixrun/iof_job.c
test_pmixrun_iof_job_CFLAGS = $(AM_CFLAGS) -pedantic
test_pmixrun_iof_job_LDADD = src/libpmix.la
test_pmixrun_iof_job_LDFLAGS = $(PMIXX_PMIXRUN_LINK)
test_pmixrun_tool_iof_SOURCES = test/pmixrun/tool_iof.c
test_pmixrun_tool_iof_CFLAGS = $(AM_CFLAGS) -pedantic
test_pmixrun_tool_iof_LDADD = src/libpmix.la
test_pmixrun_tool_iof_LDFLAGS = $(PMIXX_PMIXRUN_LINK)
TESTS += test/pmixrun/tools.sh
EXTRA_DIST += test/pmixrun/tools.sh
# Debuggers (issue 11): stop in init / on exec / in the app, release,
# PMIX_LAUNCH_COMPLETE, debugger daemons; OpenPMIx's tool and debugger
# examples (Debian's libpmix-dev) against pmixrun.
check_PROGRAMS += test/pmixrun/debug_client test/pmixrun/debug_tool test/pmixrun/debug_daemon
test_pmixrun_debug_client_SOURCES = test/pmixrun/debug_client.c test/pmixrun/client_util.h
test_pmixrun_debug_client_CFLAGS = $(AM_CFLAGS) -pedantic
test_pmixrun_debug_client_LDADD = src/libpmix.la
test_pmixrun_debug_client_LDFLAGS = $(PMIXX_PMIXRUN_LINK)
test_pmixrun_debug_tool_SOURCES = test/pmixrun/debug_tool.c test/pmixrun/client_util.h
test_pmixrun_debug_tool_CFLAGS = $(AM_CFLAGS) -pedantic
test_pmixrun_debug_tool_LDADD = src/libpmix.la
test_pmixrun_debug_tool_LDFLAGS = $(PMIXX_PMIXRUN_LINK)
test_pmixrun_debug_daemon_SOURCES = test/pmixrun/debug_daemon.c test/pmixrun/client_util.h
test_pmixrun_debug_daemon_CFLAGS = $(AM_CFLAGS) -pedantic
test_pmixrun_debug_daemon_LDADD = src/libpmix.la
test_pmixrun_debug_daemon_LDFLAGS = $(PMIXX_PMIXRUN_LINK)
TESTS += test/pmixrun/cli.sh test/pmixrun/debugger.sh test/pmixrun/openpmix_tools.sh
EXTRA_DIST += test/pmixrun/cli.sh test/pmixrun/debugger.sh test/pmixrun/openpmix_tools.sh
# python3-pmix's PMIxTool against pmixrun.
TESTS += test/pmixrun/python_tool.sh
EXTRA_DIST += test/pmixrun/python_tool.sh test/pmixrun/pmixtool_attach.py
