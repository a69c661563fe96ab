#!/bin/bash
# Slurm 22.05 (Debian) running jobs on our library: srun --mpi=pmix, with
# slurmstepd's mpi_pmix_v4.so as the PMIx server and the tasks as clients.
#
#   Slurm's plugin dlopens libpmix by an absolute path, so the daemons and
#   srun run with LD_AUDIT=libpmix_redirect.so (built here from
#   test/slurm/libpmix_redirect.c), which maps that path to our
#   libpmix.so.2; the tasks find ours through LD_LIBRARY_PATH (srun exports
#   the environment) and our components through
#   PMIX_MCA_mca_base_component_path. Nothing under /usr or /etc changes.
#
#   1. slurm_jobinfo (PMIx only) at -n 1, 2, 4: job info vs SLURM_* env,
#      put/fence/get; the task and its parent slurmstepd map our library.
#      At -n 4 every task also dumps every realm of the job data it reads
#      (session, job, app, node, every rank's, derived keys) through gds
#      shmem (the default: each task must have the image mapped from
#      slurmstepd's memfd), and again in a second step with
#      PMIX_MCA_gds=hash exported to the tasks (the same bytes sent
#      inline); every task's two dumps must be identical
#      (test/tools/jobdata_diff.sh).
#   2. test/openmpi/mpi_checks.c (built with mpicc): hello, barrier,
#      allreduce, ring, lib at -n 1, 2, 4.
# Every rank's line is checked (srun can exit 0 after a failed launch).
#
# Environment: top_srcdir, top_builddir (make check exports them).
# Exit: 0 all passed, 1 a check failed, 77 Slurm/munge/Open MPI unavailable
# or not root (a visible skip). Every srun is bounded by timeout; the private
# Slurm (test/tools/slurm.sh) is stopped on exit.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
: "${top_srcdir:?top_srcdir must be set}" "${top_builddir:?top_builddir must be set}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)

skip() { echo "run_slurm.sh: SKIP: $*"; exit 77; }

LIBDIR=$(cd "$top_builddir/src/.libs" 2>/dev/null && pwd -P) || { echo "FAIL: no $top_builddir/src/.libs"; exit 1; }
[ -e "$LIBDIR/libpmix.so.2" ] || { echo "FAIL: $LIBDIR/libpmix.so.2 is not built"; exit 1; }
COMPONENTS=${PMIX_MCA_mca_base_component_path:-$(ls -d "$top_builddir"/plugins/*/*/.libs 2>/dev/null | paste -sd:)}
T=${SLURM_TEST_TIMEOUT:-30}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/pmixx_slurm.XXXXXX") || exit 1
chmod 0755 "$WORK"
cleanup() {
    timeout 60 bash "$top_srcdir/test/tools/slurm.sh" stop "$WORK/slurm"
    rm -rf "$WORK"
}
trap cleanup EXIT

# The redirecting audit module and the test programs.
cc -shared -fPIC -O2 -Wall -Wextra -Werror -o "$WORK/libpmix_redirect.so" \
    "$top_srcdir/test/slurm/libpmix_redirect.c" || { echo "FAIL: cannot build the audit module"; exit 1; }
JOBINFO=$top_builddir/test/slurm/slurm_jobinfo
if [ ! -x "$JOBINFO" ]; then
    JOBINFO=$WORK/slurm_jobinfo
    cc -std=c99 -Wall -Wextra -Werror -pedantic -I"$top_srcdir" -I"$top_srcdir/include" \
        -I"$top_builddir" -I"$top_builddir/include" -o "$JOBINFO" "$top_srcdir/test/slurm/slurm_jobinfo.c" \
        -L"$LIBDIR" -lpmix -Wl,-rpath,"$LIBDIR" || { echo "FAIL: cannot build slurm_jobinfo"; exit 1; }
fi
HAVE_MPI=0
if bash "$top_srcdir/test/tools/openmpi.sh"; then
    mpicc -o "$WORK/mpi_checks" "$top_srcdir/test/openmpi/mpi_checks.c" -ldl && HAVE_MPI=1
