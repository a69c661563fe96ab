#!/bin/sh
# Debuggers and pmixrun (standard §18.4):
#   init     --stop-in-init: the processes wait in PMIx_Init (pps shows them
#            connected, with their pids) until a tool's PMIX_DEBUGGER_RELEASE
#   exec     --stop-on-exec: the processes are stopped on their first
#            instruction (state T; pps shows their pids, not yet connected)
#            until PMIX_DEBUGGER_RELEASE continues them; a tool attaching
#            then hears pmixrun's PMIX_READY_FOR_DEBUG for the job
#   tool     a debugger front end (debug_tool) spawns a job stopped in init,
#            hears PMIX_LAUNCH_COMPLETE and one PMIX_READY_FOR_DEBUG for the
#            job (every process, breakpoint pmix-init), co-launches its
#            daemons (PMIX_DEBUGGER_DAEMONS, PMIX_DEBUG_TARGET,
#            PMIX_DEBUG_DAEMONS_PER_NODE), which find the target's processes
#            and release them
#   spawnexec the same with PMIX_DEBUG_STOP_ON_EXEC (no breakpoint)
#   cospawn  the daemons co-spawned in the job's own request (PMIX_COSPAWN_APP,
#            no target): a job of their own, debugging the request's job
#   app      PMIX_DEBUG_STOP_IN_APP reaches the job's data: the application
#            announces its own pause ("app-wait"), pmixrun the job's, and it
#            waits until the release
#   stale    a PMIX_DEBUGGER_RELEASE naming no job, raised before a job
#            stopped in init is spawned, does not release that job
. "$(dirname "$0")/common.sh"
t="$top_builddir/test/pmixrun"
cli="$top_builddir/src/tools/cli"
need "$t/debug_client" "$t/debug_tool" "$t/debug_daemon" "$t/iof_job" "$cli/pps" "$cli/pevent"
release=-3  # PMIX_DEBUGGER_RELEASE

# count NAME PATTERN: lines of NAME's stdout matching PATTERN.
count() { grep -cE "$2" "$work/$1.out"; }
# eventually SECONDS COMMAND...: COMMAND succeeds within SECONDS.
eventually() {
    s=$1
    shift
    for _ in $(seq 1 $((s * 10))); do "$@" && return 0; sleep 0.1; done
    return 1
}
connected2() { [ "$(grep -c "PROC HAS CONNECTED" "$work/$1.pps")" -ge 2 ]; }
pps_until_connected() {
    timeout 30 "$cli/pps" --pid "$pid" >"$work/$1.pps" 2>&1 && connected2 "$1"
}

# --- stop in init -------------------------------------------------------
start init --stop-in-init -n 2 "$t/debug_client"
eventually 30 pps_until_connected init || fail "init: the processes did not connect"
sleep 1  # they would have printed INIT by now, were they not stopped
[ "$(count init '^INIT ')" = 0 ] || fail "init: a process left PMIx_Init before the release"
for r in 0 1; do
    # the proc table: connected, with a live pid
    p=$(awk -v n="$job:$r" '$3 == n { print $7 }' "$work/init.pps")
    [ -n "$p" ] && [ "$p" -gt 0 ] && kill -0 "$p" 2>/dev/null ||
        { fail "init: pps shows no live pid for rank $r"; sed 's/^/  /' "$work/init.pps"; }
done
timeout 30 "$cli/pevent" --pid "$pid" --event $release --range custom --target "$job" \
    >"$work/init.pevent" 2>&1 || fail "init: pevent failed"
finish_job init
[ "$(count init '^DONE ')" = 2 ] || fail "init: $(count init '^DONE ') of 2 processes finished"
[ "$(count init '^WAITING ')" = 0 ] || fail "init: a process stopped in the app too"

# --- stop on exec ---------------------------------------------------------
start exec --stop-on-exec -n 2 "$t/debug_client"
stopped() {
    n=0
    for c in $(pgrep -P "$pid"); do
        st=$(awk '{ print $3 }' "/proc/$c/stat" 2>/dev/null)
        [ "$st" = T ] && n=$((n + 1))
    done
    [ "$n" = 2 ]
}
eventually 30 stopped || fail "exec: the processes are not stopped"
sleep 1
[ "$(count exec '^INIT ')" = 0 ] || fail "exec: a process ran before the release"
# the proc table has their pids (pmixrun stores them) before they connect
timeout 30 "$cli/pps" --pid "$pid" >"$work/exec.pps" 2>&1 || fail "exec: pps failed"
for c in $(pgrep -P "$pid"); do
    grep -q "| *$c | .*PREPPED FOR LAUNCH" "$work/exec.pps" ||
        { fail "exec: pps does not show pid $c prepped"; sed 's/^/  /' "$work/exec.pps"; }
done
# a debugger attaching now hears that the job is ready (the server's event cache)
PMIXX_TEST_LISTEN=$job PMIXX_TEST_SERVER_PID=$pid timeout 60 "$t/debug_tool" x 2 x \
    >"$work/exec.tool" 2>&1 || { fail "exec: debug_tool (listen) failed"; sed 's/^/  /' "$work/exec.tool"; }
for c in ready_for_debug ready_once ready_procs breakpoint finalize; do
    grep -qx "PASS tool 0 $c" "$work/exec.tool" || fail "exec: no PASS for $c"
