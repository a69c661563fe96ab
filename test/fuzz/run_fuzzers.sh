#!/bin/sh
# libFuzzer on each target for PMIXX_FUZZ_SECONDS (default 60) from its
# corpus in the tree (new inputs go to a scratch directory, not the tree).
# A crash, leak, sanitizer report, timeout (10 s per input) or an input
# over 2 GiB RSS fails the test; the reproducer is left in the build tree
# as fuzz-<target>-crash-* (add it to the corpus with the fix).
set -u
seconds=${PMIXX_FUZZ_SECONDS:-60}
work=$(mktemp -d "${TMPDIR:-/tmp}/pmixx-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
status=0
for target in unpack server image; do
    mkdir -p "$work/$target"
    echo "== $target: ${seconds}s"
    "$top_builddir/test/fuzz/${target}_fuzzer" -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="$top_builddir/fuzz-$target-" \
        "$work/$target" "$top_srcdir/test/fuzz/corpus/$target" >"$work/$target.log" 2>&1
    rc=$?
    grep -E '^(#[0-9]+[[:space:]]+DONE|stat::(number_of_executed_units|new_units_added|peak_rss))' \
        "$work/$target.log"
    if [ $rc -ne 0 ]; then
        echo "FAIL: $target (exit $rc)"; tail -n 60 "$work/$target.log"; status=1
    fi
done
exit $status
