#!/bin/sh
# client_external: clients without a progress thread (PMIX_EXTERNAL_PROGRESS),
# driving the library with PMIx_Progress and their blocking calls.
. "$(dirname "$0")/common.sh"
for n in 1 4; do
    run_host "external-n$n" -n "$n" --timeout 60 -- "$clients/client_external"
done
finish
