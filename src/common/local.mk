# src/common: the Ch.3 data API (values, infos, lists, strings, argv).
src_libpmix_core_la_SOURCES = \
	src/common/api_guard.h \
	src/common/output.cc src/common/output.h \
	src/common/status.h
src_libpmix_core_la_SOURCES += \
	src/common/generated/tables.cc \
	src/common/strings.cc \
	src/common/tables.h
