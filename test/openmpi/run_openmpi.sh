#!/bin/bash
# Debian's Open MPI 4.1 (mpirun = the PMIx server, ranks = clients, both
# through mca_pmix_ext3x -> libpmix.so.2) running on our library.
#
#   1. mpi_checks.c (built with mpicc): hello, barrier, allreduce, ring,
#      publish (MPI_Publish/Lookup/Unpublish_name, mpirun's data server),
#      spawn (MPI_Comm_spawn of 2 children: ORTE's spawn and connect
#      upcalls on our server, PMIx_Spawn/PMIx_Connect in the ranks) at
#      -np 1, 2, 4, 8, and "lib": every rank and mpirun map our libpmix and
#      PMIx_Get_version() says "pmixx".
#   2. pmix_jobinfo (a PMIx-only client, built by make check or here):
#      job info against ORTE's OMPI_COMM_WORLD_* and a put/fence/get. At
#      -np 4 (and on the two fake nodes of 4.) it runs twice, each rank
#      dumping every realm of the job data it reads (session, job, app,
#      node, every rank's, derived keys): through gds shmem (the default;
#      each rank must have the image mapped from mpirun's memfd) and with
#      -x PMIX_MCA_gds=hash (the same bytes sent inline); every rank's two
#      dumps must be identical (test/tools/jobdata_diff.sh).
#   3. The mixes that cannot work (stock server + our clients, our server +
#      stock clients: the wire protocols differ) must fail, not hang.
#   4. Two fake nodes (fake_rsh.sh: one orted per node, both PMIx servers
#      on our library): the MPI cases at -np 4, with data collected in the
#      fence and with direct modex.
#   5. Direct launch by pmixrun (no mpirun): the MPI cases (publish on
#      pmixrun's datastore) at -n 1 and 4, every rank adopting pmixrun's
#      shared topology (hwloc shmem); without shmem, its XML.
#   6. Informational: mpirun -np 8 wall time, ours vs Debian's OpenPMIx.
#
# Environment: top_srcdir, top_builddir (make check exports them) and
# PMIX_MCA_mca_base_component_path (our components; derived when unset).
# Exit: 0 all passed, 1 a check failed, 77 Open MPI unavailable (skip).
# Every mpirun is bounded by timeout; leftover ranks and orteds of this run
# are killed by pid.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
: "${top_srcdir:?top_srcdir must be set}" "${top_builddir:?top_builddir must be set}"

bash "$top_srcdir/test/tools/openmpi.sh"
rc=$?
if [ $rc -ne 0 ]; then
    echo "run_openmpi.sh: SKIP: Open MPI is not available (openmpi.sh exit $rc)"
    exit 77
fi

LIBDIR=$(cd "$top_builddir/src/.libs" 2>/dev/null && pwd -P) || { echo "FAIL: no $top_builddir/src/.libs"; exit 1; }
[ -e "$LIBDIR/libpmix.so.2" ] || { echo "FAIL: $LIBDIR/libpmix.so.2 is not built"; exit 1; }
COMPONENTS=${PMIX_MCA_mca_base_component_path:-$(ls -d "$top_builddir"/plugins/*/*/.libs 2>/dev/null | paste -sd:)}
STOCK_COMPONENTS=/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix
T=${OPENMPI_TEST_TIMEOUT:-60}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/pmixx_ompi.XXXXXX") || exit 1
mkdir -p "$WORK/session"

# Ranks run in their own process group and can outlive a killed mpirun:
# kill whatever still runs one of this run's programs.
reap() {
    local p exe
    for p in /proc/[0-9]*; do
        [ "${p#/proc/}" = $$ ] && continue
        exe=$(readlink "$p/exe" 2>/dev/null) || continue
        case $exe in "$WORK"/*) kill -9 "${p#/proc/}" 2>/dev/null; continue ;; esac
        # orteds of the fake nodes carry this run's FAKE_RSH_TMPDIR
        # (2>/dev/null first: the process may be gone before the redirection)
        if tr '\0' '\n' 2>/dev/null <"$p/environ" | grep -qx "FAKE_RSH_TMPDIR=$WORK/nodes"; then
            kill -9 "${p#/proc/}" 2>/dev/null
        fi
    done
}
trap 'reap; rm -rf "$WORK"' EXIT

# A clean environment: ORTE copies every PMIX_* variable into the ranks.
for v in $(env | sed -n 's/^\(PMIX_[A-Za-z0-9_]*\)=.*/\1/p'); do
    case $v in PMIX_MCA_mca_base_component_path) ;; *) unset "$v" ;; esac
