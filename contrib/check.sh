#!/usr/bin/env bash
# The whole test suite: install what is missing, build in ./_build and run
# 'make check'; then the same for a --disable-dlopen build in
# ./_build-static (skip it with PMIXX_CHECK_STATIC=no). Ends with one line
# 'N passed, N failed, N skipped' over both.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/contrib/deps.sh"

pmixx_install_packages $PMIXX_BUILD_PACKAGES $PMIXX_TEST_PACKAGES || exit 1

pass=0 fail=0 skip=0 status=0
# check BUILDDIR [configure args...]: build and 'make check'; adds to the counts.
check() {
  local builddir=$1; shift
  echo "== make check in ${builddir#$top/} $*"
  PMIXX_CONFIGURE_ARGS="$*" pmixx_build "$builddir" || { fail=$((fail + 1)); status=1; return; }
  make -C "$builddir" -j2 check >"$builddir/check.out" 2>&1 || status=1
  grep -E '^(PASS|FAIL|XFAIL|XPASS|SKIP|ERROR):' "$builddir/check.out"
  local log
  for log in $(grep -lE '^:test-result: (FAIL|ERROR)' $(find "$builddir" -name '*.trs') 2>/dev/null); do
    echo "==== ${log%.trs}.log"; tail -n 40 "${log%.trs}.log"
  done
  count() { grep -E "^# $1: " "$builddir/check.out" | awk '{s+=$3} END {print s+0}'; }
  pass=$((pass + $(count PASS)))
  fail=$((fail + $(count FAIL) + $(count ERROR) + $(count XPASS)))
  skip=$((skip + $(count SKIP)))
}

check "$top/_build"
[ "${PMIXX_CHECK_STATIC:-yes}" = no ] || check "$top/_build-static" --disable-dlopen
[ $status -ne 0 ] && [ "$fail" -eq 0 ] && fail=1
echo "$pass passed, $fail failed, $skip skipped"
[ $status -eq 0 ]
