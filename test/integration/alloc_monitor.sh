#!/bin/sh
# client_alloc: PMIx_Allocation_request / PMIx_Process_monitor (and
# PMIx_Heartbeat) reach the host's allocate / monitor upcalls with the
# requester and its uid, results and denials come back; one and two nodes.
# Without those upcalls allocation fails with PMIX_ERR_NOT_SUPPORTED and the
# library monitors by itself (test/integration/monitor.sh).
. "$(dirname "$0")/common.sh"
run_host alloc-n1 -n 1 --timeout 30 -- "$clients/client_alloc"
run_host alloc-n4 -n 4 --timeout 30 -- "$clients/client_alloc"
run_host alloc-2nodes -n 2 --remote-procs 2 --timeout 30 -- "$clients/client_alloc"
run_host alloc-unsupported -n 2 --without-upcalls allocate,monitor --timeout 30 -- \
    "$clients/client_alloc" unsupported
finish
