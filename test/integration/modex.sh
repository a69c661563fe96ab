#!/bin/sh
# client_modex (put/commit/fence/get, direct modex, get directives,
# subset fence, fence_nb) on 1, 2, 8 and 64 clients, and across two nodes
# where fences go through the hosts' fence_nb and gets for the other
# node's ranks through direct_modex.
. "$(dirname "$0")/common.sh"
for n in 1 2 8 64; do
    run_host "modex-n$n" -n "$n" --timeout 60 -- "$clients/client_modex"
done
run_host modex-2nodes-2+2 -n 2 --remote-procs 2 --timeout 60 -- "$clients/client_modex"
run_host modex-2nodes-4+3 -n 4 --remote-procs 3 --timeout 60 -- "$clients/client_modex"
finish
