# src/event: event registration, chaining and delivery (spec ch. 10).
src_libpmix_core_la_SOURCES += \
	src/event/event.cc src/event/event.h \
	src/event/registry.cc src/event/registry.h \
	src/event/dispatcher.cc src/event/dispatcher.h \
	src/event/event_api.cc src/event/roles.h
# The roles' event files (owned with this area; their hooks are declared in
# src/server/server_state.h, src/client/client_state.h and src/event/roles.h).
src_libpmix_core_la_SOURCES += src/server/server_events.cc src/client/client_events.cc

if HAVE_GTEST
check_PROGRAMS += test/unit/event/event_tests
TESTS += test/unit/event/event_tests
test_unit_event_event_tests_SOURCES = \
	test/unit/event/registry_test.cc \
	test/unit/event/dispatcher_test.cc
test_unit_event_event_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_event_event_tests_LDFLAGS = -pthread
endif