fi
[ $HAVE_MPI = 1 ] || echo "run_slurm.sh: Open MPI unavailable: the MPI cases are skipped"

# The daemons (and through slurmd, slurmstepd) get the redirection.
export PMIXX_AUDIT_TO=$LIBDIR/libpmix.so.2
# slurmstepd (the PMIx server; Slurm does not know PMIX_SERVER_SHARE_TOPOLOGY)
# shares the node topology with the tasks, as a site enables it.
export PMIXX_SLURM_DAEMON_ENV="LD_AUDIT PMIXX_AUDIT_TO PMIX_MCA_mca_base_component_path PMIX_MCA_hwloc_share_topology"
export PMIX_MCA_mca_base_component_path=$COMPONENTS
export PMIX_MCA_hwloc_share_topology=1
LD_AUDIT=$WORK/libpmix_redirect.so timeout 300 bash "$top_srcdir/test/tools/slurm.sh" start "$WORK/slurm"
rc=$?
[ $rc -eq 77 ] && skip "Slurm is not available (slurm.sh exit 77)"
[ $rc -eq 0 ] || { echo "FAIL: the private Slurm did not start (slurm.sh exit $rc)"; exit 1; }

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "PASS: $*"; }
fail() {
    failed=$((failed + 1))
    echo "FAIL: $1"
    [ -n "${2:-}" ] && sed 's/^/    | /' "$2" | head -40
}

# srun_ours OUT N PROG ARGS...: srun --mpi=pmix on our library, bounded.
# After one srun timed out (a hung step drains the node and leaves the
# later jobs pending), the rest are not run: they fail at once.
hung=0
srun_ours() {
    local out=$1 n=$2; shift 2
    if [ $hung = 1 ]; then
        echo "not run: an earlier srun timed out after ${T}s" >"$out"
        RC=124
        return
    fi
    env -u PMIX_SERVER_URI LD_AUDIT="$WORK/libpmix_redirect.so" SLURM_CONF="$WORK/slurm/slurm.conf" \
        LD_LIBRARY_PATH="$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo \
        timeout "$T" srun --mpi=pmix --kill-on-bad-exit=1 -n "$n" "$@" >"$out" 2>&1
    RC=$?
    [ $RC = 124 ] && hung=1
}

# check_ranks OUT WHAT N: every rank 0..N-1 printed "WHAT r of N ok", and
# nobody logged an error (Open MPI logs a refused call and goes on).
check_ranks() {
    local out=$1 what=$2 n=$3 r
    for ((r = 0; r < n; r++)); do
        grep -q "^$what $r of $n ok" "$out" || return 1
    done
    ! grep -qE "FAIL|OPAL ERROR|ORTE ERROR|PMIX ERROR" "$out"
}

# ours_everywhere OUT FIELD...: every "ok" line names our library in each field.
ours_everywhere() {
    local out=$1 field; shift
    grep -q ' ok ' "$out" || return 1
    grep ' ok ' "$out" | grep -qv 'version="pmixx' && return 1
    for field in "$@"; do
        grep ' ok ' "$out" | grep -qv " $field=$LIBDIR/libpmix.so" && return 1
    done
    return 0
}

for n in 1 2; do
    out=$WORK/jobinfo.$n
    srun_ours "$out" "$n" "$JOBINFO"
    if [ $RC -eq 0 ] && check_ranks "$out" jobinfo "$n" && ours_everywhere "$out" stepd_lib; then
        pass "slurm_jobinfo -n $n (our library in the tasks and in slurmstepd)"
    else
        fail "slurm_jobinfo -n $n (srun exit $RC)" "$out"
    fi
done

