#!/bin/sh
# client_events: handler chains with ordering directives; rank 0 notifies
# the namespace (relayed to the second node by the hosts).
. "$(dirname "$0")/common.sh"
run_host events-n1 -n 1 --timeout 60 -- "$clients/client_events"
run_host events-n4 -n 4 --timeout 60 -- "$clients/client_events"
run_host events-2nodes -n 2 --remote-procs 2 --timeout 60 -- "$clients/client_events"
finish
