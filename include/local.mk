include_HEADERS += \
	include/pmix.h \
	include/pmix_common.h \
	include/pmix_constants.h \
	include/pmix_deprecated.h \
	include/pmix_server.h \
	include/pmix_tool.h
nodist_include_HEADERS += include/pmix_version.h
EXTRA_DIST += include/pmix_version.h.in
