#!/usr/bin/env bash
# The whole test suite (what .ci/run runs). Installs what is missing, then
# up to four builds, each skipped when its variable is 'no':
#   _build       gcc -O2 -g1: build, 'make check': every test but the unit
#                tests when the gcc ASan+UBSan step runs (each unit test
#                runs in one sanitized build; the native codec's is built
#                for run_valgrind.sh), every test when it does not
#                (PMIXX_CHECK_GCC)
#   _build-asan  clang -fsanitize=address,undefined, --disable-dlopen, with
#                the libFuzzer targets, -O1 -gline-tables-only (line tables
#                are enough for symbolized stacks; full debug info would
#                cost a fifth more CPU): builds the library (components
#                built in), pmix_info, pmixrun and its tests' programs; runs
#                the unit tests but gcc's (below), the fuzz targets
#                (PMIXX_FUZZ_SECONDS each, default 30 here), the tests that
#                load components (in here they are built in) and the
#                integration tests of the wire, collectives, events,
#                threads, groups, tools and fault paths and pmixrun's
#                group and tools tests, with leak detection
#                (PMIXX_CHECK_SANITIZERS). With it off, the
#                static tests run in a plain gcc --disable-dlopen build,
#                _build-static. PMIXX_CHECK_STATIC=no: the asan build
#                loads its components, or with the sanitizers off there is
#                no static step. Without clang the step is gcc's
#                ASan+UBSan, without fuzzers, with every unit test, and
#                there is no _build-gcc-asan
#   _build-gcc-asan  gcc -fsanitize=address,undefined, -Og -g1 (-Og keeps
#                gcc's object-size check; a fifth cheaper than -O1): the
#                library and its components (dlopen'd), the unit tests of
#                the wire, the codec, the hash and region stores, the
#                server, the client, groups, common types, events and the
#                progress thread, run with leak detection: gcc's own
#                instrumentation and UBSan checks (PMIXX_CHECK_GCC_SANITIZERS;
#                every unit test when the asan step is off)
#   _build-tsan  clang -fsanitize=thread, -O1 -gline-tables-only: builds
#                only the library, its components and the programs its
#                tests run (progress thread, external progress, events,
#                fences, several application threads, tools, Get, dmodex,
#                connect, groups, aborts, lost and tcp peers)
#                (PMIXX_CHECK_TSAN)
# Ends with one line 'N passed, N failed, N skipped' over all of them; each
# step says how long it took. CI's budget is 45 minutes on a 2-core machine
# from a clean clone (no ccache contents): what each step costs is in
# docs/security.md, 'What the CI steps cost'.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/contrib/deps.sh"

run_gcc=${PMIXX_CHECK_GCC:-yes}
sanitizers=${PMIXX_CHECK_SANITIZERS:-yes}
static=${PMIXX_CHECK_STATIC:-yes}
tsan=${PMIXX_CHECK_TSAN:-yes}
gcc_san=${PMIXX_CHECK_GCC_SANITIZERS:-yes}
pmixx_install_packages $PMIXX_BUILD_PACKAGES $PMIXX_TEST_PACKAGES || exit 1
if [ "$sanitizers" != no ] || [ "$tsan" != no ] || [ "$gcc_san" != no ]; then
  pmixx_install_packages $PMIXX_HARDEN_PACKAGES || exit 1
fi
have_clang=no
command -v clang++ >/dev/null 2>&1 && have_clang=yes
# gcc's ASan+UBSan step runs unless the asan step is gcc's (no clang); the
# two split the sanitized tests between them.
[ $have_clang = no ] && [ "$sanitizers" != no ] && gcc_san=no

pass=0 fail=0 skip=0 status=0

# make_var BUILDDIR VAR: the value of BUILDDIR's make variable VAR, one word
# a line; select_tests BUILDDIR REGEX: the tests of its TESTS matching REGEX;
# select_programs BUILDDIR REGEX: its check programs matching REGEX.
make_var() {
  printf 'print-var:\n\t@echo $(%s)\n' "$2" \
    | make -s -C "$1" -f Makefile -f - print-var | tr ' ' '\n'
}
# Both leave out those matching $skip_re.
select_tests() {
  make_var "$1" TESTS | grep -E "$2" | grep -vE "${skip_re:-^$}" | tr '\n' ' '
}
select_programs() {
  { make_var "$1" check_PROGRAMS; make_var "$1" bin_PROGRAMS; } | grep -E "$2" \
    | grep -vE "${skip_re:-^$}" | tr '\n' ' '
}

# cpu_now: $cpu = the CPU seconds (user + sys) of every finished child so
# far ('times' must run in this shell, not in a command substitution).
cpu_file=$(mktemp) && trap 'rm -f "$cpu_file"' EXIT
cpu_now() {
  times >"$cpu_file"
  cpu=$(tail -n 1 "$cpu_file" | awk '{
    s = 0
    for (i = 1; i <= 2; ++i) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] }
    printf "%d", s }')
}

