# src/client: the client library (PMIx_Init, Put/Commit, Fence, Get, ...).
src_libpmix_core_la_SOURCES += \
	src/client/client.cc src/client/client_state.h
