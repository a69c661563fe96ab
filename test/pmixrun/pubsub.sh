#!/bin/sh
# Publish / lookup / unpublish end to end: pubsub_client under pmixrun -n 4
# (pmixrun's datastore behind our server library). Checks that every rank
# printed the PASS lines it must and no FAIL. About 3 s.
#
# make check exports top_builddir; by hand: top_builddir=/tmp/b sh pubsub.sh
set -u
: "${top_builddir:?top_builddir must be set (make check exports it)}"
pmixrun="$top_builddir/src/tools/pmixrun/pmixrun"
client="$top_builddir/test/pmixrun/pubsub_client"
for f in "$pmixrun" "$client"; do
    [ -x "$f" ] || { echo "pubsub: SKIP: $f not built"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/pubsub-test.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
TMPDIR=$work
export TMPDIR
failures=0
fail() { echo "pubsub: FAIL: $*"; failures=$((failures + 1)); }

timeout 60 "$pmixrun" -n 4 "$client" >"$work/out" 2>"$work/err"
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
expect "0 1 2 3" bad-args range-namespace range-proc-local lookup-range-proc-local not-found \
    partial lookup-nb-gone unpublished-not-found unpublished-all-not-found
expect "0" publish lookup-nb lookup-nb-again publish-first-read unpublish unpublish-all
expect "1 2 3" wait-lookup
expect "0 1" duplicate
expect "1" timeout publish-nb unpublish-nb first-read unpublish-not-owner
expect "3" publish-persist-proc
expect "0 1 2" persist-proc-present persist-proc-gone
for r in 0 1 2 3; do
    grep -qx "DONE $r failures 0" "$work/out" || fail "rank $r did not finish cleanly"
done
if grep -q '^FAIL' "$work/out"; then fail "checks failed:"; grep '^FAIL' "$work/out"; fi

if [ "$failures" -ne 0 ]; then
    echo "pubsub: $failures failure(s); output:"
    sed 's/^/  out: /' "$work/out"
    sed 's/^/  err: /' "$work/err"
    exit 1
fi
echo "pubsub: all passed ($(grep -c '^PASS' "$work/out") checks)"
exit 0
