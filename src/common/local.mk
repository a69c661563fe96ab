# src/common: the Ch.3 data API (values, infos, lists, strings, argv).
src_libpmix_core_la_SOURCES = \
	src/common/info_lookup.cc src/common/info_lookup.h \
	src/common/text.cc src/common/text.h src/common/enum_value.h \
	src/common/api_guard.h \
	src/common/attribute_support.cc src/common/attribute_support.h \
	src/common/argv.cc \
	src/common/data_types.cc src/common/data_types.h \
	src/common/generated/tables.cc \
	src/common/ids.cc \
	src/common/info.cc \
	src/common/info_list.cc src/common/info_list.h \
	src/common/output.cc src/common/output.h \
	src/common/mapped_vector.h \
	src/common/status.h \
	src/common/strings.cc \
	src/common/struct_helpers.h \
	src/common/structs.cc \
	src/common/structs_containers.cc \
	src/common/tables.h \
	src/common/type_ops.h \
	src/common/type_ops_basic.cc \
	src/common/type_ops_compound.cc \
	src/common/type_ops_hwloc.cc \
	src/common/type_ops_stats.cc \
	src/common/value.cc \
	src/common/value_number.cc \
	src/common/value_ops.cc src/common/value_ops.h
