include_HEADERS += \
	include/pmix.h \
	include/pmix_common.h \
	include/pmix_constants.h \
	include/pmix_deprecated.h \
	include/pmix_inline.h \
	include/pmix_server.h \
	include/pmix_tool.h
nodist_include_HEADERS += include/pmix_version.h
EXTRA_DIST += include/pmix_version.h.in
# The plugin SDK: what an out-of-tree component builds against.
pmixmcadir = $(includedir)/pmix/mca
pmixmca_HEADERS = \
	include/pmix/mca/mca.h \
	include/pmix/mca/bfrops.h \
	include/pmix/mca/pcompress.h \
	include/pmix/mca/pnet.h \
	include/pmix/mca/preg.h \
	include/pmix/mca/ptl.h \
	include/pmix/mca/psec.h \
	include/pmix/mca/gds.h
