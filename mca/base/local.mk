# mca/base: the MCA engine (variables, component repository, frameworks).
src_libpmix_core_la_SOURCES += \
	mca/base/component_repository.cc mca/base/component_repository.h \
	mca/base/framework.cc mca/base/framework.h mca/base/framework_impl.h \
	mca/base/framework_open.cc \
	mca/base/framework_registry.cc mca/base/framework_registry.h \
	mca/base/no_destructor.h \
	mca/base/selection.cc mca/base/selection.h \
	mca/base/var.cc mca/base/var.h \
	mca/base/var_files.h \
	mca/base/var_parse.cc mca/base/var_parse.h

# var_files.cc needs $(sysconfdir) and a static build needs the generated
# table of built-in components; both live in this small convenience library
# (Automake has no per-file flags) that libpmix_core absorbs.
noinst_LTLIBRARIES += mca/base/libpmix_mca_base.la
mca_base_libpmix_mca_base_la_SOURCES = mca/base/var_files.cc
mca_base_libpmix_mca_base_la_CPPFLAGS = $(AM_CPPFLAGS) -DPMIXX_SYSCONFDIR='"$(sysconfdir)"'
src_libpmix_core_la_LIBADD += mca/base/libpmix_mca_base.la
EXTRA_DIST += mca/base/gen_static_components.sh

if !PMIX_DLOPEN
nodist_mca_base_libpmix_mca_base_la_SOURCES = mca/base/static_components.cc
CLEANFILES += mca/base/static_components.cc
# Regenerated whenever the Makefile (hence the component list) changes.
mca/base/static_components.cc: Makefile $(top_srcdir)/mca/base/gen_static_components.sh
	$(AM_V_GEN)$(MKDIR_P) mca/base && \
	$(SHELL) $(top_srcdir)/mca/base/gen_static_components.sh $(PMIXX_STATIC_COMPONENTS) > $@.tmp && \
	mv $@.tmp $@
endif

# --- tests: variables, selection lists, the repository over toy plugins ---------
# Toy components of the test-only "toy" framework, one source built with
# different flags (test/unit/mca/toys/toy.c). They never link libpmix.
check_LTLIBRARIES += \
	test/unit/mca/toys/pmix_mca_toy_good.la \
	test/unit/mca/toys/pmix_mca_toy_high.la \
	test/unit/mca/toys/pmix_mca_toy_low.la \
	test/unit/mca/toys/pmix_mca_toy_unavail.la \
	test/unit/mca/toys/pmix_mca_toy_badmca.la \
	test/unit/mca/toys/pmix_mca_toy_badfw.la \
	test/unit/mca/toys/pmix_mca_toy_nosym.la \
	test/unit/mca/toys/pmix_mca_toy_misnamed.la \
	test/unit/mca/toys/pmix_mca_toy_undef.la \
	test/unit/mca/toys/pmix_mca_toy_badparam.la
PMIXX_TOY_LDFLAGS = -module -avoid-version -rpath /nowhere -no-undefined
PMIXX_TOY_SOURCES = test/unit/mca/toys/toy.c test/unit/mca/toys/toy.h
test_unit_mca_toys_pmix_mca_toy_good_la_SOURCES = $(PMIXX_TOY_SOURCES)
test_unit_mca_toys_pmix_mca_toy_good_la_LDFLAGS = $(PMIXX_TOY_LDFLAGS)
test_unit_mca_toys_pmix_mca_toy_good_la_CPPFLAGS = $(AM_CPPFLAGS) -DTOY_NAME=good -DTOY_PRIORITY=10
test_unit_mca_toys_pmix_mca_toy_high_la_SOURCES = $(PMIXX_TOY_SOURCES)
test_unit_mca_toys_pmix_mca_toy_high_la_LDFLAGS = $(PMIXX_TOY_LDFLAGS)
test_unit_mca_toys_pmix_mca_toy_high_la_CPPFLAGS = $(AM_CPPFLAGS) -DTOY_NAME=high -DTOY_PRIORITY=50
test_unit_mca_toys_pmix_mca_toy_low_la_SOURCES = $(PMIXX_TOY_SOURCES)
test_unit_mca_toys_pmix_mca_toy_low_la_LDFLAGS = $(PMIXX_TOY_LDFLAGS)
test_unit_mca_toys_pmix_mca_toy_low_la_CPPFLAGS = $(AM_CPPFLAGS) -DTOY_NAME=low -DTOY_PRIORITY=5
test_unit_mca_toys_pmix_mca_toy_unavail_la_SOURCES = $(PMIXX_TOY_SOURCES)
test_unit_mca_toys_pmix_mca_toy_unavail_la_LDFLAGS = $(PMIXX_TOY_LDFLAGS)
test_unit_mca_toys_pmix_mca_toy_unavail_la_CPPFLAGS = $(AM_CPPFLAGS) -DTOY_NAME=unavail \
	-DTOY_PRIORITY=90 -DTOY_QUERY_RC=PMIX_ERR_NOT_SUPPORTED
