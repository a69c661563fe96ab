# test/pmixrun: pmixrun end to end (run_pmixrun.sh), with the README's
# example (examples/job_view.c) and a test client of its own.
PMIXX_PMIXRUN_LINK = -no-install -pthread

check_PROGRAMS += test/pmixrun/job_view test/pmixrun/pmixrun_client
test_pmixrun_job_view_SOURCES = examples/job_view.c
test_pmixrun_job_view_CFLAGS = $(AM_CFLAGS) -pedantic
test_pmixrun_job_view_LDADD = src/libpmix.la
test_pmixrun_job_view_LDFLAGS = $(PMIXX_PMIXRUN_LINK)
test_pmixrun_pmixrun_client_SOURCES = test/pmixrun/pmixrun_client.c
test_pmixrun_pmixrun_client_CFLAGS = $(AM_CFLAGS) -pedantic
test_pmixrun_pmixrun_client_LDADD = src/libpmix.la
test_pmixrun_pmixrun_client_LDFLAGS = $(PMIXX_PMIXRUN_LINK)

TESTS += test/pmixrun/run_pmixrun.sh
EXTRA_DIST += test/pmixrun/run_pmixrun.sh
