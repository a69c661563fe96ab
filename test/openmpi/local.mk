# Debian's Open MPI 4.1 (mpirun + mca_pmix_ext3x) on our library (h7):
# run_openmpi.sh builds test/openmpi/mpi_checks.c with mpicc and runs it,
# and the PMIx-only client below, under mpirun; it skips (77) when Open MPI
# cannot be installed (test/tools/openmpi.sh).
check_PROGRAMS += test/openmpi/pmix_jobinfo
test_openmpi_pmix_jobinfo_SOURCES = test/openmpi/pmix_jobinfo.c
test_openmpi_pmix_jobinfo_CFLAGS = $(AM_CFLAGS) -pedantic
test_openmpi_pmix_jobinfo_LDADD = src/libpmix.la
test_openmpi_pmix_jobinfo_LDFLAGS = -no-install
TESTS += test/openmpi/run_openmpi.sh
EXTRA_DIST += test/openmpi/run_openmpi.sh test/openmpi/mpi_checks.c test/openmpi/fake_rsh.sh \
	test/tools/openmpi.sh test/tools/jobdata_diff.sh
