#!/bin/sh
# The same clients over TCP (PMIX_MCA_ptl=tcp, remote connections allowed).
. "$(dirname "$0")/common.sh"
run_host tcp-basic-n4 -n 4 --tcp --timeout 60 -- "$clients/client_basic"
run_host tcp-modex-n4 -n 4 --tcp --timeout 60 -- "$clients/client_modex"
run_host tcp-modex-2nodes -n 2 --remote-procs 2 --tcp --timeout 60 -- "$clients/client_modex"
finish
