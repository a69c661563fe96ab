#!/bin/sh
# PMIx_Connect / PMIx_Disconnect / PMIx_Spawn end to end
# (test/host/clients/client_connect.c): collectives over the job with and
# without the host's connect upcalls, PMIX_TIMEOUT, a participant that dies
# (pmixx: PMIX_ERR_PROC_TERM_WO_SYNC), a connect with another namespace
# whose job info the clients then read locally, and spawn through the
# host's upcall (the test host names the job, launches nothing).
. "$(dirname "$0")/common.sh"
tolerate_finalize=1

connect_client="$clients/client_connect"  # common.sh builds it for Debian too

# count_of NAME FIELD: a counter from NAME's summary line (node 0).
count_of() {
    sed -n "s/^pmix_test_host node 0:.* $2 \([0-9]*\) .*/\1/p" "$work/$1.out"
}

run_host connect-n1 -n 1 --timeout 60 -- "$connect_client"
run_host connect-n4 -n 4 --timeout 60 -- "$connect_client"
run_host connect-extra -n 2 --extra-nspace --timeout 60 -- "$connect_client" extra
if [ "$PMIXX_TEST_LIB" = ours ]; then
    # Clients that chose PMIX_MCA_gds=hash (their environment only) against
    # a shmem server: the other namespace's job data reaches them inline.
    run_host connect-extra-client-hash -n 2 --extra-nspace --timeout 60 -- \
        env PMIX_MCA_gds=hash "$connect_client" extra
    # And a PMIX_MCA_gds=hash server (images on its heap, sent inline).
    PMIX_MCA_gds=hash run_host connect-extra-hash -n 2 --extra-nspace --timeout 60 -- \
        "$connect_client" extra
fi
if [ "$PMIXX_TEST_LIB" = ours ]; then
    # pmixx decisions: a NULL connect upcall is no obstacle for local procs,
    # a participant's death fails the collective.
    run_host connect-noupcalls -n 3 --without-upcalls connect,spawn --timeout 60 -- \
        "$connect_client" noupcalls
    run_host connect-extra-noupcall -n 2 --extra-nspace --without-upcalls connect --timeout 60 -- \
        "$connect_client" extra-noupcall
    run_host connect-dead -n 4 --kill-rank 1 --kill-after-ms "$(kill_ms 1000)" --timeout 60 -- \
        "$connect_client" dead

    # One upcall per collective: 3 connects + 3 disconnects in basic mode
    # (the timed-out one never reaches the host), 1 + 1 with another job.
    for spec in "connect-n4 connects 3" "connect-n4 disconnects 3" "connect-n4 spawns 3" \
        "connect-extra connects 1" "connect-extra disconnects 1" \
        "connect-noupcalls connects 0" "connect-noupcalls spawns 0"; do
        set -- $spec
        n=$(count_of "$1" "$2")
        [ "$n" = "$3" ] || fail "$1: $2 upcalls ${n:-?}, want $3"
    done
fi
finish
