#!/bin/sh
# A hostile local peer (bad_peer: garbage, oversize header, bad magic, half
# a frame, half a header, a burst of empty connections) hits the server's
# Unix socket while 4 clients wait after PMIx_Init; the server must drop
# the bad connections and the clients must still complete client_modex.
# The frames are pmixx's own: not run on OpenPMIx.
. "$(dirname "$0")/common.sh"
ours_only "bad_peer"
d="$work/bad-peer"
mkdir -p "$d/tmp"
say "RUN bad-peer: pmix_test_host -n 4 --tmpdir $d/tmp -- client_modex, bad_peer in parallel"
PMIXX_TEST_WAIT_FILE="$d/go" timeout 90 "$host" -n 4 --tmpdir "$d/tmp" --timeout 60 -- \
    "$clients/client_modex" > "$d/host.out" 2> "$d/host.err" &
pid=$!
timeout 60 "$clients/bad_peer" "$d/tmp"
bp=$?
touch "$d/go"
wait $pid
rc=$?
cat "$d/host.out"
[ $bp -eq 0 ] || fail "bad_peer (exit $bp)"
if [ $rc -ne 0 ] || ! grep -q -- "-> PASS" "$d/host.out"; then
    fail "host and clients after the bad peer (exit $rc)"
    sed 's/^/    | /' "$d/host.err" | tail -40
fi
finish
