#!/bin/sh
# Load and soak against one server (test/host/clients/client_soak.c), each
# run checking zero failures (every client and upcall as expected), that the
# server's descriptors are back where they were once the clients are gone,
# and that its RSS grew by a bounded amount:
#   fences  SOAK_FENCE_CLIENTS clients x SOAK_FENCES fences (every 10th collects)
#   blobs   4 clients x SOAK_BLOB_ROUNDS collecting fences of a 64 KiB blob
#           under one key, no Get: the regions they map and their RSS stay
#           bounded (test/host/clients/client_soak.c)
#   cycles  SOAK_CYCLE_CLIENTS clients x SOAK_CYCLES init/finalize cycles each
#   procs   SOAK_PROCS client processes at once (init, fence, finalize)
#   flood   SOAK_FLOOD connections at once x SOAK_FLOOD_ROUNDS (bad_peer flood:
#           silent, half a hello, garbage) while 8 clients fence
# The counts are scaled so that each run takes seconds here; bench/soak.sh
# runs the full sizes (256 x 100 fences, 10,000 cycles, 1,000 processes,
# 2,000-connection floods) for release checks. RSS growth is bounded by
# SOAK_RSS_GROWTH_KIB (not checked under AddressSanitizer, whose quarantine
# holds freed memory on purpose).
. "$(dirname "$0")/common.sh"
ours_only "pmix_test_host --resources and bad_peer flood"

: "${SOAK_FENCE_CLIENTS:=64}" "${SOAK_FENCES:=100}"
: "${SOAK_CYCLE_CLIENTS:=4}" "${SOAK_CYCLES:=500}" "${SOAK_BLOB_ROUNDS:=300}"
: "${SOAK_PROCS:=256}"
: "${SOAK_FLOOD:=1000}" "${SOAK_FLOOD_ROUNDS:=2}"
: "${SOAK_RSS_GROWTH_KIB:=65536}"
: "${SOAK_TIMEOUT:=110}"
run_host_timeout=$((SOAK_TIMEOUT + 10))
soak=$clients/client_soak

check_rss=1
case ${PMIXX_SANITIZERS:-} in *address*) check_rss=0 ;; esac

# resources NAME [FDS]: once the clients are gone and the job deregistered,
# the host's descriptors must be back to where they were before the job
# was registered (or to FDS: the flood starts before the host has
# measured), and its RSS within the bound.
resources() {
    line=$(grep ": resources fds " "$work/$1.out")
    [ -n "$line" ] || { fail "$1: no resources line"; return; }
    want=${2:-}
    set -- "$1" $(echo "$line" | sed 's/.*fds \([0-9-]*\) -> \([0-9-]*\) rss_kib \([0-9-]*\) -> \([0-9-]*\) peak_kib \([0-9-]*\)/\1 \2 \3 \4 \5/')
    [ "${want:-$2}" = "$3" ] ||
        fail "$1: the server has $3 descriptors open after the job, ${want:-$2} before"
    [ -n "$want" ] || baseline_fds=$2
    if [ "$check_rss" = 1 ] && [ $(($5 - $4)) -gt "$SOAK_RSS_GROWTH_KIB" ]; then
        fail "$1: the server's RSS grew from $4 to $5 KiB (bound: +$SOAK_RSS_GROWTH_KIB KiB)"
    fi
}

# the server and every client need a descriptor per connection
ulimit -n 8192 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null

run_host soak-fences -n "$SOAK_FENCE_CLIENTS" --resources --timeout "$SOAK_TIMEOUT" -- \
    "$soak" fences "$SOAK_FENCES"
resources soak-fences

# Collecting fences of 64 KiB blobs under one key, no Get: the fence data
# a client maps (shared regions) and its RSS stay bounded.
SOAK_CHECK_RSS=$check_rss run_host soak-blobs -n 4 --timeout "$SOAK_TIMEOUT" -- \
    "$soak" blobs "$SOAK_BLOB_ROUNDS"

run_host soak-cycles -n "$SOAK_CYCLE_CLIENTS" --finalizes "$SOAK_CYCLES" --resources \
    --timeout "$SOAK_TIMEOUT" -- "$soak" cycles "$SOAK_CYCLES"
resources soak-cycles

run_host soak-procs -n "$SOAK_PROCS" --resources --timeout "$SOAK_TIMEOUT" -- "$soak" once
resources soak-procs

# The flood: bad_peer needs the server's socket, under the host's tmpdir.
d="$work/soak-flood"
mkdir -p "$d/tmp"
say "RUN soak-flood: $SOAK_FLOOD connections x $SOAK_FLOOD_ROUNDS while 8 clients fence"
PMIXX_TEST_WAIT_FILE="$d/go" timeout $((SOAK_TIMEOUT + 10)) "$host" -n 8 --resources \
    --tmpdir "$d/tmp" --timeout "$SOAK_TIMEOUT" -- "$soak" fences 20 > "$work/soak-flood.out" \
    2> "$work/soak-flood.err" &
pid=$!
timeout "$SOAK_TIMEOUT" "$clients/bad_peer" "$d/tmp" flood "$SOAK_FLOOD" "$SOAK_FLOOD_ROUNDS" \
    > "$d/flood.out" 2>&1
bp=$?
touch "$d/go"
wait $pid
rc=$?
cat "$d/flood.out" "$work/soak-flood.out"
[ $bp -eq 0 ] || fail "soak-flood: bad_peer flood (exit $bp)"
if [ $rc -ne 0 ] || ! grep -q -- "-> PASS" "$work/soak-flood.out"; then
    fail "soak-flood: host and clients under the flood (exit $rc)"
    sed 's/^/    | /' "$work/soak-flood.err" | tail -40
else
    resources soak-flood "${baseline_fds:-}"
fi
finish