done
unset PMIX_MCA_mca_base_component_path
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo
export OMPI_MCA_orte_tmpdir_base="$WORK/session"
MPIRUN=(mpirun --oversubscribe)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)

OURS=(env "LD_LIBRARY_PATH=$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "PMIX_MCA_mca_base_component_path=$COMPONENTS")
STOCK=(env -u LD_LIBRARY_PATH)

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "PASS: $*"; }
fail() {
    failed=$((failed + 1))
    echo "FAIL: $1"
    [ -n "${2:-}" ] && sed 's/^/    | /' "$2" | head -40
}

# run OUT CMD...: runs bounded, output to OUT, sets RC.
run() {
    local out=$1
    shift
    timeout -k 5 "$T" "$@" >"$out" 2>&1
    RC=$?
    reap
}

# --- build ------------------------------------------------------------------
if ! mpicc -std=c99 -O1 -o "$WORK/mpi_checks" "$top_srcdir/test/openmpi/mpi_checks.c" -ldl >"$WORK/build.out" 2>&1; then
    fail "mpicc mpi_checks.c" "$WORK/build.out"
    echo "$passed passed, $failed failed"
    exit 1
fi
JOBINFO=$top_builddir/test/openmpi/pmix_jobinfo
if [ ! -x "$JOBINFO" ]; then
    JOBINFO=$WORK/pmix_jobinfo
    ${CC:-cc} -std=c99 -I"$top_srcdir" -I"$top_srcdir/include" -I"$top_builddir/include" -o "$JOBINFO" \
        "$top_srcdir/test/openmpi/pmix_jobinfo.c" -L"$LIBDIR" -lpmix >"$WORK/build.out" 2>&1 ||
        fail "build pmix_jobinfo" "$WORK/build.out"
fi

# check_ranks OUT WORD N [PATTERN]: exit 0 and, for every rank 0..N-1,
# exactly one line "WORD <rank> of N ok..." (matching PATTERN if given),
# and nobody logged an error (Open MPI logs a refused call and goes on).
check_ranks() {
    local out=$1 word=$2 n=$3 pattern=${4:-} r
    [ "$RC" -eq 0 ] || return 1
    grep -qE "OPAL ERROR|ORTE ERROR|PMIX ERROR" "$out" && return 1
    for ((r = 0; r < n; r++)); do
        [ "$(grep -c "^$word $r of $n ok$pattern" "$out")" -eq 1 ] || return 1
    done
    [ "$(grep -c "^$word [0-9]* of" "$out")" -eq "$n" ]
}

# --- 1. MPI programs on our library -------------------------------------------
LIBPAT=" version=\"pmixx[^\"]*\" lib=$LIBDIR/libpmix\.so[.0-9]* mpirun_lib=$LIBDIR/libpmix\.so[.0-9]*$"
for np in 1 2 4 8; do
    for c in hello barrier allreduce ring lib publish spawn; do
        out=$WORK/$c.$np.out
        run "$out" "${OURS[@]}" "${MPIRUN[@]}" -np "$np" "$WORK/mpi_checks" "$c"
        pattern=""
        [ "$c" = lib ] && pattern=$LIBPAT
        if check_ranks "$out" "$c" "$np" "$pattern"; then pass "mpirun -np $np $c"; else fail "mpirun -np $np $c (exit $RC)" "$out"; fi
    done
done

