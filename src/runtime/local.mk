# src/runtime: library init/finalize, version, progress.
src_libpmix_core_la_SOURCES += src/runtime/version.cc
src_libpmix_core_la_SOURCES += src/runtime/state.h