test_unit_mca_toys_pmix_mca_toy_badmca_la_SOURCES = $(PMIXX_TOY_SOURCES)
test_unit_mca_toys_pmix_mca_toy_badmca_la_LDFLAGS = $(PMIXX_TOY_LDFLAGS)
test_unit_mca_toys_pmix_mca_toy_badmca_la_CPPFLAGS = $(AM_CPPFLAGS) -DTOY_NAME=badmca \
	-DTOY_PRIORITY=99 -DTOY_MCA_MAJOR=9
test_unit_mca_toys_pmix_mca_toy_badfw_la_SOURCES = $(PMIXX_TOY_SOURCES)
test_unit_mca_toys_pmix_mca_toy_badfw_la_LDFLAGS = $(PMIXX_TOY_LDFLAGS)
test_unit_mca_toys_pmix_mca_toy_badfw_la_CPPFLAGS = $(AM_CPPFLAGS) -DTOY_NAME=badfw \
	-DTOY_PRIORITY=99 -DTOY_FW_MAJOR=2
test_unit_mca_toys_pmix_mca_toy_nosym_la_SOURCES = $(PMIXX_TOY_SOURCES)
test_unit_mca_toys_pmix_mca_toy_nosym_la_LDFLAGS = $(PMIXX_TOY_LDFLAGS)
test_unit_mca_toys_pmix_mca_toy_nosym_la_CPPFLAGS = $(AM_CPPFLAGS) -DTOY_NAME=nosym \
	-DTOY_PRIORITY=99 -DTOY_NO_SYMBOL
test_unit_mca_toys_pmix_mca_toy_misnamed_la_SOURCES = $(PMIXX_TOY_SOURCES)
test_unit_mca_toys_pmix_mca_toy_misnamed_la_LDFLAGS = $(PMIXX_TOY_LDFLAGS)
test_unit_mca_toys_pmix_mca_toy_misnamed_la_CPPFLAGS = $(AM_CPPFLAGS) -DTOY_NAME=misnamed \
	-DTOY_PRIORITY=99 -DTOY_DESC_NAME=other
test_unit_mca_toys_pmix_mca_toy_undef_la_SOURCES = $(PMIXX_TOY_SOURCES)
test_unit_mca_toys_pmix_mca_toy_undef_la_LDFLAGS = $(PMIXX_TOY_LDFLAGS)
test_unit_mca_toys_pmix_mca_toy_undef_la_CPPFLAGS = $(AM_CPPFLAGS) -DTOY_NAME=undef \
	-DTOY_PRIORITY=99 -DTOY_UNDEFINED
test_unit_mca_toys_pmix_mca_toy_badparam_la_SOURCES = $(PMIXX_TOY_SOURCES)
test_unit_mca_toys_pmix_mca_toy_badparam_la_LDFLAGS = $(PMIXX_TOY_LDFLAGS)
test_unit_mca_toys_pmix_mca_toy_badparam_la_CPPFLAGS = $(AM_CPPFLAGS) -DTOY_NAME=badparam \
	-DTOY_PRIORITY=99 -DTOY_BAD_DEFAULT

if HAVE_GTEST
check_PROGRAMS += test/unit/mca_tests
TESTS += test/unit/mca_tests
test_unit_mca_tests_SOURCES = \
	test/unit/mca/env_fixture.h \
	test/unit/mca/repository_test.cc \
	test/unit/mca/selection_test.cc \
	test/unit/mca/validate_test.cc \
	test/unit/mca/var_parse_test.cc \
	test/unit/mca/var_test.cc
test_unit_mca_tests_CPPFLAGS = $(AM_CPPFLAGS) \
	-DPMIXX_TOY_DIR='"$(abs_top_builddir)/test/unit/mca/toys/.libs"'
test_unit_mca_tests_LDADD = src/libpmix_core.la -lgtest -lgtest_main
test_unit_mca_tests_LDFLAGS = -pthread
endif
