#!/bin/sh
# client_basic on 1, 2, 8 and 64 clients, with the v1 client_connected
# upcall, and across two nodes (two hosts, two servers).
. "$(dirname "$0")/common.sh"
for n in 1 2 8 64; do
    run_host "basic-n$n" -n "$n" --timeout 60 -- "$clients/client_basic"
done
run_host basic-connected1 -n 2 --connected1 --timeout 60 -- "$clients/client_basic"
run_host basic-2nodes -n 2 --remote-procs 2 --timeout 60 -- "$clients/client_basic"
finish
