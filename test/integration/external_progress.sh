#!/bin/sh
# client_external: clients without a progress thread (PMIX_EXTERNAL_PROGRESS),
# driving the library with PMIx_Progress and their blocking calls.
# OpenPMIx 4.2.2's blocking calls do not drive its loop in this mode (its
# clients hang in the first Fence, measured), so this runs on pmixx only.
. "$(dirname "$0")/common.sh"
ours_only "external progress"
for n in 1 4; do
    run_host "external-n$n" -n "$n" --timeout 60 -- "$clients/client_external"
done
finish
