#!/bin/sh
# client_events_local through the test host: in-process event behaviour
# (cache, ACTION_COMPLETE, calls made inside a handler, bad ids) on every
# rank, and PMIX_ERR_PROC_TERM_WO_SYNC reaching the namespace when the host
# kills a rank. With PMIXX_TEST_LIB=debian this script is skipped (the
# shared Debian build in common.sh compiles only the host helper's clients).
. "$top_srcdir/test/integration/common.sh"
ours_only "client_events_local is built in-tree only"
run_host events-local-n1 -n 1 --timeout 60 -- "$clients/client_events_local"
run_host events-local-n4 -n 4 --timeout 60 -- "$clients/client_events_local"
run_host events-term-n4 -n 4 --kill-rank 3 --kill-after-ms "$(kill_ms 2000)" --timeout 60 -- \
    "$clients/client_events_local" term 3
finish
