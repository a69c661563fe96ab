# src/server: the server library (PMIx_server_*), DESIGN §5.
src_libpmix_core_la_SOURCES += \
	src/server/server.cc src/server/server_internal.h src/server/server_state.h \
	src/server/server_peers.cc \
	src/server/server_registry.cc
