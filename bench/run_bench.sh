#!/bin/bash
# run_bench.sh - pmix_bench on Debian's OpenPMIx and on pmixx, side by side.
#
# Usage:
#   bench/run_bench.sh [--ours LIBDIR] [--components PATH] [-n "2 8 32"]
#                      [-S "1000 10000"] [--ppn P] [--two-nodes "8"] [--blobs LIST]
#                      [--iters K] [--fences F] [--repeat R] [--timeout SEC]
#                      [--mem-budget MIB] [--bin PMIX_BENCH] [--keep DIR]
#                      [--tsv FILE]
#
#   --ours LIBDIR     directory holding our libpmix.so.2: an install's lib dir
#                     or a build tree's src/.libs. Omitted: OpenPMIx only.
#   --components PATH our component dirs (colon-separated), exported as
#                     PMIX_MCA_mca_base_component_path for our runs. Default:
#                     LIBDIR/pmix if it exists, else the build tree's
#                     plugins/*/*/.libs next to LIBDIR/../.. (none for a
#                     static build).
#   -n "LIST"         modex mode: one run per N, a job of N procs all on this
#                     node (default "2 8 32" unless -S is given).
#   -S "LIST"         job-size mode: one run per S, a job of S procs over
#                     S/P nodes with the P procs of node 0 running here.
#   --ppn P           procs per node of the job-size mode (default 8).
#   --two-nodes "LIST" two-node mode: one run per N, N clients on each of
#                     two nodes (pmix_bench --nodes 2: a second host serves
#                     node 1, the hosts exchange the fence data); size 2x<N>.
#   --blobs LIST      blob sizes of the collect fences, comma-separated, K/M
#                     suffixes allowed (default 1K).
#   --iters K         timed Gets of each key (default 1000).
#   --fences F        timed barrier fences (default 100).
#   --repeat R        isolated collect fences per blob size (commit, barrier,
#                     timed fence, barrier, R times): fenceiso_<B> is each
#                     client's median of the R (default 1: one fence).
#   --timeout SEC     bound of each run: SEC + S/100 seconds (default 300);
#                     a hung run is killed.
#   --mem-budget MIB  a modex run leaves out the blob sizes whose N*N*size
#                     (every client holding every blob) exceeds this
#                     (default 2048).
#   --bin FILE        use this pmix_bench instead of building one.
#   --keep DIR        keep every run's stdout/stderr in DIR.
#   --tsv FILE        also write every value as
#                     mode<TAB>N<TAB>S<TAB>metric<TAB>unit<TAB>library<TAB>median
#                     (what plot_bench.py reads).
#
# The benchmark binary is built once (cc, C99) against the reference headers
# (PMIX_BENCH_INCLUDE, default Debian's /usr/lib/x86_64-linux-gnu/pmix2/include)
# and linked to libpmix.so.2 (PMIX_BENCH_LIBDIR, default /usr/lib/x86_64-linux-gnu,
# holds libpmix.so); the ABI is the same, so the same binary runs on
# either library: OpenPMIx with LD_LIBRARY_PATH and PMIX_MCA_* unset, pmixx
# with LD_LIBRARY_PATH=LIBDIR. OpenPMIx 4.2.2 needs no extra environment.
#
# Output: one table, metric | size | OpenPMIx | pmixx | ratio, where size is
# N=<n> (modex mode), S=<s> (job-size mode) or 2x<n> (two-node mode), each
# value is the median over node 0's clients (host_* and job_wall: node 0's
# host's single value) and ratio = pmixx / OpenPMIx: < 1 means pmixx is faster (or smaller).
# A run that fails shows FAILED in its column (or, for the metrics it
# measured before failing, the value marked '*'); n/a = not measured (see
# bench/README.md); the script goes on with the next run.
# Exit status: 0 only if every run passed its cross-checks (every value and
# blob read back as it must be) on OpenPMIx and, when --ours is given, on
# pmixx; 1 otherwise; 2 on usage or build errors.
set -u

here=$(cd "$(dirname "$0")" && pwd)
ours=""
components=""
nlist=""
slist=""
two=""
ppn=8
iters=1000
fences=100
repeat=1
blobs=1K
timeout_s=300
budget_mib=2048
bin=""
keep=""
tsv=""
ref_include=${PMIX_BENCH_INCLUDE:-/usr/lib/x86_64-linux-gnu/pmix2/include}
ref_libdir=${PMIX_BENCH_LIBDIR:-/usr/lib/x86_64-linux-gnu}

