#!/bin/sh
# The host registers rank 1 with uid+1: that client's connection must be
# refused (PMIx_Init fails, exit 2) while rank 0 runs normally. Its
# PMIx_Finalize(PMIX_EMBED_BARRIER) does not wait for rank 1 for ever: the
# host deregisters rank 1 when it ends (PMIx_server_deregister_client), and
# the barrier goes on without it. Then who may read another job's data.
. "$(dirname "$0")/common.sh"
tolerate_finalize=1  # OpenPMIx 4.2.2 refuses too, then hangs in PMIx_server_finalize
run_host wrong-uid -n 2 --refuse-rank 1 --timeout 30 -- "$clients/client_basic"

# An impostor: a copy of rank 1 running as uid 65534 over TCP (which any
# local user reaches) is refused, and the real rank 1 and the others' fences
# are unaffected (rank 0's embedded barrier still waits for rank 1).
if [ "$(id -u)" = 0 ]; then
    chmod 755 "$clients" 2>/dev/null
    run_host impostor -n 2 --tcp --impostor-rank 1 --timeout 30 -- "$clients/client_basic"
else
    say "SKIP: impostor of another uid (needs root)"
fi

# Another job's data belongs to the users its processes were registered
# as: a client of the same user reads it, and so does anyone a job with no
# registered processes (a job of other nodes); a client of another user
# gets PMIX_ERR_NO_PERMISSIONS for every Get of it, never its image.
run_host owner-same -n 2 --owned-extra --timeout 30 -- "$clients/client_owner" allowed
if [ "$(id -u)" = 0 ]; then
    run_host owner-other -n 2 --tcp --client-uid 65534 --owned-extra --timeout 30 -- \
        "$clients/client_owner" denied
    run_host owner-none -n 2 --tcp --client-uid 65534 --extra-nspace --timeout 30 -- \
        "$clients/client_owner" allowed
else
    say "SKIP: clients of another uid (needs root)"
fi
finish
