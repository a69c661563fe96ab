#!/bin/sh
# The host registers rank 1 with uid+1: that client's connection must be
# refused (PMIx_Init fails, exit 2) while rank 0 runs normally.
. "$(dirname "$0")/common.sh"
tolerate_finalize=1  # OpenPMIx 4.2.2 refuses too, then hangs in PMIx_server_finalize
run_host wrong-uid -n 2 --refuse-rank 1 --timeout 10 -- "$clients/client_basic"
finish
