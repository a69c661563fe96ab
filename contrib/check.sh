#!/usr/bin/env bash
# The whole test suite: install what is missing, build in ./_build, run
# 'make check', and end with one line 'N passed, N failed, N skipped'.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/contrib/deps.sh"

pmixx_install_packages $PMIXX_BUILD_PACKAGES $PMIXX_TEST_PACKAGES || exit 1
pmixx_build "$top/_build" || exit 1
make -C "$top/_build" -j2 check >"$top/_build/check.out" 2>&1
status=$?
grep -E '^(PASS|FAIL|XFAIL|XPASS|SKIP|ERROR):' "$top/_build/check.out"
if [ $status -ne 0 ]; then
  for log in $(grep -lE '^:test-result: (FAIL|ERROR)' $(find "$top/_build" -name '*.trs') 2>/dev/null); do
    echo "==== ${log%.trs}.log"; tail -n 40 "${log%.trs}.log"
  done
fi
count() { grep -E "^# $1: " "$top/_build/check.out" | awk '{s+=$3} END {print s+0}'; }
pass=$(count PASS); fail=$(( $(count FAIL) + $(count ERROR) + $(count XPASS) )); skip=$(count SKIP)
[ $status -ne 0 ] && [ "$fail" -eq 0 ] && fail=1
echo "$pass passed, $fail failed, $skip skipped"
[ $status -eq 0 ]
