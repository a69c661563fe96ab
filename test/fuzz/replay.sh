#!/bin/sh
# Every input of the fuzz corpora (test/fuzz/corpus/<target>/, seeds and
# every crash found so far) through its target once: no crash, no abort,
# no sanitizer report. Runs in every build; libFuzzer is not needed.
set -u
status=0
for target in unpack server image; do
    dir="$top_srcdir/test/fuzz/corpus/$target"
    [ -d "$dir" ] || { echo "FAIL: no corpus $dir"; status=1; continue; }
    echo "== $target: $(ls "$dir" | wc -l) inputs"
    "$top_builddir/test/fuzz/${target}_replay" "$dir" || { echo "FAIL: $target"; status=1; }
done
exit $status
