# Slurm 22.05 (Debian) srun --mpi=pmix on our library (h10): run_slurm.sh
# starts a private single-node Slurm (test/tools/slurm.sh, as root), points
# Slurm's mpi_pmix_v4.so at our libpmix with an LD_AUDIT module
# (libpmix_redirect.c, built by the script) and runs slurm_jobinfo and
# test/openmpi/mpi_checks.c under srun; it skips (77) without Slurm or root.
check_PROGRAMS += test/slurm/slurm_jobinfo
test_slurm_slurm_jobinfo_SOURCES = test/slurm/slurm_jobinfo.c
test_slurm_slurm_jobinfo_CFLAGS = $(AM_CFLAGS) -pedantic
test_slurm_slurm_jobinfo_LDADD = src/libpmix.la
test_slurm_slurm_jobinfo_LDFLAGS = -no-install
TESTS += test/slurm/run_slurm.sh
EXTRA_DIST += test/common/jobinfo_util.h test/common/jobinfo_dump.h test/slurm/run_slurm.sh test/slurm/libpmix_redirect.c test/tools/slurm.sh
