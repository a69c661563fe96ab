# src/wire: message bodies, connections and the protocol between clients/tools
# and their server (DESIGN §5).
src_libpmix_core_la_SOURCES += \
	src/wire/buffer.cc src/wire/buffer.h \
	src/wire/connection.cc src/wire/connection.h \
	src/wire/proc_data.cc src/wire/proc_data.h \
	src/wire/protocol.cc src/wire/protocol.h \
	src/wire/pending_hooks.cc
