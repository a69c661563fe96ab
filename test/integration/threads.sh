#!/bin/sh
# client_threads: several application threads per rank use the library at
# once (Gets of every rank's data, fences, Put/Commit, event handlers
# registered and deregistered while events arrive). Its point is the TSan
# build (contrib/check.sh), which fails on any data race; every build
# checks the values and statuses.
. "$(dirname "$0")/common.sh"
run_host threads-n1 -n 1 --timeout 100 -- "$clients/client_threads"
run_host threads-n4 -n 4 --timeout 100 -- "$clients/client_threads"
run_host threads-2nodes -n 2 --remote-procs 2 --timeout 100 -- "$clients/client_threads"
finish
