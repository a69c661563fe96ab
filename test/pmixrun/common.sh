# Sourced by test/pmixrun/*.sh (pmixrun end to end). Gives each script:
#   $me        its name (run_pmixrun, pubsub, ...): the prefix of its lines
#   $pmixrun   the launcher under test
#   $work      a private directory, removed at exit; TMPDIR=$work/tmp, where
#              pmixrun makes its session directories (see no_session_dirs_left)
#   $host_name this node's name
#   say / fail / need / run / start / finish_job / expect_in / expect_pass /
#   expect_done / no_fail_lines / no_session_dirs_left / finish (below)
#
# make check exports top_builddir; by hand: top_builddir=/tmp/b sh SCRIPT.sh
set -u
: "${top_builddir:?top_builddir must be set (make check exports it)}"
me=$(basename "$0" .sh)
pmixrun="$top_builddir/src/tools/pmixrun/pmixrun"
failures=0

say() { echo "$me: $*"; }
fail() { say "FAIL: $*"; failures=$((failures + 1)); }

# need PROGRAM...: pmixrun and each PROGRAM are built, else the script skips.
need() {
    for f in "$pmixrun" "$@"; do
        [ -x "$f" ] || { say "SKIP: $f not built"; exit 77; }
    done
}

work=$(mktemp -d "${TMPDIR:-/tmp}/pmixrun-$me.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
TMPDIR=$work/tmp
export TMPDIR
mkdir "$TMPDIR" || exit 99

# run NAME EXPECTED_STATUS pmixrun-args...: pmixrun (under timeout 60, with
# $run_opts first) writes $work/NAME.out and .err; a wrong exit status is a
# failure (both outputs shown) and returns 1.
run_opts=
run() {
    name=$1 want=$2
    shift 2
    # shellcheck disable=SC2086 # run_opts is a list of words
    timeout 60 "$pmixrun" $run_opts "$@" >"$work/$name.out" 2>"$work/$name.err"
    got=$?
    [ "$got" -eq "$want" ] && return 0
    fail "$name: exit status $got, want $want"
    sed 's/^/  stdout: /' "$work/$name.out"
    sed 's/^/  stderr: /' "$work/$name.err"
    return 1
}

# start NAME PMIXRUN-ARGS...: pmixrun in the background, bounded by
# --timeout $start_timeout (default 120 s), writing its URI to
# $work/NAME.uri, its stdout to $work/NAME.out ($out_to when set) and its
# stderr to $work/NAME.err; returns once the URI file is there (at most
# 30 s, else a failure), with $pid its pid and $job its job's namespace.
host_name=$(hostname)
start() {
    name=$1
    shift
    rm -f "$work/$name.uri"
    "$pmixrun" --timeout "${start_timeout:-120}" --report-uri "$work/$name.uri" "$@" \
        >"${out_to:-$work/$name.out}" 2>"$work/$name.err" &
    pid=$!
    job="prun-$host_name-$pid@1"
    for _ in $(seq 1 300); do [ -s "$work/$name.uri" ] && break; sleep 0.1; done
    [ -s "$work/$name.uri" ] || fail "$name: pmixrun wrote no URI"
}

# finish_job NAME [WHY]: the pmixrun started last (start NAME) must exit 0,
# else a failure (saying WHY) shows the tails of its outputs.
finish_job() {
    wait "$pid" && return 0
    fail "$1: pmixrun exited $?${2:+ ($2)}"
    [ -f "$work/$1.out" ] && sed 's/^/  out: /' "$work/$1.out" | tail -20
    sed 's/^/  err: /' "$work/$1.err" | tail -20
}

# expect_in NAME FILE TEXT: FILE (out/err) of run NAME contains TEXT.
expect_in() {
    grep -qF -- "$3" "$work/$1.$2" || { fail "$1: no '$3' in std$2"; sed 's/^/  /' "$work/$1.$2"; }
}

# expect_pass NAME "RANKS" CHECK...: in run NAME's stdout, each rank printed
# the line "PASS <rank> <check>" for each CHECK.
expect_pass() {
    run_name=$1 ranks=$2
    shift 2
    for r in $ranks; do
        for check in "$@"; do
            grep -qx "PASS $r $check" "$work/$run_name.out" || fail "rank $r: no PASS for $check"
        done
    done
}

# expect_done NAME "RANKS": each rank printed "DONE <rank> failures 0".
expect_done() {
    for r in $2; do
        grep -qx "DONE $r failures 0" "$work/$1.out" || fail "rank $r did not finish cleanly"
    done
}

# no_fail_lines NAME: run NAME's stdout has no FAIL anywhere.
no_fail_lines() {
    ! grep -q "FAIL" "$work/$1.out" || { fail "$1: FAIL lines"; grep FAIL "$work/$1.out" | sed 's/^/  /'; }
}

# no_session_dirs_left: pmixrun removed every session directory it made.
no_session_dirs_left() {
    left=$(ls "$TMPDIR")
    [ -z "$left" ] || fail "session directories left behind: $left"
}

# finish [NAME]: exits 1 if anything failed (showing run NAME's outputs, if
# given), else 0 (counting NAME's PASS lines, if given).
finish() {
    if [ "$failures" -ne 0 ]; then
        say "$failures failure(s)"
        if [ $# -gt 0 ]; then
            sed 's/^/  out: /' "$work/$1.out"
            sed 's/^/  err: /' "$work/$1.err"
        fi
        exit 1
    fi
    if [ $# -gt 0 ]; then say "all passed ($(grep -c '^PASS' "$work/$1.out") checks)"; else say "all passed"; fi
    exit 0
}