# --- 2. a PMIx-only client under mpirun ----------------------------------------
# same_through_hash NAME N CMD...: runs CMD pmix_jobinfo (CMD ends with
# mpirun and its options; N ranks) twice, every rank dumping the job data
# it reads (JOBINFO_DUMP): as it comes by default, through gds shmem (each
# rank says "image=shmem": it has the image's memfd mapped), and with
# PMIX_MCA_gds=hash in the ranks' environment only ("image=inline": mpirun
# sends the bytes). Every rank's two dumps must be the same but for what
# ORTE makes anew per run (job id, its own namespace and URI).
PER_RUN_KEYS=(pmix.jobid pmix.srv.nspace pmix.srvr.uri)
same_through_hash() {
    local name=$1 n=$2 tag=${1// /_} mode medium dir out dumps=() gds=()
    shift 2
    for mode in shmem hash; do
        out=$WORK/jobinfo.$tag.$mode.out
        dir=$WORK/dump.$tag.$mode
        dumps+=("$dir")
        mkdir -p "$dir"
        medium=shmem
        if [ $mode = hash ]; then gds=(-x PMIX_MCA_gds=hash); medium=inline; fi
        run "$out" "$@" -x "JOBINFO_DUMP=$dir" "${gds[@]}" "$JOBINFO"
        if check_ranks "$out" jobinfo "$n" " .* image=$medium$"; then
            pass "$name pmix_jobinfo, gds $mode (image=$medium in every rank)"
        else
            fail "$name pmix_jobinfo, gds $mode (exit $RC; every rank must say image=$medium)" "$out"
            return
        fi
    done
    if bash "$top_srcdir/test/tools/jobdata_diff.sh" "${dumps[@]}" "$n" "${PER_RUN_KEYS[@]}" >"$WORK/diff.$tag" 2>&1; then
        pass "$name: every rank reads the same job data through gds shmem and hash ($(grep -c . "${dumps[0]}/0") lines per dump)"
    else
        fail "$name: ranks read different job data through gds shmem and hash" "$WORK/diff.$tag"
    fi
}
for np in 1 2 8; do
    out=$WORK/jobinfo.$np.out
    run "$out" "${OURS[@]}" "${MPIRUN[@]}" -np "$np" "$JOBINFO"
    if check_ranks "$out" jobinfo "$np"; then pass "mpirun -np $np pmix_jobinfo"; else fail "mpirun -np $np pmix_jobinfo (exit $RC)" "$out"; fi
done
same_through_hash "mpirun -np 4" 4 "${OURS[@]}" "${MPIRUN[@]}" -np 4

# --- 3. mixes that must fail cleanly -------------------------------------------
# mix_check NAME OUT: a non-zero exit before the timeout, and no rank ran.
mix_check() {
    local name=$1 out=$2
    if [ "$RC" -eq 124 ] || [ "$RC" -eq 137 ]; then
        fail "$name: hung (killed after ${T}s)" "$out"
    elif [ "$RC" -eq 0 ] || grep -q "^hello .* ok" "$out"; then
        fail "$name: ran although the two sides cannot talk (exit $RC)" "$out"
    else
        pass "$name fails cleanly (exit $RC): $(grep -m1 -i 'error\|unreach' "$out")"
    fi
}
out=$WORK/mix_stock_server.out
run "$out" "${STOCK[@]}" "${MPIRUN[@]}" -np 2 -x "LD_LIBRARY_PATH=$LIBDIR" \
    -x "PMIX_MCA_mca_base_component_path=$COMPONENTS" "$WORK/mpi_checks" hello
mix_check "stock mpirun + our ranks" "$out"
out=$WORK/mix_stock_clients.out
run "$out" "${OURS[@]}" "${MPIRUN[@]}" -np 2 -x LD_LIBRARY_PATH= \
    -x "PMIX_MCA_mca_base_component_path=$STOCK_COMPONENTS" "$WORK/mpi_checks" hello
mix_check "our mpirun + stock ranks" "$out"

# --- 4. two fake nodes: one orted (PMIx server) each -------------------------
# The ranks of the two orteds exchange their data through the host: fence_nb
# with the collected data, or direct modex (async modex, no data collection).
NODES=(--mca plm_rsh_agent "$top_srcdir/test/openmpi/fake_rsh.sh" --mca plm_rsh_no_tree_spawn 1
    --host 127.0.0.2:2,127.0.0.3:2 -np 4)
DMODEX=(--mca pmix_base_async_modex 1 --mca pmix_base_collect_data 0)
mkdir -p "$WORK/nodes/hnp"
for mode in fence dmodex; do
    extra=()
    [ "$mode" = dmodex ] && extra=("${DMODEX[@]}")
    for c in hello barrier allreduce ring lib; do
        out=$WORK/nodes.$mode.$c.out
        # No orte_tmpdir_base for mpirun: it would hand it to both orteds.
        run "$out" env -u OMPI_MCA_orte_tmpdir_base TMPDIR="$WORK/nodes/hnp" FAKE_RSH_TMPDIR="$WORK/nodes" \
            OMPI_MCA_btl=self,tcp "${OURS[@]}" \
            "${MPIRUN[@]}" "${NODES[@]}" "${extra[@]}" "$WORK/mpi_checks" "$c"
        pattern=""
        [ "$c" = lib ] && pattern=$LIBPAT  # the parent is the node's orted
        if check_ranks "$out" "$c" 4 "$pattern"; then pass "2 nodes ($mode) -np 4 $c"; else fail "2 nodes ($mode) -np 4 $c (exit $RC)" "$out"; fi
    done
done
# Every rank reads its own node's and the other node's data the same
# through gds shmem and hash (the orted of each node being its server).
same_through_hash "2 nodes -np 4" 4 env -u OMPI_MCA_orte_tmpdir_base TMPDIR="$WORK/nodes/hnp" \
    FAKE_RSH_TMPDIR="$WORK/nodes" OMPI_MCA_btl=self,tcp "${OURS[@]}" "${MPIRUN[@]}" "${NODES[@]}"

# --- 5. direct launch: pmixrun starts the ranks --------------------------------
# Open MPI 4.1 takes a PMIx launcher other than Slurm/Flux/JSM for "no
# launcher" and makes every rank a singleton; pmixrun sets the MCA variable
# that lets the ranks join its job instead. "topo": each rank adopted
# pmixrun's shared topology -- Open MPI says so (hwloc verbosity) and the
# rank has pmixrun's hwloc shared-memory file mapped (/proc/self/maps) --
# and none discovered its own.
PMIXRUN=$top_builddir/src/tools/pmixrun/pmixrun
for np in 1 4; do
    for c in hello barrier allreduce ring lib publish spawn topo; do
        out=$WORK/pmixrun.$c.$np.out
        run "$out" "${OURS[@]}" OMPI_MCA_hwloc_base_verbose=2 "$PMIXRUN" -n "$np" "$WORK/mpi_checks" "$c"
        pattern=""
        [ "$c" = lib ] && pattern=$LIBPAT  # the parent is pmixrun
        [ "$c" = topo ] && pattern=" shmem=pmixx-hwloc\.sm$"
        want=$np
        [ "$c" = spawn ] && want=$((np + 2))  # and the two children
        adopted=$(grep -c 'hwloc:base: topology in shared memory' "$out")
        if check_ranks "$out" "$c" "$np" "$pattern" && [ "$adopted" -eq "$want" ] &&
            ! grep -q 'hwloc:base discovering topology' "$out"; then
            pass "pmixrun -n $np $c (every rank adopted the shared topology)"
        else
            fail "pmixrun -n $np $c (exit $RC, $adopted of $want adopted the shared topology)" "$out"
        fi
    done
done

# Without the shared-memory segment (hwloc_hole_kind=none: no address both
# sides can map) the ranks load pmixrun's PMIX_HWLOC_XML_V2, still without
# discovering anything.
out=$WORK/pmixrun.xml.out
run "$out" "${OURS[@]}" PMIX_MCA_hwloc_hole_kind=none OMPI_MCA_hwloc_base_verbose=2 \
    "$PMIXRUN" -n 2 "$WORK/mpi_checks" topo
loaded=$(grep -c 'hwloc:base loading topology from XML' "$out")
if check_ranks "$out" topo 2 " shmem=none$" && [ "$loaded" -eq 2 ] &&
    ! grep -q 'hwloc:base discovering topology' "$out"; then
    pass "pmixrun -n 2 topo without shared memory (every rank loaded the shared XML)"
else
    fail "pmixrun -n 2 topo without shared memory (exit $RC, $loaded of 2 loaded the XML)" "$out"
fi

# --- 6. timing (informational) ------------------------------------------------
best_time() {
    local best="" i start end ms
    for i in 1 2 3; do
        start=$(date +%s%N)
        run "$WORK/time.out" "$@"
        end=$(date +%s%N)
        [ "$RC" -eq 0 ] || { echo "failed"; return; }
        ms=$(((end - start) / 1000000))
        if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
    done
    echo "${best} ms"
}
echo "timing, mpirun -np 8 mpi_checks hello, best of 3:" \
    "pmixx $(best_time "${OURS[@]}" "${MPIRUN[@]}" -np 8 "$WORK/mpi_checks" hello)," \
    "Debian OpenPMIx $(best_time "${STOCK[@]}" "${MPIRUN[@]}" -np 8 "$WORK/mpi_checks" hello)"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
