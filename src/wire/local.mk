# src/wire: message bodies, connections and the protocol between clients/tools
# and their server (DESIGN §5).
src_libpmix_core_la_SOURCES += \
	src/wire/buffer.cc src/wire/buffer.h \
	src/wire/connection.cc src/wire/connection.h \
	src/wire/doorbell.cc src/wire/doorbell.h \
	src/wire/job_image.cc src/wire/job_image.h \
	src/wire/proc_data.cc src/wire/proc_data.h \
	src/wire/proc_data_region.cc src/wire/proc_data_region.h \
	src/wire/protocol.cc src/wire/protocol.h \
	src/wire/rendezvous.cc src/wire/rendezvous.h

if HAVE_GTEST
check_PROGRAMS += test/unit/wire/wire_tests
TESTS += test/unit/wire/wire_tests
test_unit_wire_wire_tests_SOURCES = \
	test/unit/wire/protocol_test.cc \
	test/unit/wire/proc_data_test.cc \
	test/unit/wire/proc_data_region_test.cc \
	test/unit/wire/connection_test.cc \
	test/unit/wire/buffer_limits_test.cc \
	test/unit/wire/rendezvous_test.cc \
	test/unit/wire/job_image_test.cc
test_unit_wire_wire_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_wire_wire_tests_LDFLAGS = -pthread
endif
