#!/bin/sh
# A rank dies while the others wait in a fence for it: their fence must
# complete among the survivors with PMIX_ERR_PARTIAL_SUCCESS (as on OpenPMIx
# 4.2.2), not hang; the host's event handler gets PMIX_ERR_LOST_CONNECTION
# for the dead rank (pmix_test_host checks it).
. "$(dirname "$0")/common.sh"
tolerate_finalize=1
run_host fence-kill-n4 -n 4 --kill-rank 2 --kill-after-ms "$(kill_ms 2000)" --timeout 30 -- \
    "$clients/client_fence_wait" 2
run_host fence-kill-n8-rank0 -n 8 --kill-rank 0 --kill-after-ms "$(kill_ms 2000)" --timeout 30 -- \
    "$clients/client_fence_wait" 0
finish
