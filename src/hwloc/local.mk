# src/hwloc: the node topology, cpusets, locality strings and device
# distances (hwloc), and the server's sharing of its topology.
src_libpmix_core_la_SOURCES += \
	src/hwloc/cpuset_text.cc src/hwloc/cpuset_text.h \
	src/hwloc/topology.cc src/hwloc/topology.h \
	src/hwloc/share.cc src/hwloc/share.h \
	src/hwloc/locality.cc src/hwloc/locality.h \
	src/hwloc/distances.cc src/hwloc/distances.h \
	src/hwloc/hwloc_api.cc \
	src/server/server_topology.cc src/server/server_topology.h
if HAVE_GTEST
check_PROGRAMS += test/unit/hwloc/hwloc_tests
TESTS += test/unit/hwloc/hwloc_tests
test_unit_hwloc_hwloc_tests_SOURCES = \
	test/unit/hwloc/fake_topology.h \
	test/unit/hwloc/cpuset_text_test.cc \
	test/unit/hwloc/locality_test.cc \
	test/unit/hwloc/distances_test.cc \
	test/unit/hwloc/share_test.cc \
	test/unit/hwloc/hwloc_api_test.cc
test_unit_hwloc_hwloc_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_hwloc_hwloc_tests_LDFLAGS = -pthread
endif
test_unit_hwloc_hwloc_tests_CPPFLAGS = $(AM_CPPFLAGS) \
	-DFAKE_NODE_XML=\"$(abs_top_srcdir)/test/unit/hwloc/fake_node.xml\"
EXTRA_DIST += test/unit/hwloc/fake_node.xml
