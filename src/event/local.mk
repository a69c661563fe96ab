# src/event: event registration, chaining and delivery (spec ch. 10).
src_libpmix_core_la_SOURCES += \
	src/event/event.cc src/event/event.h \
	src/event/registry.cc src/event/registry.h \
	src/event/dispatcher.cc src/event/dispatcher.h \
	src/event/event_api.cc src/event/roles.h \
	src/event/handler_module.cc src/event/handler_module.h
# The roles' event files (owned with this area; their hooks are declared in
# src/server/server_state.h, src/client/client_state.h and src/event/roles.h).
src_libpmix_core_la_SOURCES += src/server/server_events.cc src/client/client_events.cc

if HAVE_GTEST
check_PROGRAMS += test/unit/event/event_tests
TESTS += test/unit/event/event_tests
test_unit_event_event_tests_SOURCES = \
	test/unit/event/registry_test.cc \
	test/unit/event/dispatcher_test.cc \
	test/unit/event/event_test_util.h
test_unit_event_event_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_event_event_tests_LDFLAGS = -pthread
endif

# A handler's module dlclosed while work it queued is pending, as Open MPI
# leaves its ext3x module (src/event/handler_module.h).
check_LTLIBRARIES += test/unit/event/late_module.la
test_unit_event_late_module_la_SOURCES = test/unit/event/late_module.c
test_unit_event_late_module_la_LDFLAGS = -module -avoid-version -rpath /nowhere -no-undefined
test_unit_event_late_module_la_LIBADD = src/libpmix.la
check_PROGRAMS += test/unit/event/late_handler_test
TESTS += test/unit/event/late_handler_test
test_unit_event_late_handler_test_SOURCES = test/unit/event/late_handler_test.c
test_unit_event_late_handler_test_CPPFLAGS = $(AM_CPPFLAGS) \
	-DLATE_MODULE='"$(abs_top_builddir)/test/unit/event/.libs/late_module.so"'
test_unit_event_late_handler_test_LDADD = src/libpmix.la
test_unit_event_late_handler_test_LDFLAGS = -no-install

# A test client of its own for the test host (test/host/local.mk has the
# host and the shared clients) and the script that runs it.
check_PROGRAMS += test/host/clients/client_events_local
test_host_clients_client_events_local_SOURCES = \
	test/host/clients/client_events_local.c test/host/clients/client_util.h
test_host_clients_client_events_local_CFLAGS = $(AM_CFLAGS) -pedantic
test_host_clients_client_events_local_LDADD = src/libpmix.la
test_host_clients_client_events_local_LDFLAGS = -no-install
TESTS += test/unit/event/events_local.sh
EXTRA_DIST += test/unit/event/events_local.sh
