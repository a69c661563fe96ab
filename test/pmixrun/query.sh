#!/bin/sh
# Query, resolve and log end to end: query_client under pmixrun -n 3 (our
# server library answering from the client's cache, its own state and
# pmixrun's query/log upcalls). Checks every rank's PASS lines, no FAIL,
# and the log lines in pmixrun's stderr/stdout. About 2 s.
#
# make check exports top_builddir; by hand: top_builddir=/tmp/b sh query.sh
set -u
: "${top_builddir:?top_builddir must be set (make check exports it)}"
pmixrun="$top_builddir/src/tools/pmixrun/pmixrun"
client="$top_builddir/test/pmixrun/query_client"
for f in "$pmixrun" "$client"; do
    [ -x "$f" ] || { echo "query: SKIP: $f not built"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/query-test.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
TMPDIR=$work
export TMPDIR
failures=0
fail() { echo "query: FAIL: $*"; failures=$((failures + 1)); }

timeout 60 "$pmixrun" -n 3 "$client" >"$work/out" 2>"$work/err"
status=$?
[ "$status" -eq 0 ] || fail "pmixrun exit status $status, want 0"

# expect "RANKS" NAME...: each rank printed "PASS <rank> <name>" for each name
expect() {
    ranks=$1
    shift
    for r in $ranks; do
        for name in "$@"; do
            grep -qx "PASS $r $name" "$work/out" || fail "rank $r: no PASS for $name"
        done
    done
}
expect "0 1 2" bad-args cache-job-size refresh-job-size proc-hostname server-namespaces \
    server-nsinfo server-avail abi-version server-proc-table server-local-proc-table \
    host-job-status merged partial not-found unknown-nspace query-nb \
    resolve-peers resolve-peers-local resolve-peers-all resolve-peers-other-node \
    resolve-peers-unknown resolve-nodes resolve-nodes-unknown log-unsupported
expect "0" log-stderr log-once
expect "1" log-stdout
expect "2" log-nb
for r in 0 1 2; do
    grep -qx "DONE $r failures 0" "$work/out" || fail "rank $r did not finish cleanly"
done
if grep -q '^FAIL' "$work/out"; then fail "checks failed:"; grep '^FAIL' "$work/out"; fi

# The log lines, as pmixrun prints them (the namespace is pmixrun's choice).
grep -q '^\[pmixrun log from [^]]*:0\] query-client stderr from rank 0$' "$work/err" ||
    fail "no stderr log line from rank 0"
grep -q '^\[pmixrun log from [^]]*:0\] query-client once$' "$work/err" ||
    fail "no PMIX_LOG_ONCE line from rank 0"
grep -q '^\[pmixrun log from [^]]*:2\] query-client log-nb$' "$work/err" ||
    fail "no Log_nb line from rank 2"
grep -q '^\[pmixrun log from [^]]*:1\] query-client stdout from rank 1$' "$work/out" ||
    fail "no stdout log line from rank 1"
grep -q 'never\|nobody serves this' "$work/out" "$work/err" && fail "an unserved channel was printed"

if [ "$failures" -ne 0 ]; then
    echo "query: $failures failure(s); output:"
    sed 's/^/  out: /' "$work/out"
    sed 's/^/  err: /' "$work/err"
    exit 1
fi
echo "query: all passed ($(grep -c '^PASS' "$work/out") checks)"
exit 0
