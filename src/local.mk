# libpmix.so.2: the core convenience library plus nothing else. The
# libtool version 8:0:6 yields the soname libpmix.so.2 (current - age = 2),
# the same as OpenPMIx 4.2.x.
noinst_LTLIBRARIES += src/libpmix_core.la
lib_LTLIBRARIES += src/libpmix.la
src_libpmix_la_SOURCES =
nodist_EXTRA_src_libpmix_la_SOURCES = src/force_cxx_link.cc
src_libpmix_la_LIBADD = src/libpmix_core.la $(PMIXX_DEP_LIBS)
src_libpmix_la_LDFLAGS = -version-info 8:0:6 -no-undefined -Wl,-Bsymbolic -Wl,--as-needed \
	-Wl,--version-script=$(top_srcdir)/src/libpmix.map
EXTRA_src_libpmix_la_DEPENDENCIES = src/libpmix.map
EXTRA_DIST += src/libpmix.map
src_libpmix_core_la_LIBADD = $(PMIXX_DEP_LIBS)
