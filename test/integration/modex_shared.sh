#!/bin/sh
# Large committed blobs through collecting fences (test/host/clients/
# client_bigblob.c): on a Unix socket the fence result reaches each client
# as shared regions it maps (pmixx: the server keeps blobs of 1 KiB and
# more in a few shared memfd chunks and passes their descriptors with the
# records' places: one mapping per chunk, none new at the second fence,
# also for 72 records of 9 commits of 8 ranks), over TCP and with
# PMIX_MCA_gds=hash (no module with shared regions: in the server's
# environment, or in the clients' only) as bytes inline; across
# two nodes (the host's fence_nb) the other node's records
# come along, in the shared regions too (a client's private memory does
# not grow with them). Every rank checks every peer's blob byte for byte, an
# internal value stored about a peer, and data of an earlier fence after a
# later one.
. "$(dirname "$0")/common.sh"

# big NAME EXPECT SIZE COMMITS HOST-ARGS...: one run of client_bigblob.
big() {
    name=$1 BIGBLOB_EXPECT=$2 BIGBLOB_SIZE=$3 BIGBLOB_COMMITS=$4
    shift 4
    export BIGBLOB_EXPECT BIGBLOB_SIZE BIGBLOB_COMMITS
    run_host "$name" "$@" --timeout 90 -- env ${BIGBLOB_CLIENT_ENV:-} "$clients/client_bigblob"
}

BIGBLOB_MAPS=1
export BIGBLOB_MAPS
big bigblob-n4 shared 1048576 1 -n 4
big bigblob-72-records shared 70000 9 -n 8
big bigblob-n8-64k shared 65536 1 -n 8
unset BIGBLOB_MAPS
# The server's memory grows with the blobs, not with their square: 16
# clients' 1 MiB blobs raised its peak by 44-47 MiB in test runs (the
# shared chunks and the host's one concatenation of the contributions,
# ~2 MiB a client, plus ~10 MiB); a copy of every blob per client would
# be 16 x 16 MiB more.
# pmixx only, and not under a sanitizer (ASan's quarantine holds freed
# memory on purpose, TSan's shadow counts in the RSS).
big bigblob-n16-peak shared 1048576 1 -n 16 --resources
line=$(grep ": resources fds " "$work/bigblob-n16-peak.out")
set -- $(echo "$line" | sed 's/.*rss_kib \([0-9-]*\) -> [0-9-]* peak_kib \([0-9-]*\)/\1 \2/')
case "${PMIXX_TEST_LIB:-}/${PMIXX_SANITIZERS:-}" in
debian/* | */?*) say "bigblob-n16-peak: the server's peak is not checked here" ;;
*)
    if [ $# -ne 2 ]; then
        fail "bigblob-n16-peak: no resources line"
    elif [ $(($2 - $1)) -gt $((3 * 16 * 1024 + 16 * 1024)) ]; then
        fail "bigblob-n16-peak: the server's peak grew by $(($2 - $1)) KiB for 16 x 1 MiB blobs (bound: 64 MiB)"
    else
        say "bigblob-n16-peak: the server's peak grew by $(($2 - $1)) KiB for 16 x 1 MiB blobs"
    fi
    ;;
esac
big bigblob-small-inline "" 100 1 -n 4
big bigblob-tcp inline 1048576 1 -n 4 --tcp
PMIX_MCA_gds=hash
export PMIX_MCA_gds
big bigblob-hash inline 1048576 1 -n 4
# A fence result over ptl_base_max_msg_size (4 x 2 x 12 MiB inline, over
# 64 MiB): a client takes what its server sends (that bound protects a
# server from its peers); it used to close the connection.
big bigblob-hash-96m inline 12582912 1 -n 4
unset PMIX_MCA_gds
big bigblob-tcp-96m inline 12582912 1 -n 4 --tcp
# A client that chose PMIX_MCA_gds=hash itself (its environment only)
# against a shmem server: the records inline to it.
BIGBLOB_CLIENT_ENV=PMIX_MCA_gds=hash
big bigblob-client-hash inline 1048576 1 -n 4
big bigblob-client-hash-72 inline 70000 9 -n 8
unset BIGBLOB_CLIENT_ENV
BIGBLOB_PRIVATE_KIB=512
export BIGBLOB_PRIVATE_KIB
big bigblob-2nodes shared 1048576 1 -n 2 --remote-procs 4
unset BIGBLOB_PRIVATE_KIB
finish
