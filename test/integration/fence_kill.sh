#!/bin/sh
# A rank dies while the others wait in a fence for it: their fence must
# return an error, not hang (OpenPMIx 4.2.2: PMIX_ERR_PARTIAL_SUCCESS).
. "$(dirname "$0")/common.sh"
tolerate_finalize=1
run_host fence-kill-n4 -n 4 --kill-rank 2 --kill-after-ms 2000 --timeout 30 -- \
    "$clients/client_fence_wait" 2
run_host fence-kill-n8-rank0 -n 8 --kill-rank 0 --kill-after-ms 2000 --timeout 30 -- \
    "$clients/client_fence_wait" 0
finish