usage() { sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//'; }
die() { echo "run_bench.sh: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
    case "$1" in
    --ours) ours=${2:?}; shift 2 ;;
    --components) components=${2:?}; shift 2 ;;
    -n) nlist=${2:?}; shift 2 ;;
    -S) slist=${2:?}; shift 2 ;;
    --ppn) ppn=${2:?}; shift 2 ;;
    --two-nodes) two=${2:?}; shift 2 ;;
    --blob|--blobs) blobs=${2:?}; shift 2 ;;
    --iters) iters=${2:?}; shift 2 ;;
    --fences) fences=${2:?}; shift 2 ;;
    --repeat) repeat=${2:?}; shift 2 ;;
    --timeout) timeout_s=${2:?}; shift 2 ;;
    --mem-budget) budget_mib=${2:?}; shift 2 ;;
    --bin) bin=${2:?}; shift 2 ;;
    --keep) keep=${2:?}; shift 2 ;;
    --tsv) tsv=${2:?}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
    esac
done
[ -z "$nlist" ] && [ -z "$slist" ] && [ -z "$two" ] && nlist="2 8 32"

work=$(mktemp -d "${TMPDIR:-/tmp}/run_bench.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$work"' EXIT
logs=${keep:-$work}
mkdir -p "$logs" || die "cannot create $logs"

# --- the binary ---------------------------------------------------------
if [ -z "$bin" ]; then
    [ -f "$ref_include/pmix_server.h" ] || die "no PMIx headers in $ref_include (set PMIX_BENCH_INCLUDE)"
    bin=$work/pmix_bench
    ${CC:-cc} -std=c99 -O2 -Wall -Wextra -I"$ref_include" -o "$bin" "$here"/*.c \
        -L"$ref_libdir" -lpmix -lpthread -lm || die "building pmix_bench failed"
fi
[ -x "$bin" ] || die "$bin is not executable"

# --- our library's location ---------------------------------------------
if [ -n "$ours" ]; then
    ours=$(cd "$ours" 2>/dev/null && pwd) || die "--ours: no such directory"
    [ -e "$ours/libpmix.so.2" ] || echo "run_bench.sh: warning: no libpmix.so.2 in $ours" >&2
    if [ -z "$components" ]; then
        if [ -d "$ours/pmix" ]; then
            components=$ours/pmix
        elif [ -d "$ours/../../plugins" ]; then
            dirs=("$ours"/../../plugins/*/*/.libs)
            [ -d "${dirs[0]}" ] && components=$(IFS=:; echo "${dirs[*]}")
        fi
    fi
fi

# bytes LIST: the sizes of a blob list, one per line, in bytes.
bytes() {
    echo "$1" | tr ',' '\n' | awk '/^[0-9]+[kK]$/ { print $0 * 1024; next }
        /^[0-9]+[mM]$/ { print $0 * 1048576; next } /^[0-9]+$/ { print; next }
        { print "bad blob size " $0 > "/dev/stderr"; exit 1 }'
}

# fit N: the blob sizes of --blobs that a modex run of N clients may use.
fit() {
    local n=$1 b kept=""
    for b in $(bytes "$blobs"); do
        if [ $((n * n * b)) -le $((budget_mib * 1048576)) ]; then
            kept=${kept:+$kept,}$b
        else
            echo "run_bench.sh: N=$n leaves out blob $b (N*N*blob > --mem-budget ${budget_mib} MiB)" >&2
        fi
    done
    echo "${kept:-64}"
}

# run LABEL CASE ARGS...: runs one benchmark, output in $logs/LABEL.CASE.{out,err}
run() {
    local label=$1 case=$2 rc limit=$3
    shift 3
    local out=$logs/$label.$case.out err=$logs/$label.$case.err
    rm -f "$logs/$label.$case.ok"
    if [ "$label" = openpmix ]; then
        env -u LD_LIBRARY_PATH -u PMIX_MCA_mca_base_component_path \
            timeout -k 5 $((limit + 30)) "$bin" host "$@" --timeout "$limit" >"$out" 2>"$err"
    else
        env LD_LIBRARY_PATH="$ours" PMIX_MCA_mca_base_component_path="$components" \
            timeout -k 5 $((limit + 30)) "$bin" host "$@" --timeout "$limit" >"$out" 2>"$err"
    fi
    rc=$?
    if [ $rc -ne 0 ] || ! grep -q '^check *PASS' "$out"; then
        echo "run_bench.sh: $label $case FAILED (exit $rc); last lines of $err:" >&2
        tail -n 5 "$err" | sed 's/^/    /' >&2
        return 1
    fi
    touch "$logs/$label.$case.ok"
}

