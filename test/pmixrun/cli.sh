#!/bin/sh
# The command-line tools (pps, pquery, pattrs, plookup, pevent) against a
# running pmixrun job (iof_job waits for a tool's release event): each
# connection option, what each prints, pevent's event releasing the job,
# --help, and a clear failure when no server is found.
. "$(dirname "$0")/common.sh"
cli="$top_builddir/src/tools/cli"
iof_job="$top_builddir/test/pmixrun/iof_job"
need "$iof_job" "$cli/pps" "$cli/pquery" "$cli/pattrs" "$cli/plookup" "$cli/pevent"
release=-3011  # PMIX_EXTERNAL_ERR_BASE - 11: iof_job's release event

# clirun NAME WANT TOOL ARGS...: the tool (under timeout 60) writes
# $work/NAME.out and .err; a wrong exit status is a failure.
clirun() {
    name=$1 want=$2 prog=$3
    shift 3
    timeout 60 "$cli/$prog" "$@" >"$work/$name.out" 2>"$work/$name.err"
    got=$?
    [ "$got" -eq "$want" ] && return 0
    fail "$name: $prog exit status $got, want $want"
    sed 's/^/  stdout: /' "$work/$name.out"
    sed 's/^/  stderr: /' "$work/$name.err"
    return 1
}

for t in pps pquery pattrs plookup pevent; do
    clirun "help-$t" 0 "$t" --help && expect_in "help-$t" out "Usage: $t"
done

start_timeout=300 start job -n 2 "$iof_job" lines 1

clirun pps-pid 0 pps --pid "$pid" && expect_in pps-pid out "Namespace $job" &&
    expect_in pps-pid out "$job:1"
# each process's local rank, pid and state (the server's proc table)
for c in $(pgrep -P "$pid"); do
    grep -qE "\| +[01] \| +$c \| .*PROC HAS CONNECTED TO LOCAL PMIX SERVER" "$work/pps-pid.out" ||
        { fail "pps shows no connected process with pid $c"; sed 's/^/  /' "$work/pps-pid.out"; }
done
clirun pps-uri 0 pps --uri "file:$work/job.uri" && expect_in pps-uri out "Namespace $job"
clirun pps-nspace 0 pps --namespace "prun-$host_name-$pid@0" && expect_in pps-nspace out "$job"
clirun pquery 0 pquery --pid "$pid" pmix.qry.ns && expect_in pquery out "$job"
clirun pattrs 0 pattrs --pid "$pid" --client PMIx_Get && expect_in pattrs err "pmix.timeout"  # on stderr, as OpenPMIx's
clirun pattrs-host 0 pattrs --pid "$pid" --host && expect_in pattrs-host err "PMIx_Spawn"
clirun plookup-none 1 plookup --pid "$pid" no.such.key && expect_in plookup-none err "NOT-FOUND"
# the job runs until an event releases it: pevent's
clirun pevent 0 pevent --pid "$pid" --event "$release" --range custom --target "$job"
finish_job job "the job was not released by pevent?"
grep -q "out 1 1" "$work/job.out" || fail "the released job wrote no output"

# no server: a clear message, a nonzero status
clirun noserver 1 pquery --pid "$pid" pmix.qry.ns && expect_in noserver err "pquery:"
no_session_dirs_left
finish
