#!/bin/sh
# client_monitor: with no monitor upcall in the host, the server library
# watches heartbeats and files itself and raises PMIX_MONITOR_HEARTBEAT_ALERT
# / PMIX_MONITOR_FILE_ALERT when they stop; PMIX_MONITOR_CANCEL ends it.
. "$(dirname "$0")/common.sh"
ours_only "library-side monitoring"
run_host monitor -n 1 --without-upcalls monitor --timeout 40 -- "$clients/client_monitor" "$work/watched.log"
finish
