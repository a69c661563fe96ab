#!/bin/bash
# run_bench.sh - pmix_bench on Debian's OpenPMIx and on pmixx, side by side.
#
# Usage:
#   bench/run_bench.sh [--ours LIBDIR] [--components PATH] [-n "2 8 32"]
#                      [--iters K] [--blob BYTES] [--timeout SEC]
#                      [--bin PMIX_BENCH] [--keep DIR]
#
#   --ours LIBDIR     directory holding our libpmix.so.2: an install's lib dir
#                     or a build tree's src/.libs. Omitted: OpenPMIx only.
#   --components PATH our component dirs (colon-separated), exported as
#                     PMIX_MCA_mca_base_component_path for our runs. Default:
#                     LIBDIR/pmix if it exists, else the build tree's
#                     plugins/*/*/.libs next to LIBDIR/../.. (none for a
#                     static build).
#   -n "LIST"         job sizes to run (default "2 8 32").
#   --iters K         iterations of every latency loop (default 1000).
#   --blob BYTES      modex blob size (default 1024).
#   --timeout SEC     bound of each run (default 300); a hung run is killed.
#   --bin FILE        use this pmix_bench instead of building one.
#   --keep DIR        keep every run's stdout/stderr in DIR.
#
# The benchmark binary is built once (cc, C99) against the reference headers
# (PMIX_BENCH_INCLUDE, default Debian's /usr/lib/x86_64-linux-gnu/pmix2/include)
# and linked to libpmix.so.2 (PMIX_BENCH_LIBDIR, default /usr/lib/x86_64-linux-gnu,
# holds libpmix.so); the ABI is the same, so the same binary runs on
# either library: OpenPMIx with LD_LIBRARY_PATH and PMIX_MCA_* unset, pmixx
# with LD_LIBRARY_PATH=LIBDIR. OpenPMIx 4.2.2 needs no extra environment.
#
# Output: one table, metric | N | OpenPMIx | pmixx | ratio, where each value
# is the median over the N clients (host_* and job_wall: the host's single
# value) and ratio = OpenPMIx / pmixx: > 1 means pmixx is faster (smaller).
# A run that fails shows FAILED in its column (or, for the metrics it
# measured before failing, the value marked '*'); the script goes on.
# Exit status: 0 only if every run passed its cross-checks (every client read
# back every peer's blob intact) on OpenPMIx and, when --ours is given, on
# pmixx; 1 otherwise; 2 on usage or build errors.
set -u

here=$(cd "$(dirname "$0")" && pwd)
ours=""
components=""
sizes="2 8 32"
iters=1000
blob=1024
timeout_s=300
bin=""
keep=""
ref_include=${PMIX_BENCH_INCLUDE:-/usr/lib/x86_64-linux-gnu/pmix2/include}
ref_libdir=${PMIX_BENCH_LIBDIR:-/usr/lib/x86_64-linux-gnu}
metrics="init get_job get_peer fence modex rss host_setup job_wall host_rss"

usage() { sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//'; }
die() { echo "run_bench.sh: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
    case "$1" in
    --ours) ours=${2:?}; shift 2 ;;
    --components) components=${2:?}; shift 2 ;;
    -n) sizes=${2:?}; shift 2 ;;
    --iters) iters=${2:?}; shift 2 ;;
    --blob) blob=${2:?}; shift 2 ;;
    --timeout) timeout_s=${2:?}; shift 2 ;;
    --bin) bin=${2:?}; shift 2 ;;
    --keep) keep=${2:?}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
    esac
done

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

# run LABEL N: runs one benchmark, output in $logs/LABEL.N.{out,err}
run() {
    local label=$1 n=$2 rc
    local out=$logs/$label.$n.out err=$logs/$label.$n.err
    local args=(host -n "$n" --iters "$iters" --blob "$blob" --timeout "$timeout_s")
    rm -f "$logs/$label.$n.ok"
    if [ "$label" = openpmix ]; then
        env -u LD_LIBRARY_PATH -u PMIX_MCA_mca_base_component_path \
            timeout -k 5 $((timeout_s + 30)) "$bin" "${args[@]}" >"$out" 2>"$err"
    else
        env LD_LIBRARY_PATH="$ours" PMIX_MCA_mca_base_component_path="$components" \
            timeout -k 5 $((timeout_s + 30)) "$bin" "${args[@]}" >"$out" 2>"$err"
    fi
    rc=$?
    if [ $rc -ne 0 ] || ! grep -q '^check *PASS' "$out"; then
        echo "run_bench.sh: $label N=$n FAILED (exit $rc); last lines of $err:" >&2
        tail -n 5 "$err" | sed 's/^/    /' >&2
        return 1
    fi
    touch "$logs/$label.$n.ok"
}

status=0
for n in $sizes; do
    run openpmix "$n" || status=1
    if [ -n "$ours" ]; then
        run pmixx "$n" || status=1
    fi
done

# value LABEL N METRIC: the median column; from a failed run the value with a
# '*' if that metric was measured before the failure, else FAILED; - if not run.
value() {
    local f=$logs/$1.$2.out mark="*"
    if [ "$1" = pmixx ] && [ -z "$ours" ]; then echo "-"; return; fi
    [ -f "$logs/$1.$2.ok" ] && mark=""
    [ -f "$f" ] || { echo FAILED; return; }
    awk -v m="$3" -v mark="$mark" '$1 == m && $3 ~ /^[0-9.]+$/ { v = $3 mark }
        END { print (v == "" ? "FAILED" : v) }' "$f"
}

version() {
    local f
    for f in "$logs/$1".*.out; do
        [ -f "$f" ] && sed -n 's/^# pmix_bench: library \(.*\), N=.*/\1/p' "$f" && return
    done
}

echo "# pmix_bench: iters=$iters blob=$blob bytes; value = median over the N clients"
echo "# OpenPMIx: $(version openpmix)"
[ -n "$ours" ] && echo "# pmixx:    $(version pmixx)  (LD_LIBRARY_PATH=$ours)"
printf '%-14s %4s %14s %14s %8s\n' "metric" "N" "OpenPMIx" "pmixx" "ratio"
for m in $metrics; do
    unit=KiB
    case $m in *rss) ;; *) unit=us ;; esac
    for n in $sizes; do
        a=$(value openpmix "$n" "$m")
        b=$(value pmixx "$n" "$m")
        ratio=$(awk -v a="$a" -v b="$b" 'BEGIN {
            if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0) printf "%.2f", a / b; else print "-" }')
        printf '%-14s %4s %14s %14s %8s\n' "$m($unit)" "$n" "$a" "$b" "$ratio"
    done
done
echo "# ratio = OpenPMIx / pmixx (> 1: pmixx is faster or smaller);" \
     "* = measured before that run failed (no ratio)"
if [ $status -eq 0 ]; then
    echo "# cross-checks: PASS (every client read back every peer's blob intact)"
else
    echo "# cross-checks: FAILED (see the messages above)"
fi
exit $status
