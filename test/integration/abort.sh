#!/bin/sh
# client_abort: rank 0 calls PMIx_Abort(42); the host must get exactly one
# abort upcall with that status and kill the job (on both nodes).
. "$(dirname "$0")/common.sh"
tolerate_finalize=1
run_host abort-n1 -n 1 --expect-abort 42 --timeout 30 -- "$clients/client_abort"
run_host abort-n4 -n 4 --expect-abort 42 --timeout 30 -- "$clients/client_abort"
run_host abort-2nodes -n 2 --remote-procs 2 --expect-abort 42 --timeout 30 -- "$clients/client_abort"
finish
