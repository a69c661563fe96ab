#!/usr/bin/env bash
# The whole test suite: install what is missing, build in ./_build and run
# 'make check'; then the same for a --disable-dlopen build in
# ./_build-static (skip it with PMIXX_CHECK_STATIC=no). Ends with one line
# 'N passed, N failed, N skipped' over both. With PMIXX_CHECK_SANITIZERS=yes
# (not yet the default: its cost on the CI machine is not measured yet),
# also the hardening build in ./_build-asan: everything built
# with -fsanitize=address,undefined (clang, which also builds the libFuzzer
# targets, when it is installed; gcc otherwise), running the unit tests, a
# set of integration tests and the fuzz targets (PMIXX_FUZZ_SECONDS each,
# default 60) with leak detection.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/contrib/deps.sh"

pmixx_install_packages $PMIXX_BUILD_PACKAGES $PMIXX_TEST_PACKAGES || exit 1
[ "${PMIXX_CHECK_SANITIZERS:-no}" != yes ] || pmixx_install_packages $PMIXX_HARDEN_PACKAGES || exit 1

pass=0 fail=0 skip=0 status=0
# check BUILDDIR [configure args...]: build and 'make check' (only the tests
# in $tests when it is set); adds to the counts.
tests=
check() {
  local builddir=$1; shift
  echo "== make check in ${builddir#$top/} $*"
  PMIXX_CONFIGURE_ARGS="$*" pmixx_build "$builddir" || { fail=$((fail + 1)); status=1; return; }
  if [ -n "$tests" ]; then
    make -C "$builddir" -j2 check TESTS="$tests" >"$builddir/check.out" 2>&1 || status=1
  else
    make -C "$builddir" -j2 check >"$builddir/check.out" 2>&1 || status=1
  fi
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
if [ "${PMIXX_CHECK_SANITIZERS:-no}" = yes ]; then
  # The unit tests, the fuzz targets, and the integration tests that drive
  # the server's wire, collectives and fault paths; the ABI, Open MPI,
  # Slurm and valgrind tests are not repeated there.
  tests=$(printf 'print-tests:\n\t@echo $(TESTS)\n' \
            | make -s -C "$top/_build" -f Makefile -f - print-tests | tr ' ' '\n' \
            | grep -E '^test/(unit/.*_tests|fuzz/.*\.sh|integration/(basic|get|fence|modex|abort|fence_kill|bad_peer|tcp|events|lost_server)\.sh)$' \
            | tr '\n' ' ')
  if command -v clang++ >/dev/null 2>&1; then
    check "$top/_build-asan" CC=clang CXX=clang++ --enable-sanitizers=address,undefined --enable-fuzzers
  else
    check "$top/_build-asan" --enable-sanitizers=address,undefined
  fi
  tests=
fi
[ $status -ne 0 ] && [ "$fail" -eq 0 ] && fail=1
echo "$pass passed, $fail failed, $skip skipped"
[ $status -eq 0 ]
