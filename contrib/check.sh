#!/usr/bin/env bash
# The whole test suite (what .ci/run runs). Installs what is missing, then:
#   _build         gcc: build, 'make check' (every test)
#   _build-static  --disable-dlopen: build, the unit tests and the
#                  integration tests that load components (built in here)
#                  -- the rest would only repeat _build's runs
#                  (PMIXX_CHECK_STATIC=no skips it)
#   _build-asan    only with PMIXX_CHECK_SANITIZERS=yes: its build alone
#                  costs more than the budget leaves (docs/security.md,
#                  'What the CI steps cost'; its first findings are fixed):
#                  -fsanitize=address,undefined (clang, which also builds the
#                  libFuzzer targets, when installed; gcc otherwise): the unit
#                  tests, the fuzz targets (PMIXX_FUZZ_SECONDS each, default
#                  30 here) and the integration tests of the wire,
#                  collectives, groups, tools and fault paths, with leak
#                  detection
#   _build-tsan    only with PMIXX_CHECK_TSAN=yes: -fsanitize=thread
#                  (clang), the tests that exercise the progress thread,
#                  external progress, events, fences and tools. Not in the
#                  default run: it is a fourth full build, which with the
#                  three others does not fit the CI budget
# Ends with one line 'N passed, N failed, N skipped' over all of them; each
# step says how long it took (the CI machine's budget is 45 minutes; what
# each step cost when measured is in docs/security.md, 'How this is tested').
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/contrib/deps.sh"

pmixx_install_packages $PMIXX_BUILD_PACKAGES $PMIXX_TEST_PACKAGES || exit 1
sanitizers=${PMIXX_CHECK_SANITIZERS:-no}
tsan=${PMIXX_CHECK_TSAN:-no}
if [ "$sanitizers" != no ] || [ "$tsan" != no ]; then
  pmixx_install_packages $PMIXX_HARDEN_PACKAGES || exit 1
fi

pass=0 fail=0 skip=0 status=0
# check BUILDDIR [configure args...]: build and 'make check' (only the tests
# in $tests when it is set); adds to the counts.
tests=
check() {
  local builddir=$1; shift
  local began=$SECONDS
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
  echo "== ${builddir#$top/}: $((SECONDS - began)) s"
}

# select REGEX: the tests of _build's TESTS matching REGEX, for $tests.
select_tests() {
  printf 'print-tests:\n\t@echo $(TESTS)\n' \
    | make -s -C "$top/_build" -f Makefile -f - print-tests | tr ' ' '\n' \
    | grep -E "$1" | tr '\n' ' '
}

check "$top/_build"
if [ "${PMIXX_CHECK_STATIC:-yes}" != no ]; then
  # What differs in a --disable-dlopen build is how components are found:
  # the unit tests (every framework's) and a server, client, tool and
  # pmixrun run on the built-in components.
  tests=$(select_tests '^test/(unit/.*_tests|integration/(basic|modex|tool)\.sh|pmix_info\.sh|api_exports\.sh|pmixrun/run_pmixrun\.sh)$')
  check "$top/_build-static" --disable-dlopen
  tests=
fi
if [ "$sanitizers" != no ]; then
  # The unit tests, the fuzz targets, and the integration tests that drive
  # the server's wire, collectives, groups and fault paths; the ABI, Open
  # MPI, Slurm, valgrind and soak tests are not repeated there.
  tests=$(select_tests '^test/(unit/.*_tests|fuzz/.*\.sh|integration/(basic|get|fence|modex|abort|fence_kill|bad_peer|tcp|events|lost_server|group|tool|connect)\.sh|pmixrun/group\.sh)$')
  export PMIXX_FUZZ_SECONDS=${PMIXX_FUZZ_SECONDS:-30}
  if command -v clang++ >/dev/null 2>&1; then
    check "$top/_build-asan" CC=clang CXX=clang++ --enable-sanitizers=address,undefined --enable-fuzzers
  else
    check "$top/_build-asan" --enable-sanitizers=address,undefined
  fi
  tests=
fi
if [ "$tsan" != no ] && command -v clang++ >/dev/null 2>&1; then
  # The tests whose point is threads: the progress thread and posting to it,
  # external progress, event delivery, fences, tools.
  tests=$(select_tests '^test/(unit/(runtime/progress|event/event)_tests|unit/event/events_local\.sh|integration/(external_progress|events|fence|tool)\.sh)$')
  check "$top/_build-tsan" CC=clang CXX=clang++ --enable-sanitizers=thread
  tests=
fi
[ $status -ne 0 ] && [ "$fail" -eq 0 ] && fail=1
echo "$pass passed, $fail failed, $skip skipped"
[ $status -eq 0 ]
