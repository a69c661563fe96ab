#!/bin/sh
# bench smoke test (make check): pmix_bench on our library in its modes,
# tiny: the job-size mode (S=16 procs over 2 nodes, the 8 of node 0
# local), the modex mode (4 local clients, its isolated fences repeated
# with --repeat) and two nodes with processes (--nodes 2: 3 clients on each,
# two hosts exchanging the fence data), so that the benchmark cannot rot. Passes when every value and blob the clients read back is what it
# must be (exit 0 and "check PASS"); the timings are printed, never asserted.
set -u
: "${top_builddir:?top_builddir must be set (make check exports it)}"
bench=$top_builddir/bench/pmix_bench
[ -x "$bench" ] || { echo "smoke: no $bench"; exit 99; }
failures=0
run() {
    name=$1
    shift
    out=$("$bench" host "$@" --iters 50 --fences 5 --blobs 64,64K --timeout 60 2>&1)
    rc=$?
    if [ $rc -eq 0 ] && echo "$out" | grep -q '^check *PASS'; then
        echo "smoke: $name: PASS"
    else
        echo "$out" | sed "s/^/smoke: $name: /"
        echo "smoke: $name: FAIL (exit $rc)"
        failures=$((failures + 1))
    fi
}
run job-size -n 8 -S 16
run modex -n 4 --repeat 3
run two-nodes -n 3 --nodes 2
[ $failures -eq 0 ]
