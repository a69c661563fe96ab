#!/bin/sh
# OpenPMIx's own tool and debugger examples, as Debian's libpmix-dev ships
# them (/usr/share/doc/libpmix-dev/examples), compiled against Debian's
# headers and run against a running pmixrun job on pmixx (issue 11's
# acceptance check):
#   tool            lists the active namespaces (PMIX_QUERY_NAMESPACE_INFO)
#   tool --nspace   the job's size (PMIX_JOB_SIZE of that namespace)
#   tool --uri      the server's URI (PMIX_SERVER_URI of this node)
#   tool --spawn P  spawns P (client.c) as a launcher tool (below)
#   debugger -a NS  the namespaces, when attaching to a job
#   debugger        asks for the spawn and debug support, finds
#                   PMIX_COSPAWN_APP in the spawn support (pmixrun honours
#                   it) and so takes its co-spawn branch, which in 4.2.2 is
#                   empty: it spawns nothing and waits for ever, as it does
#                   against OpenPMIx's own launcher (PRRTE lists the
#                   attribute too). Checked: still waiting after 8 s, having
#                   spawned nothing.
#   client          under pmixrun --stop-on-exec: stopped on exec until
#                   pevent raises PMIX_DEBUGGER_RELEASE, then client.c runs
#                   to its end.
# common_examples.sh builds them.
. "$(dirname "$0")/common.sh"
t="$top_builddir/test/pmixrun"
cli="$top_builddir/src/tools/cli"
need "$t/iof_job" "$cli/pps" "$cli/pevent"
. "$(dirname "$0")/common_examples.sh"
build_examples tool debugger client

# example NAME ARGS...: runs an example (in $work, under timeout 60) into
# $work/NAME.ex; it must exit 0.
example() {
    name=$1
    shift
    (cd "$work" && timeout 60 "$@") >"$work/$name.ex" 2>&1 ||
        { fail "$name: exit status $?"; sed 's/^/  /' "$work/$name.ex"; }
}
expect_ex() {
    grep -qF -- "$2" "$work/$1.ex" || { fail "$1: no '$2'"; sed 's/^/  /' "$work/$1.ex"; }
}

# The running job: one process waiting for a tool's release (-3011).
start job -n 1 "$t/iof_job" lines 1

example tool ./tool
expect_ex tool "ACTIVE NSPACES:"
expect_ex tool "$job"
example tool-nspace ./tool --nspace "$job"
expect_ex tool-nspace "JOB SIZE FOR NSPACE $job: 1"
example tool-uri ./tool --uri "$host_name"
expect_ex tool-uri "PMIx server URI for node $host_name: "
# tool --spawn: a launcher tool (PMIX_LAUNCHER) spawns one client.c, which
# runs to its end; the example then waits for a PMIX_EVENT_JOB_END whose
# affected process is in its own namespace, without asking for one
# (PMIX_NOTIFY_COMPLETION): the job has a namespace of its own, so no
# launcher sends such an event and it waits for ever. Checked: still waiting
# after 8 s, the client done. As a launcher it is a server too: killed, it
# leaves its server directory behind, so it gets a TMPDIR of its own (and
# the job's URI).
mkdir "$work/spawn.tmp" || exit 99
(cd "$work" && TMPDIR=$work/spawn.tmp timeout 8 ./tool --url "$(head -n 1 "$work/job.uri")" \
    --spawn "$work/client") >"$work/spawn.ex" 2>&1
st=$?
[ "$st" = 124 ] || { fail "tool --spawn: exit status $st, want 124 (still waiting)"; sed 's/^/  /' "$work/spawn.ex"; }
! grep -qE "Failed|failed" "$work/spawn.ex" || { fail "tool --spawn: failure lines"; sed 's/^/  /' "$work/spawn.ex"; }
spawned="prun-$host_name-$pid@2"
grep -q "^Client ns $spawned rank 0:PMIx_Finalize successfully completed" "$work/job.err" ||
    { fail "tool --spawn: the spawned client did not complete"; sed 's/^/  err: /' "$work/job.err"; sed 's/^/  ex: /' "$work/spawn.ex"; }
example attach ./debugger -a "$job"
expect_ex attach "Query returned $job"

(cd "$work" && timeout 8 ./debugger) >"$work/debugger.ex" 2>&1
st=$?
[ "$st" = 124 ] || { fail "debugger: exit status $st, want 124 (still waiting)"; sed 's/^/  /' "$work/debugger.ex"; }
expect_ex debugger "Debugger: querying capabilities"
! grep -qE "Debugger: spawning|failed|incorrect|error" "$work/debugger.ex" ||
    { fail "debugger: spawned, or failure lines"; sed 's/^/  /' "$work/debugger.ex"; }
timeout 30 "$cli/pps" --pid "$pid" >"$work/pps.out" 2>&1 || fail "pps failed"
! grep -q "prun-$host_name-$pid@3" "$work/pps.out" ||
    { fail "debugger: a job was spawned"; sed 's/^/  /' "$work/pps.out"; }
timeout 30 "$cli/pevent" --pid "$pid" --event -3011 --range custom --target "$job" \
    >"$work/end.out" 2>&1 || fail "pevent (end) failed"
finish_job job

# OpenPMIx's client example stopped on exec: two stopped children of
# pmixrun, none of which has printed anything, until the release.
start exec --stop-on-exec -n 2 "$work/client"
clients=$job
stopped() {
    n=0
    for c in $(pgrep -P "$pid"); do
        [ "$(awk '{ print $3 }' "/proc/$c/stat" 2>/dev/null)" = T ] && n=$((n + 1))
    done
    [ "$n" = 2 ]
}
for _ in $(seq 1 300); do stopped && break; sleep 0.1; done
stopped || fail "the clients are not stopped"
! grep -q "^Client" "$work/exec.err" || fail "a client ran before its release"
timeout 30 "$cli/pevent" --pid "$pid" --event -3 --range custom --target "$clients" \
    >"$work/release.out" 2>&1 || fail "pevent (release) failed"
finish_job exec
n=$(grep -c "^Client ns $clients rank [01]:PMIx_Finalize successfully completed" "$work/exec.err")
[ "$n" = 2 ] || { fail "$n of 2 released clients completed"; grep "^Client" "$work/exec.err" | sed 's/^/  /'; }
! grep -qE "^Client ns .*(failed|wrong)" "$work/exec.err" ||
    { fail "client failure lines"; grep -E "failed|wrong" "$work/exec.err" | sed 's/^/  /'; }
no_session_dirs_left
finish