# check BUILDDIR [configure args...]: build and run the tests; adds to the
# counts. Every test unless $tests_re is set (then those of TESTS matching
# it); with $programs (names) or $programs_re (check and bin programs
# matching it) set, builds only $PMIXX_MAKE_TARGETS and those programs (the
# tests' own programs among them) instead of everything; tests and programs
# matching $skip_re are left out.
tests_re= programs= programs_re= skip_re=
check() {
  local builddir=$1; shift
  local began=$SECONDS cpu0 tests= progs=$programs
  cpu_now; cpu0=$cpu
  echo "== make check in ${builddir#$top/} $* ${CFLAGS:+CFLAGS=$CFLAGS}"
  PMIXX_CONFIGURE_ARGS="$*" pmixx_build "$builddir" || { fail=$((fail + 1)); status=1; return; }
  cpu_now
  echo "== ${builddir#$top/}: built in $((SECONDS - began)) s, $((cpu - cpu0)) s CPU"
  [ -n "$tests_re" ] && tests=$(select_tests "$builddir" "$tests_re")
  [ -n "$programs_re" ] && progs="$progs $(select_programs "$builddir" "$programs_re")"
  # The test programs first, to say what they cost.
  # shellcheck disable=SC2046,SC2086  # lists of programs
  make -C "$builddir" -j2 ${progs:-$(make_var "$builddir" check_PROGRAMS)} \
    $(make_var "$builddir" check_LTLIBRARIES) >"$builddir/programs.out" 2>&1 \
    || { tail -n 60 "$builddir/programs.out"; echo "test programs failed to build ($builddir/programs.out)"; status=1; }
  cpu_now
  echo "== ${builddir#$top/}: test programs built at $((SECONDS - began)) s, $((cpu - cpu0)) s CPU"
  if [ -n "${progs// /}" ]; then
    make -C "$builddir" -j2 check-TESTS TESTS="$tests" check_PROGRAMS="$progs" \
      >"$builddir/check.out" 2>&1 || status=1
  elif [ -n "$tests_re" ]; then
    make -C "$builddir" -j2 check TESTS="$tests" >"$builddir/check.out" 2>&1 || status=1
  else
    make -C "$builddir" -j2 check >"$builddir/check.out" 2>&1 || status=1
  fi
  grep -E '^(PASS|FAIL|XFAIL|XPASS|SKIP|ERROR):' "$builddir/check.out"
  grep -q '^# TOTAL:' "$builddir/check.out" || tail -n 40 "$builddir/check.out"
  local log
  for log in $(grep -lE '^:test-result: (FAIL|ERROR)' $(find "$builddir" -name '*.trs') 2>/dev/null); do
    echo "==== ${log%.trs}.log"; tail -n 40 "${log%.trs}.log"
  done
  count() { grep -E "^# $1: " "$builddir/check.out" | awk '{s+=$3} END {print s+0}'; }
  pass=$((pass + $(count PASS)))
  fail=$((fail + $(count FAIL) + $(count ERROR) + $(count XPASS)))
  skip=$((skip + $(count SKIP)))
  cpu_now
  echo "== ${builddir#$top/}: $((SECONDS - began)) s, $((cpu - cpu0)) s CPU"
}

# -g1: line tables and function names (backtraces, valgrind's stacks) but
# not the full debug info, which takes a third of gcc's compile time; the
# ABI tests compile what they read the DWARF of with their own -g.
# With the gcc ASan+UBSan step on, each unit test runs in one of the two
# sanitized builds and not here; this step builds the native codec's
# (run_valgrind.sh runs it under valgrind).
if [ "$run_gcc" != no ]; then
  if [ "$gcc_san" != no ]; then
    tests_re=. skip_re='^test/unit/.*_tests$'
    programs=test/unit/bfrops/bfrops_native_tests programs_re=.
  fi
  CFLAGS='-O2 -g1' CXXFLAGS='-O2 -g1' check "$top/_build"
  tests_re= skip_re= programs= programs_re=
fi