# Cases: "N=<n>" (modex) and "S=<s>" (job size), in the order they run.
cases=()
status=0
libs="openpmix"
[ -n "$ours" ] && libs="openpmix pmixx"
for n in $nlist; do
    cases+=("N=$n")
    b=$(fit "$n")
    for lib in $libs; do
        run "$lib" "N=$n" "$timeout_s" -n "$n" --iters "$iters" --fences "$fences" \
            --repeat "$repeat" --blobs "$b" || status=1
    done
done
for s in $slist; do
    cases+=("S=$s")
    for lib in $libs; do
        run "$lib" "S=$s" $((timeout_s + s / 100)) -n "$ppn" -S "$s" --iters "$iters" \
            --fences "$fences" --repeat "$repeat" --blobs "$(bytes "$blobs" | paste -sd,)" ||
            status=1
    done
done

for n in $two; do
    cases+=("2x$n")
    b=$(fit $((2 * n)))
    for lib in $libs; do
        run "$lib" "2x$n" "$timeout_s" -n "$n" --nodes 2 --iters "$iters" --fences "$fences" \
            --repeat "$repeat" --blobs "$b" || status=1
    done
done

# value LABEL CASE METRIC: the median column; from a failed run the value with
# a '*' if that metric was measured before the failure, else FAILED; - if not run.
value() {
    local f=$logs/$1.$2.out mark="*"
    if [ "$1" = pmixx ] && [ -z "$ours" ]; then echo "-"; return; fi
    [ -f "$logs/$1.$2.ok" ] && mark=""
    [ -f "$f" ] || { echo FAILED; return; }
    awk -v m="$3" -v mark="$mark" '$1 == m && $3 ~ /^[0-9.]+$/ { v = $3 mark }
        $1 == m && $3 == "n/a" && mark == "" { v = "n/a" }
        END { print (v == "" ? "FAILED" : v) }' "$f"
}

version() {
    local f
    for f in "$logs/$1".*.out; do
        [ -f "$f" ] && sed -n 's/^# pmix_bench: library \(.*\), N=.*/\1/p' "$f" && return
    done
}

# Every metric row of every output, in order of first appearance, the
# host's own after the clients'.
metrics=$(cat "$logs"/*.out 2>/dev/null | awk '$1 == "metric" { on = 1; next }
    $1 == "check" { on = 0 }
    on && !seen[$1]++ { if ($1 ~ /^(host_|job_wall)/) host[nh++] = $1 ":" $2; else print $1 ":" $2 }
    END { for (i = 0; i < nh; ++i) print host[i] }')

echo "# pmix_bench: iters=$iters fences=$fences repeat=$repeat blobs=$blobs ppn(S mode)=$ppn;" \
     "value = median over the local clients"
echo "# OpenPMIx: $(version openpmix)"
[ -n "$ours" ] && echo "# pmixx:    $(version pmixx)  (LD_LIBRARY_PATH=$ours)"
printf '%-20s %8s %14s %14s %8s\n' "metric" "size" "OpenPMIx" "pmixx" "ratio"
[ -n "$tsv" ] && : >"$tsv"
for mu in $metrics; do
    m=${mu%%:*}
    unit=${mu#*:}
    for c in "${cases[@]}"; do
        a=$(value openpmix "$c" "$m")
        b=$(value pmixx "$c" "$m")
        # a metric this case does not have (a blob size left out): no row
        [ "$a" = FAILED ] && [ "$b" = FAILED ] && ! grep -q "^$m " "$logs"/*."$c".out 2>/dev/null &&
            continue
        ratio=$(awk -v a="$a" -v b="$b" 'BEGIN {
            if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && a > 0) printf "%.2f", b / a; else print "-" }')
        printf '%-20s %8s %14s %14s %8s\n' "$m($unit)" "$c" "$a" "$b" "$ratio"
        if [ -n "$tsv" ]; then
            mode=modex; n=${c#N=}; s=$n
            case $c in
            S=*) mode=job; n=$ppn; s=${c#S=} ;;
            2x*) mode=two; n=${c#2x}; s=$((2 * n)) ;;
            esac
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$mode" "$n" "$s" "$m" "$unit" OpenPMIx "$a" \
                "$mode" "$n" "$s" "$m" "$unit" pmixx "$b" >>"$tsv"
        fi
    done
done
echo "# ratio = pmixx / OpenPMIx (< 1: pmixx is faster or smaller);" \
     "* = measured before that run failed (no ratio); n/a = not measured"
if [ $status -eq 0 ]; then
    echo "# cross-checks: PASS (every value and blob read back as it must be)"
else
    echo "# cross-checks: FAILED (see the messages above)"
fi
exit $status
