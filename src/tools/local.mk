# src/tools: command-line programs.

# pmix_info: the report runs inside libpmix (src/tools/pmix_info/info.h);
# the program is a main() that calls it. The paths it prints come from here.
noinst_LTLIBRARIES += src/tools/libpmix_info.la
src_tools_libpmix_info_la_SOURCES = \
	src/tools/pmix_info/config_section.cc \
	src/tools/pmix_info/info.h \
	src/tools/pmix_info/info_main.cc \
	src/tools/pmix_info/mca_section.cc \
	src/tools/pmix_info/printer.cc src/tools/pmix_info/printer.h \
	src/tools/pmix_info/sections.h
src_tools_libpmix_info_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-DPMIXX_PREFIX='"$(prefix)"' -DPMIXX_BINDIR='"$(bindir)"' \
	-DPMIXX_LIBDIR='"$(libdir)"' -DPMIXX_INCLUDEDIR='"$(includedir)"' \
	-DPMIXX_PKGLIBDIR='"$(pmixcomponentdir)"' -DPMIXX_SYSCONFDIR='"$(sysconfdir)"' \
	-DPMIXX_MANDIR='"$(mandir)"'
src_libpmix_core_la_LIBADD += src/tools/libpmix_info.la

bin_PROGRAMS += src/tools/pmix_info/pmix_info
src_tools_pmix_info_pmix_info_SOURCES = src/tools/pmix_info/pmix_info.c
src_tools_pmix_info_pmix_info_LDADD = src/libpmix.la

# pmixrun: the reference single-node launcher, a host on the public server
# API like any other (src/tools/pmixrun/pmixrun.cc says how it works).
bin_PROGRAMS += src/tools/pmixrun/pmixrun
src_tools_pmixrun_pmixrun_SOURCES = \
	src/tools/pmixrun/children.cc src/tools/pmixrun/children.h \
	src/tools/pmixrun/host_module.cc src/tools/pmixrun/host_module.h \
	src/tools/pmixrun/host_tools.cc src/tools/pmixrun/host_tools.h \
	src/tools/pmixrun/iof_forward.cc src/tools/pmixrun/iof_forward.h \
	src/tools/pmixrun/job_info.cc src/tools/pmixrun/job_info.h \
	src/tools/pmixrun/op_wait.h \
	src/tools/pmixrun/options.cc src/tools/pmixrun/options.h \
	src/tools/pmixrun/pmixrun.cc \
	src/tools/pmixrun/runner.cc src/tools/pmixrun/runner.h \
	src/tools/pmixrun/stdin_feed.cc src/tools/pmixrun/stdin_feed.h \
	src/tools/pmixrun/wakeup.cc src/tools/pmixrun/wakeup.h
# Publish/lookup datastore (h1).
src_tools_pmixrun_pmixrun_SOURCES += \
	src/tools/pmixrun/host_pubsub.cc src/tools/pmixrun/host_pubsub.h \
	src/tools/pmixrun/pubsub_store.cc src/tools/pmixrun/pubsub_store.h
# Spawn, connect, disconnect: several jobs (h3).
src_tools_pmixrun_pmixrun_SOURCES += \
	src/tools/pmixrun/host_spawn.cc src/tools/pmixrun/host_spawn.h \
	src/tools/pmixrun/job_events.cc src/tools/pmixrun/job_events.h \
	src/tools/pmixrun/jobs.cc src/tools/pmixrun/jobs.h \
	src/tools/pmixrun/launch.cc src/tools/pmixrun/launch.h \
	src/tools/pmixrun/spawn_request.cc src/tools/pmixrun/spawn_request.h \
	src/tools/pmixrun/spawner.cc src/tools/pmixrun/spawner.h
# Query and log upcalls (h4).
src_tools_pmixrun_pmixrun_SOURCES += \
	src/tools/pmixrun/host_query.cc src/tools/pmixrun/host_query.h \
	src/tools/pmixrun/host_group.cc src/tools/pmixrun/host_group.h
# Binding (--bind-to) and the job_control upcall (issue 13).
src_tools_pmixrun_pmixrun_SOURCES += \
	src/tools/pmixrun/binding.cc src/tools/pmixrun/binding.h \
	src/tools/pmixrun/host_job_control.cc src/tools/pmixrun/host_job_control.h
# Debuggers: stop in init / on exec, release, debugger daemons (issue 11).
src_tools_pmixrun_pmixrun_SOURCES += \
	src/tools/pmixrun/debug_directives.cc src/tools/pmixrun/debug_directives.h \
	src/tools/pmixrun/host_debug.cc src/tools/pmixrun/host_debug.h
# The command-line tools (issue 11): OpenPMIx's names, options and output,
# on the public tool API. Their build rules were missing from the commit
# that added them (9af503d), so they were never built nor tested.
bin_PROGRAMS += src/tools/cli/pattrs src/tools/cli/pquery src/tools/cli/pps \
	src/tools/cli/pevent src/tools/cli/plookup
PMIXX_CLI_COMMON = src/tools/cli/cli.cc src/tools/cli/cli.h
src_tools_cli_pattrs_SOURCES = src/tools/cli/pattrs.cc $(PMIXX_CLI_COMMON)
src_tools_cli_pattrs_LDADD = src/libpmix.la
src_tools_cli_pquery_SOURCES = src/tools/cli/pquery.cc $(PMIXX_CLI_COMMON)
src_tools_cli_pquery_LDADD = src/libpmix.la
src_tools_cli_pps_SOURCES = src/tools/cli/pps.cc $(PMIXX_CLI_COMMON)
src_tools_cli_pps_LDADD = src/libpmix.la
src_tools_cli_pevent_SOURCES = src/tools/cli/pevent.cc $(PMIXX_CLI_COMMON)
src_tools_cli_pevent_LDADD = src/libpmix.la
src_tools_cli_plookup_SOURCES = src/tools/cli/plookup.cc $(PMIXX_CLI_COMMON)
src_tools_cli_plookup_LDADD = src/libpmix.la
src_tools_pmixrun_pmixrun_LDADD = src/libpmix.la -lhwloc
src_tools_pmixrun_pmixrun_LDFLAGS = -pthread