# What differs in a --disable-dlopen build is how components are found: the
# unit tests of the frameworks' component lookup and selection (mca, the
# frameworks' base and API tests), and a server, client, tool and pmixrun
# run on the built-in components.
static_re='test/(unit/(mca|bfrops/bfrops_api|gds/gds_base|pcompress/pcompress_base|preg/preg_(base|api)|psec/psec_base|ptl/ptl_base)_tests|integration/(basic|modex|tool)\.sh|pmix_info\.sh|api_exports\.sh|pmixrun/run_pmixrun\.sh)'
# The sanitized integration tests: the wire, collectives, events, threads,
# groups, tools and fault paths, and pmixrun's group and tools tests; not
# soak.sh (its RSS bounds do not hold with ASan's quarantine of freed
# memory; leaks are LeakSanitizer's to find here), nor the ABI, Open MPI,
# Slurm and valgrind tests (they need the uninstrumented library).
san_re='test/(integration/(fence|abort|fence_kill|bad_peer|tcp|events|threads|lost_server|group|connect|get|image|modex_shared|external_progress|alloc_monitor|monitor|wrong_uid|munge)\.sh|pmixrun/(group|tools)\.sh)'
# The programs of the asan step's tests (the unit tests and fuzz targets
# besides): pmix_info, pmixrun, the test host and its clients, pmixrun's.
san_programs_re='^(src/tools/(pmix_info/pmix_info|pmixrun/pmixrun)|test/host/(pmix_test_host|clients/.*)|test/pmixrun/(job_view|pmixrun_client|group_client|iof_job|tool_iof))$'
# The unit tests gcc's ASan+UBSan step runs rather than the asan step (each
# unit test runs in one sanitized build): the wire, the codec, the hash and
# region stores, the server, the client, groups, common types, events and
# the progress thread. The asan step keeps the frameworks' (base, API,
# modules), jobinfo, hwloc, iof and pmixrun's.
gcc_unit_re='test/unit/((wire|server|client|groups)/.*|common|event/event|runtime/progress|bfrops/bfrops_native|gds/gds_(hash|region))_tests'

if [ "$sanitizers" != no ]; then
  # The static tests above, the unit tests (those of gcc's step, when it
  # runs, left out), the sanitized integration tests and the fuzz targets.
  dlopen=--disable-dlopen
  [ "$static" = no ] && dlopen=
  export PMIXX_FUZZ_SECONDS=${PMIXX_FUZZ_SECONDS:-30}
  tests_re="^($static_re|test/unit/.*_tests|$san_re|test/fuzz/.*\.sh)\$"
  programs_re="^(test/unit/.*_tests|test/fuzz/.*)\$|$san_programs_re"
  [ "$gcc_san" != no ] && skip_re="^$gcc_unit_re\$"
  if [ $have_clang = yes ]; then
    CFLAGS='-O1 -gline-tables-only' CXXFLAGS='-O1 -gline-tables-only' PMIXX_MAKE_TARGETS=libs-and-components \
      check "$top/_build-asan" CC=clang CXX=clang++ $dlopen --enable-sanitizers=address,undefined --enable-fuzzers
  else
    CFLAGS='-O1 -g1' CXXFLAGS='-O1 -g1' PMIXX_MAKE_TARGETS=libs-and-components \
      check "$top/_build-asan" $dlopen --enable-sanitizers=address,undefined
  fi
  tests_re= programs_re= skip_re=
elif [ "$static" != no ]; then
  tests_re="^$static_re\$"
  check "$top/_build-static" --disable-dlopen
  tests_re=
fi

# gcc's ASan+UBSan: gcc instruments differently (its own UBSan checks,
# object-size among them, which needs optimization: -Og keeps it), so its
# findings are not clang's. The library and its components (dlopen'd,
# unlike the asan step's) and the unit tests above, with leak detection;
# every unit test when the asan step is off.
if [ "$gcc_san" != no ]; then
  tests_re="^$gcc_unit_re\$"
  [ "$sanitizers" = no ] && tests_re='^test/unit/.*_tests$'
  programs_re=$tests_re
  CFLAGS='-Og -g1' CXXFLAGS='-Og -g1' PMIXX_MAKE_TARGETS=libs-and-components \
    check "$top/_build-gcc-asan" CC=gcc CXX=g++ --enable-sanitizers=address,undefined
  tests_re= programs_re=
fi

if [ "$tsan" != no ] && [ $have_clang = yes ]; then
  # The tests whose point is threads (the progress thread, external
  # progress, events, fences, several application threads, tools) and
  # those whose server answers Gets, dmodex, connect, groups, aborts, lost
  # peers and tcp peers from its progress thread while the host's threads
  # run, and the programs they run (a test added here names its programs
  # here too).
  tests_re='^test/(unit/(runtime/progress|event/event)_tests|unit/event/events_local\.sh|integration/(external_progress|events|fence|threads|tool|get|modex|connect|group|abort|lost_server|tcp|bad_peer)\.sh)$'
  programs=
  for p in pmix_test_host clients/client_external clients/client_events clients/client_fence \
    clients/client_threads clients/client_basic clients/client_tool_peer clients/tool_connect \
    clients/client_events_local clients/client_get clients/client_modex clients/client_connect \
    clients/client_group clients/client_abort clients/client_lost_server clients/bad_peer; do
    programs="$programs test/host/$p"
  done
  CFLAGS='-O1 -gline-tables-only' CXXFLAGS='-O1 -gline-tables-only' PMIXX_MAKE_TARGETS=libs-and-components \
    check "$top/_build-tsan" CC=clang CXX=clang++ --enable-sanitizers=thread
  tests_re= programs=
elif [ "$tsan" != no ]; then
  echo "== _build-tsan: no clang++, the TSan step cannot run"; status=1
fi
[ $status -ne 0 ] && [ "$fail" -eq 0 ] && fail=1
echo "$pass passed, $fail failed, $skip skipped"
[ $status -eq 0 ]
