#!/bin/sh
# Large committed blobs through collecting fences (test/host/clients/
# client_bigblob.c): on a Unix socket the fence result reaches each client
# as sealed regions it maps (pmixx: the server keeps blobs of 64 KiB and
# more in sealed memfds and passes descriptors), over TCP and with
# PMIX_MCA_gds=hash (no module with shared regions) as bytes inline; more
# regions than one frame carries (9 commits of 8 ranks: 72) go as one
# region; across two nodes (the host's fence_nb) the other node's records
# come along. Every rank checks every peer's blob byte for byte, an
# internal value stored about a peer, and data of an earlier fence after a
# later one.
. "$(dirname "$0")/common.sh"

# big NAME EXPECT SIZE COMMITS HOST-ARGS...: one run of client_bigblob.
big() {
    name=$1 BIGBLOB_EXPECT=$2 BIGBLOB_SIZE=$3 BIGBLOB_COMMITS=$4
    shift 4
    export BIGBLOB_EXPECT BIGBLOB_SIZE BIGBLOB_COMMITS
    run_host "$name" "$@" --timeout 90 -- "$clients/client_bigblob"
}

big bigblob-n4 shared 1048576 1 -n 4
big bigblob-72-regions shared 70000 9 -n 8
big bigblob-small-inline "" 100 1 -n 4
big bigblob-tcp inline 1048576 1 -n 4 --tcp
PMIX_MCA_gds=hash
export PMIX_MCA_gds
big bigblob-hash inline 1048576 1 -n 4
unset PMIX_MCA_gds
big bigblob-2nodes shared 200000 1 -n 2 --remote-procs 2
finish
