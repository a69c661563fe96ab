# src/jobinfo: PMIx_server_register_nspace's info array -> the gds store
# (the server's store and, from the same array, a client's cache).
src_libpmix_core_la_SOURCES += \
	src/jobinfo/jobinfo.h src/jobinfo/ingest.cc \
	src/jobinfo/info_read.cc src/jobinfo/info_read.h \
	src/jobinfo/model.h \
	src/jobinfo/parse.cc src/jobinfo/parse.h \
	src/jobinfo/node_table.cc src/jobinfo/node_table.h \
	src/jobinfo/layout.cc src/jobinfo/layout.h \
	src/jobinfo/kv_set.cc src/jobinfo/kv_set.h \
	src/jobinfo/derive.cc src/jobinfo/derive.h

if HAVE_GTEST
# Links the core library; the gds hash plugin it loads links libpmix (as in
# gds_base_tests), the preg compress plugin is kept off the path (main()).
check_PROGRAMS += test/unit/jobinfo/jobinfo_tests
TESTS += test/unit/jobinfo/jobinfo_tests
test_unit_jobinfo_jobinfo_tests_SOURCES = \
	test/unit/jobinfo/jobinfo_test_util.cc test/unit/jobinfo/jobinfo_test_util.h \
	test/unit/jobinfo/hosts_test.cc \
	test/unit/jobinfo/realms_test.cc \
	test/unit/jobinfo/errors_test.cc \
	test/unit/jobinfo/image_test.cc \
	test/unit/jobinfo/main.cc \
	test/unit/gds/region_test_util.cc test/unit/gds/region_test_util.h
test_unit_jobinfo_jobinfo_tests_LDADD = src/libpmix_core.la -lgtest
test_unit_jobinfo_jobinfo_tests_LDFLAGS = -pthread
endif
