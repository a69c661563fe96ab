# src/iof: IO forwarding where it is asked for (standard §18.3):
# PMIx_IOF_pull/deregister/push, the output formats, the wire bodies
# (shared with the server's side, src/server/server_iof*.cc).
src_libpmix_core_la_SOURCES += \
	src/iof/iof_api.cc \
	src/iof/iof_client.cc src/iof/iof_client.h \
	src/iof/iof_format.cc src/iof/iof_format.h \
	src/iof/iof_sink.cc src/iof/iof_sink.h \
	src/iof/iof_wire.cc src/iof/iof_wire.h

if HAVE_GTEST
check_PROGRAMS += test/unit/iof/iof_tests
TESTS += test/unit/iof/iof_tests
test_unit_iof_iof_tests_SOURCES = test/unit/iof/iof_format_test.cc test/unit/iof/iof_sink_test.cc
test_unit_iof_iof_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_iof_iof_tests_LDFLAGS = -pthread
endif
