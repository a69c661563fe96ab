#!/bin/sh
# Query, resolve and log end to end: query_client under pmixrun -n 3 (our
# server library answering from the client's cache, its own state and
# pmixrun's query/log upcalls). Checks every rank's PASS lines, no FAIL,
# and the log lines in pmixrun's stderr/stdout. About 2 s.
#
# make check exports top_builddir; by hand: top_builddir=/tmp/b sh query.sh
. "$(dirname "$0")/common.sh"
client="$top_builddir/test/pmixrun/query_client"
need "$client"

run job 0 -n 3 "$client"
expect_pass job "0 1 2" bad-args cache-job-size refresh-job-size proc-hostname server-namespaces \
    server-nsinfo server-avail abi-version server-proc-table server-local-proc-table \
    host-job-status merged partial not-found unknown-nspace query-nb \
    resolve-peers resolve-peers-local resolve-peers-all resolve-peers-other-node \
    resolve-peers-unknown resolve-nodes resolve-nodes-unknown log-unsupported
expect_pass job "0" log-stderr log-once
expect_pass job "1" log-stdout
expect_pass job "2" log-nb
expect_done job "0 1 2"
no_fail_lines job

# The log lines, as pmixrun prints them (the namespace is pmixrun's choice).
grep -q '^\[pmixrun log from [^]]*:0\] query-client stderr from rank 0$' "$work/job.err" ||
    fail "no stderr log line from rank 0"
grep -q '^\[pmixrun log from [^]]*:0\] query-client once$' "$work/job.err" ||
    fail "no PMIX_LOG_ONCE line from rank 0"
grep -q '^\[pmixrun log from [^]]*:2\] query-client log-nb$' "$work/job.err" ||
    fail "no Log_nb line from rank 2"
grep -q '^\[pmixrun log from [^]]*:1\] query-client stdout from rank 1$' "$work/job.out" ||
    fail "no stdout log line from rank 1"
grep -q 'never\|nobody serves this' "$work/job.out" "$work/job.err" && fail "an unserved channel was printed"

finish job