done
timeout 30 "$cli/pevent" --pid "$pid" --event $release --range custom --target "$job" \
    >"$work/exec.pevent" 2>&1 || fail "exec: pevent failed"
finish_job exec
[ "$(count exec '^DONE ')" = 2 ] || fail "exec: $(count exec '^DONE ') of 2 processes finished"

# --- a debugger front end with its daemons ----------------------------------
# front_end NAME STOP [cospawn]: the primary job waits for a release
# (-3011) that comes at the end; debug_tool spawns a job stopped as STOP
# says (init, exec) and its daemons (co-spawned in the same request).
front_end() {
    name=$1
    start "$name" -n 1 "$t/iof_job" lines 1
    checks="spawn_daemons" cospawn=
    [ "${3:-}" = cospawn ] && checks="cospawn_launched job_sizes" cospawn=1
    PMIXX_TEST_COSPAWN=$cospawn PMIXX_TEST_STOP=$2 PMIXX_TEST_SERVER_PID=$pid timeout 90 \
        "$t/debug_tool" "$t/debug_client" 2 "$t/debug_daemon" >"$work/$name.tool" 2>&1 ||
        { fail "$name: debug_tool failed"; sed 's/^/  /' "$work/$name.tool"; }
    for c in debug_support registered spawn_app launch_complete ready_for_debug ready_once \
        ready_procs breakpoint $checks app_ended daemons_ended finalize; do
        grep -qx "PASS tool 0 $c" "$work/$name.tool" || fail "$name: no PASS for $c"
    done
    timeout 30 "$cli/pevent" --pid "$pid" --event -3011 --range custom --target "$job" \
        >"$work/$name.pevent" 2>&1 || fail "$name: pevent failed"
    finish_job "$name"
    for c in debug_target debug_job local_proc_table targets_alive release_sent finalize; do
        grep -q "^PASS daemon 0 $c\$" "$work/$name.out" || fail "$name: the daemon has no PASS for $c"
    done
    [ "$(grep -c "^TARGET " "$work/$name.out")" = 2 ] || fail "$name: the daemon did not see 2 targets"
    [ "$(grep -c "^DAEMON " "$work/$name.out")" = 1 ] || fail "$name: not exactly 1 daemon ran"
    [ "$(count "$name" '^DONE ')" = 2 ] || fail "$name: the debugged job did not finish"
    ! grep -q "^FAIL" "$work/$name.out" "$work/$name.tool" ||
        { fail "$name: FAIL lines"; grep "^FAIL" "$work/$name.out" "$work/$name.tool"; }
}
front_end tool init
front_end spawnexec exec
front_end cospawn init cospawn

# --- the application stops itself (PMIX_DEBUG_STOP_IN_APP) -------------------
start app -n 1 "$t/iof_job" lines 1
PMIXX_TEST_STOP=app PMIXX_TEST_SERVER_PID=$pid timeout 90 "$t/debug_tool" "$t/debug_client" 2 \
    "$t/debug_daemon" >"$work/app.tool" 2>&1 || { fail "debug_tool (app) failed"; sed 's/^/  /' "$work/app.tool"; }
for c in spawn_app launch_complete ready_for_debug ready_once ready_procs breakpoint \
    spawn_daemons app_ended daemons_ended finalize; do
    grep -qx "PASS tool 0 $c" "$work/app.tool" || fail "app: no PASS for $c"
done
timeout 30 "$cli/pevent" --pid "$pid" --event -3011 --range custom --target "$job" \
    >"$work/app.pevent" 2>&1 || fail "app: pevent failed"
finish_job app
[ "$(count app '^INIT ')" = 2 ] || fail "app: the processes did not pass PMIx_Init"
[ "$(count app '^RELEASED ')" = 2 ] || fail "app: $(count app '^RELEASED ') of 2 processes released"

# --- a stale release ---------------------------------------------------------
# A release naming no job, raised while no process waits, must not let a
# job spawned later through PMIx_Init: its processes still wait for the
# release their daemons send (debug_tool waits at the gate meanwhile).
start stale -n 1 "$t/iof_job" lines 1
timeout 30 "$cli/pevent" --pid "$pid" --event $release >"$work/stale.pevent" 2>&1 ||
    fail "stale: pevent (release) failed"
PMIXX_TEST_GATE=$work/stale.gate PMIXX_TEST_SERVER_PID=$pid timeout 90 "$t/debug_tool" \
    "$t/debug_client" 2 "$t/debug_daemon" >"$work/stale.tool" 2>&1 &
tool_pid=$!
eventually 60 grep -qx "PASS tool 0 breakpoint" "$work/stale.tool" ||
    fail "stale: the spawned job did not get ready"
sleep 1  # a released process would have printed INIT by now
[ "$(count stale '^INIT ')" = 0 ] || fail "stale: an old release let a new job through PMIx_Init"
touch "$work/stale.gate"
wait "$tool_pid" || { fail "stale: debug_tool failed"; sed 's/^/  /' "$work/stale.tool"; }
timeout 30 "$cli/pevent" --pid "$pid" --event -3011 --range custom --target "$job" \
    >"$work/stale.end" 2>&1 || fail "stale: pevent (end) failed"
finish_job stale
[ "$(count stale '^DONE ')" = 2 ] || fail "stale: the debugged job did not finish"

no_session_dirs_left
finish
