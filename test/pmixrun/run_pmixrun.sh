#!/bin/sh
# pmixrun end to end: the example at several sizes, exit statuses, abort,
# errors on the command line and for programs that cannot run, signal
# forwarding, --tag-output, -x, --timeout, termination events, cleanup.
# Every pmixrun runs under timeout; the whole script takes ~15 s.
#
# make check exports top_builddir; by hand: top_builddir=/tmp/b sh run_pmixrun.sh
. "$(dirname "$0")/common.sh"
job_view="$top_builddir/test/pmixrun/job_view"
client="$top_builddir/test/pmixrun/pmixrun_client"
need "$job_view" "$client"

# wait_lines FILE TEXT COUNT: until FILE has COUNT lines with TEXT (10 s at most).
wait_lines() {
    i=0
    while [ "$(grep -c "$2" "$1" 2>/dev/null)" -lt "$3" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
}

# --- the example: one line per rank, in rank order ----------------------------
host=$(uname -n)
for n in 1 2 4 8; do
    : >"$work/want$n"
    peers=$(seq -s, 0 $((n - 1)))
    for r in $(seq 0 $((n - 1))); do
        next=$(((r + 1) % n))
        echo "rank $r of $n on $host: local peers $peers, neighbour $next says \"hello from rank $next\"" >>"$work/want$n"
    done
    run "job_view$n" 0 -n "$n" "$job_view" &&
        { cmp -s "$work/want$n" "$work/job_view$n.out" || { fail "job_view -n $n output"; diff "$work/want$n" "$work/job_view$n.out"; }; }
done

# --- exit statuses ----------------------------------------------------------
run exit0 0 -n 4 true
run exit7 7 -n 4 sh -c '[ "$PMIX_RANK" = 2 ] && exit 7; exit 0'
start=$(date +%s)
run early 5 -n 3 sh -c '[ "$PMIX_RANK" = 1 ] && exit 5; sleep 30' &&
    expect_in early err "rank 1 (pid"
[ $(($(date +%s) - start)) -lt 15 ] || fail "early: the job was not terminated when rank 1 died"
run killed 137 -n 2 sh -c '[ "$PMIX_RANK" = 0 ] && kill -9 $$; sleep 30' &&
    expect_in killed err "killed by signal 9"

# --- abort: the job is killed, the status is pmixrun's ---------------------------
run abort 42 -n 3 "$client" abort 42 && expect_in abort err "PMIx_Abort with status 42: test abort"

# --- termination events reach the job -------------------------------------------
if run terminated 0 -n 4 "$client" terminated; then
    for r in 1 2 3; do expect_in terminated out "terminated: $r exit 0"; done
    # non-default: a default handler (Open MPI's aborts the rank) never sees them
    expect_in terminated out "default handler saw 0"
fi

# --- proc tables carry the real pids of processes that already left ------------
run proctable 0 -n 3 "$client" proctable && expect_in proctable out "proctable ok"

# --- each process is deregistered once reaped, not at the job's end ----------------
# Ranks 1 and 2 end (never clients) while rank 0 runs on: the server is done
# with them (a Get of their data fails at once, the proc table says
# TERMINATED), and pmixrun -v says it deregistered each, before the job ended.
mkdir -p "$work/dereg.dir"
if run dereg 0 -v -n 3 "$client" dereg "$work/dereg.dir"; then
    expect_in dereg out "dereg ok"
    for r in 0 1 2; do expect_in dereg err "pmixrun: rank $r deregistered"; done
    grep -q "pmixrun: deregistering" "$work/dereg.err" && fail "dereg: a deregistration failed"
    [ "$(sed -n '/pmixrun: rank 1 deregistered/=' "$work/dereg.err")" -lt \
      "$(sed -n '/pmixrun: rank 0 (pid [0-9]*) exited/=' "$work/dereg.err")" ] ||
        fail "dereg: rank 1 was deregistered only after rank 0 exited"
fi

# --- the server keys in every rank's job info (pmixrun's server is tool-enabled) ---
# PMIX_SERVER_URI is the URI tools reach it by: the one it reports
if run serverkeys 0 -n 3 --report-uri "$work/serverkeys.uri" "$client" serverkeys "$work/serverkeys.uri"; then
    n=$(grep -c "^serverkeys ok .*;tcp4://" "$work/serverkeys.out")
    [ "$n" = 3 ] || { fail "serverkeys: $n of 3 ranks ok"; sed 's/^/  /' "$work/serverkeys.out" "$work/serverkeys.err"; }
fi

# --- namespaces as production launchers name them: <base>@<n>, never "pmix..." ---
# (a key made from the namespace is then not a reserved key)
# Job-control declarations (OpenPMIx's jctrl example makes them; refused
# as NOT_SUPPORTED before) and a checkpoint told through the declared event.
if run jctrl 0 -n 3 "$client" jctrl; then
    for r in 0 1 2; do expect_in jctrl out "jctrl ok $r"; done
fi
if run nskey 0 -n 2 "$client" nskey; then
    expect_in nskey out "nskey ok "
    grep -q "nskey ok pmix" "$work/nskey.out" && fail "nskey: the namespace starts with pmix"
    grep -q "nskey ok .*@1\$" "$work/nskey.out" || fail "nskey: the primary job is not named <base>@1"
fi

# --- programs that cannot run, bad command lines --------------------------------
run missing 127 -n 2 /nonexistent/prog && expect_in missing err "/nonexistent/prog: No such file"
run notfound 127 -n 2 pmixrun-no-such-command && expect_in notfound err "command not found"
run noexec 126 -n 1 "$work" && expect_in noexec err "Is a directory"
run badopt 2 --bogus true && expect_in badopt err "unknown option '--bogus'"
run badn 2 -n zero true && expect_in badn err "-n wants a process count"
run badtimeout 2 --timeout -3 true && expect_in badtimeout err "--timeout wants"
run noprog 2 -n 2 && expect_in noprog err "no program to run"
run help 0 --help && expect_in help out "Usage: pmixrun"
run version 0 --version && expect_in version out "pmixrun"

# --- output tagging, environment ----------------------------------------------------
if run tag 0 -n 2 --tag-output sh -c 'echo out $PMIX_RANK; echo err $PMIX_RANK >&2; printf "no newline"'; then
    for r in 0 1; do
        expect_in tag out "[$r] out $r"
        expect_in tag out "[$r] no newline"
        expect_in tag err "[$r] err $r"
    done
fi
run untagged 0 -n 1 sh -c 'echo plain' && expect_in untagged out "plain"
grep -q '^\[' "$work/untagged.out" && fail "untagged: output was tagged"
FOO=from-pmixrun run env 0 -n 2 -x FOO -x BAR=set-by-x -x PATH="$PATH" sh -c 'echo "$PMIX_RANK $FOO $BAR"' &&
    { expect_in env out "0 from-pmixrun set-by-x"; expect_in env out "1 from-pmixrun set-by-x"; }

# --- --timeout ---------------------------------------------------------------------
start=$(date +%s)
run timeout 124 --timeout 1 -n 2 sleep 30 && expect_in timeout err "timed out after 1 s"
[ $(($(date +%s) - start)) -lt 10 ] || fail "timeout: took too long"

# --- signals are passed on to the job ------------------------------------------------
# forward SIG WANT: pmixrun in the background, signalled once both ranks run.
# (Bounded by its own --timeout: timeout(1) in between would not pass on
# every signal.)
forward() {
    sig=$1 want=$2 name=signal_$1
    : >"$work/$name.out"
    "$pmixrun" --timeout 50 -n 2 sh -c 'trap "echo got $0 \$PMIX_RANK; exit 3" '"$sig"'; echo ready; while :; do sleep 1; done' "$sig" \
        >"$work/$name.out" 2>"$work/$name.err" &
    pid=$!
    wait_lines "$work/$name.out" ready 2
    kill -"$sig" "$pid"
    wait "$pid"
    got=$?
    [ "$got" -eq "$want" ] || fail "$name: exit status $got, want $want"
    for r in 0 1; do expect_in "$name" out "got $sig $r"; done
}
forward TERM 3
forward INT 3
forward HUP 3
# SIGUSR1 does not end the job: both ranks report it, then SIGTERM ends it.
name=signal_USR1
: >"$work/$name.out"
"$pmixrun" --timeout 50 -n 2 sh -c 'trap "echo got USR1 \$PMIX_RANK" USR1; echo ready; while :; do sleep 1; done' \
    >"$work/$name.out" 2>"$work/$name.err" &
pid=$!
wait_lines "$work/$name.out" ready 2
kill -USR1 "$pid"
wait_lines "$work/$name.out" got 2
kill -TERM "$pid"
wait "$pid"
got=$?
[ "$got" -eq 143 ] || fail "$name: exit status $got, want 143"
for r in 0 1; do expect_in "$name" out "got USR1 $r"; done

# --- the session directory is gone -------------------------------------------------
no_session_dirs_left
finish
