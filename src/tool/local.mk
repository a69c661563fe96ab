# src/tool: the tool library (standard ch. 18): PMIx_tool_init/finalize,
# the servers a tool connects to, and the launcher's own server.
src_libpmix_core_la_SOURCES += \
	src/tool/tool.cc src/tool/tool_api.h \
	src/tool/tool_connect.cc src/tool/tool_connect.h \
	src/tool/tool_launcher.cc src/tool/tool_launcher.h \
	src/tool/tool_servers.cc \
	src/tool/tool_state.cc src/tool/tool_state.h
