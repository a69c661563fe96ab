#!/bin/bash
# run_scale.sh - the scaling benchmark of bench/README.md: pmix_bench at
# job sizes S = 1k, 10k, 100k (8 local clients), N = 8, 32, 128 local
# clients and two nodes of 8 clients each, blobs 64 B..1 MiB, on OpenPMIx
# and on pmixx; one side-by-side table and the plots.
#
# Usage:
#   bench/run_scale.sh --ours LIBDIR [--out DIR] [-S "1000 10000 100000"]
#                      [-n "8 32 128"] [--two-nodes "8"] [--no-plot]
#                      [run_bench.sh options...]
#
#   --ours LIBDIR   our libpmix.so.2's directory (see run_bench.sh).
#   --out DIR       where table.txt, results.tsv, logs/ and the PNGs go
#                   (default ./bench-scale).
#   -S, -n          the job sizes and client counts (defaults above).
#   --two-nodes     clients per node of the two-node runs (default 8; ""
#                   for none).
#   --no-plot       skip plot_bench.sh (which may install python3-matplotlib).
# Anything else goes to run_bench.sh (e.g. --iters, --timeout, --mem-budget,
# --components). Each run is bounded (run_bench.sh --timeout: 300 s + S/100).
# The big sizes take minutes and gigabytes (OpenPMIx: ~0.9 GiB in the host
# at S=100k): run them once, not in a loop, on a shared machine.
# Exit status: run_bench.sh's (0 only if every cross-check passed).
set -u

here=$(cd "$(dirname "$0")" && pwd)
out=./bench-scale
slist="1000 10000 100000"
nlist="8 32 128"
two="8"
plot=1
args=()
while [ $# -gt 0 ]; do
    case "$1" in
    --out) out=${2:?}; shift 2 ;;
    -S) slist=${2:?}; shift 2 ;;
    -n) nlist=${2:?}; shift 2 ;;
    --two-nodes) two=${2-}; shift 2 ;;
    --no-plot) plot=0; shift ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) args+=("$1"); shift ;;
    esac
done

mkdir -p "$out/logs" || exit 2
bash "$here/run_bench.sh" -n "$nlist" -S "$slist" ${two:+--two-nodes "$two"} --blobs 64,1K,64K,1M \
    --keep "$out/logs" --tsv "$out/results.tsv" "${args[@]}" | tee "$out/table.txt"
status=${PIPESTATUS[0]}
if [ "$plot" -eq 1 ] && [ -s "$out/results.tsv" ]; then
    bash "$here/plot_bench.sh" "$out/results.tsv" "$out" || echo "run_scale.sh: plotting failed" >&2
fi
exit "$status"
