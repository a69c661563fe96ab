#!/bin/sh
# Publish / lookup / unpublish end to end: pubsub_client under pmixrun -n 4
# (pmixrun's datastore behind our server library). Checks that every rank
# printed the PASS lines it must and no FAIL. About 3 s.
#
# make check exports top_builddir; by hand: top_builddir=/tmp/b sh pubsub.sh
. "$(dirname "$0")/common.sh"
client="$top_builddir/test/pmixrun/pubsub_client"
need "$client"

run job 0 -n 4 "$client"
expect_pass job "0 1 2 3" bad-args range-namespace range-proc-local lookup-range-proc-local not-found \
    partial lookup-nb-gone unpublished-not-found unpublished-all-not-found
expect_pass job "0" publish lookup-nb lookup-nb-again publish-first-read unpublish unpublish-all
expect_pass job "1 2 3" wait-lookup
expect_pass job "0 1" duplicate
expect_pass job "1" timeout publish-nb unpublish-nb first-read unpublish-not-owner
expect_pass job "3" publish-persist-proc
expect_pass job "0 1 2" persist-proc-present persist-proc-gone
expect_done job "0 1 2 3"
no_fail_lines job
finish job