# -n 4 twice, every task dumping what it reads: through gds shmem (the
# default; "image=shmem": the task has the image's memfd mapped) and with
# PMIX_MCA_gds=hash in the tasks' environment ("image=inline":
# slurmstepd sends the bytes). The dumps must be the same task by task
# but for what is new per step: the namespace and "<job>.<step>" (masked
# by the dump), slurmstepd's pid (its rank and URI) and the address of
# the topology it shares.
dumps_ok=1
for mode in shmem hash; do
    out=$WORK/jobinfo.4.$mode
    mkdir -p "$WORK/dump.$mode"
    if [ $mode = hash ]; then
        PMIX_MCA_gds=hash JOBINFO_DUMP=$WORK/dump.$mode srun_ours "$out" 4 "$JOBINFO"
    else
        JOBINFO_DUMP=$WORK/dump.$mode srun_ours "$out" 4 "$JOBINFO"
    fi
    medium=shmem
    [ $mode = hash ] && medium=inline
    if [ $RC -eq 0 ] && check_ranks "$out" jobinfo 4 && ours_everywhere "$out" stepd_lib &&
        [ "$(grep -c " ok .* image=$medium$" "$out")" -eq 4 ]; then
        pass "slurm_jobinfo -n 4, gds $mode (our library in the tasks and in slurmstepd; image $medium in every task)"
    else
        fail "slurm_jobinfo -n 4, gds $mode (srun exit $RC)" "$out"
        dumps_ok=0
    fi
done
if [ $dumps_ok = 1 ]; then
    if bash "$top_srcdir/test/tools/jobdata_diff.sh" "$WORK/dump.shmem" "$WORK/dump.hash" 4 \
        pmix.srv.rank pmix.srvr.uri pmix.hwlocaddr >"$WORK/diff.out" 2>&1; then
        pass "slurm_jobinfo -n 4: every task reads the same job data through gds shmem and hash ($(grep -c . "$WORK/dump.shmem/0") lines per dump)"
    else
        fail "slurm_jobinfo -n 4: tasks read different job data through gds shmem and hash" "$WORK/diff.out"
    fi
fi

if [ $HAVE_MPI = 1 ]; then
    for n in 1 2 4; do
        for c in hello barrier allreduce ring lib; do
            out=$WORK/mpi.$c.$n
            srun_ours "$out" "$n" "$WORK/mpi_checks" "$c"
            extra=true
            [ $c = lib ] && extra="ours_everywhere $out lib mpirun_lib"
            if [ $RC -eq 0 ] && check_ranks "$out" "$c" "$n" && $extra; then
                pass "mpi_checks $c -n $n"
            else
                fail "mpi_checks $c -n $n (srun exit $RC)" "$out"
            fi
        done
    done
fi

# Open MPI ranks adopt slurmstepd's topology (opal_hwloc_base_get_topology
# reads PMIX_HWLOC_SHMEM_FILE/_ADDR/_SIZE) instead of discovering it: Open
# MPI says so, and each rank has the shared-memory file mapped ("topo":
# /proc/self/maps).
if [ $HAVE_MPI = 1 ]; then
    out=$WORK/mpi.topology
    OMPI_MCA_hwloc_base_verbose=2 srun_ours "$out" 2 "$WORK/mpi_checks" topo
    adopted=$(grep -c 'hwloc:base: topology in shared memory' "$out")
    mapped=$(grep -c '^topo [01] of 2 ok shmem=pmixx-hwloc\.sm$' "$out")
    if [ $RC -eq 0 ] && check_ranks "$out" topo 2 && [ "$adopted" -eq 2 ] && [ "$mapped" -eq 2 ] &&
        ! grep -q 'hwloc:base discovering topology' "$out"; then
        pass "mpi_checks topo -n 2: both ranks adopt the shared topology (and map its file)"
    else
        fail "mpi_checks topo -n 2: shared topology adopted by $adopted, mapped by $mapped of 2 ranks" "$out"
    fi
fi

if [ $failed -ne 0 ]; then
    echo "--- slurmd.log (tail)"
    tail -n 30 "$WORK/slurm/slurmd.log" 2>/dev/null
fi
echo "run_slurm.sh: $passed passed, $failed failed"
[ $failed -eq 0 ]
