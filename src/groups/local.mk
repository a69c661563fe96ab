# Process groups and process sets (standard ch. 14, RFC0033): the shared
# values (src/groups), the server side (src/server/server_group*,
# server_pset) and the client side (src/client/client_group*).
src_libpmix_core_la_SOURCES += \
	src/groups/group_table.cc src/groups/group_table.h \
	src/groups/pset_table.cc src/groups/pset_table.h \
	src/server/server_group.cc src/server/server_group.h \
	src/server/server_group_state.h \
	src/server/server_group_msg.cc src/server/server_group_msg.h \
	src/server/server_group_invite.cc \
	src/server/server_group_fail.cc \
	src/server/server_group_ids.cc \
	src/server/server_pset.cc src/server/server_pset.h \
	src/client/client_group.cc src/client/client_group_events.cc
if HAVE_GTEST
check_PROGRAMS += test/unit/groups/group_table_tests
TESTS += test/unit/groups/group_table_tests
test_unit_groups_group_table_tests_SOURCES = test/unit/groups/group_table_test.cc
test_unit_groups_group_table_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_groups_group_table_tests_LDFLAGS = -pthread
endif
