#!/bin/sh
# PMIx_Spawn, PMIx_Connect and PMIx_Disconnect under pmixrun, end to end
# (test/pmixrun/spawn_client.c says what each mode checks):
#   parent     2 parents spawn 2 children; spawn errors; connect, a fence over
#              both namespaces, disconnect; the job-end event; tagged output
#   failchild  a spawned process exits with 3: the parent's job-end event,
#              pmixrun's report and exit status
#   orphan     a parent that fails ends the job it spawned
#   jobtimeout PMIX_JOB_TIMEOUT ends a spawned job
# Every pmixrun runs under timeout (and its own --timeout); a few seconds in all.
#
# make check exports top_builddir; by hand: top_builddir=/tmp/b sh spawn.sh
. "$(dirname "$0")/common.sh"
client="$top_builddir/test/pmixrun/spawn_client"
need "$client"
case $client in /*) ;; *) client="$(pwd)/$client" ;; esac  # spawned from another cwd
run_opts="--timeout 40"

# --- parents and children together -------------------------------------------
# parents NAME: the parent mode's run and checks (with the job data shared
# through gds shmem, the default, or sent to each client: PMIX_MCA_gds=hash).
parents() {
    if run "$1" 0 -n 2 --tag-output "$client" parent; then
        for check in spawn-missing spawn-not-executable spawn job-end; do
            expect_in "$1" out "[0] PASS parent 0 $check"
        done
        expect_in "$1" out "[1] PASS parent 1 child-ns"
        for r in 0 1; do
            for check in connect get-connected fence-both get-across disconnect; do
                expect_in "$1" out "[$r] PASS parent $r $check"
            done
        done
        # The children's lines carry their namespace: "[<nspace>,<rank>] ".
        child_ns=$(sed -n 's/^\[0\] parent spawned //p' "$work/$1.out")
        [ -n "$child_ns" ] || fail "$1: no spawned namespace reported"
        for r in 0 1; do
            for check in spawned parent-id job-size env wdir parent-job-size connect get-connected \
                fence-both get-across disconnect; do
                expect_in "$1" out "[$child_ns,$r] PASS child $r $check"
            done
        done
        no_fail_lines "$1"
        expect_in "$1" err "spawn for "
        expect_in "$1" err "/nonexistent/pmixrun-spawn-missing"
    fi
}
parents parent
export PMIX_MCA_gds=hash
parents parent-hash
unset PMIX_MCA_gds

# --- a spawned job that fails ---------------------------------------------------
if run failchild 3 -n 1 "$client" failchild; then
    expect_in failchild out "PASS parent 0 spawn"
    expect_in failchild out "PASS parent 0 job-end-failed"
    expect_in failchild out "PASS parent 0 proc-end-abnormal"
    expect_in failchild err "rank 0 (pid"
    expect_in failchild err "exited with status 3"
    no_fail_lines failchild
fi

# --- a parent that fails ends its children --------------------------------------
start=$(date +%s)
run orphan 5 -n 1 "$client" orphan &&
    { expect_in orphan out "PASS parent 0 spawn"; expect_in orphan err "terminating job "; }
[ $(($(date +%s) - start)) -lt 20 ] || fail "orphan: the spawned job outlived its parent"

# --- PMIX_JOB_TIMEOUT ends a spawned job (its SIGTERM is the exit status) ---------
if run jobtimeout 143 -n 1 "$client" jobtimeout; then
    expect_in jobtimeout out "PASS parent 0 job-end-timeout"
    expect_in jobtimeout err "timed out after 1 s"
    no_fail_lines jobtimeout
fi

# --- the session directory is gone ---------------------------------------------
no_session_dirs_left
finish
