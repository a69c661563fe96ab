#!/bin/sh
# Tools (standard ch. 18) against the test host: PMIx_tool_init in every
# connection mode, DO_NOT_CONNECT then the data API and a later attach,
# the rendezvous files (names, modes, removal at finalize), a tool of
# another uid refused by the host, and a server without tool support.
. "$(dirname "$0")/common.sh"
ours_only "pmixx's tool library and rendezvous files"
tool="$clients/tool_connect"
peer="$clients/client_tool_peer"
host_name=$(hostname)

for mode in pid nspace uri urifile attach default named noconnect sysfirst; do
    run_host "tool-$mode" -n 2 --tool-support --report-uri "$work/uri-$mode" \
        --tool "$tool $mode" --timeout 60 -- "$peer"
done
run_host tool-system -n 1 --tool-support --system-support --report-uri "$work/uri-system" \
    --tool "$tool system" --timeout 60 -- "$peer"
# PMIX_TOOL_CONNECT_OPTIONAL forgives a missing server, not a wrong address.
timeout 60 "$tool" optional > "$work/optional.out" 2>&1 || {
    cat "$work/optional.out"; fail "tool-optional: an unreadable server URI was not refused"; }

# No tool_connected upcall: the library admits its own uid and names the tool.
run_host tool-no-upcall -n 1 --tool-support --tool-upcall none --report-uri "$work/uri-nu" \
    --tool "$tool pid" --timeout 60 -- "$peer"

# The rendezvous files while the server runs, and after it finalized.
files_check() {
    dir="$work/files.tmp"
    mkdir -p "$dir"
    go="$work/files.go"
    # (no timeout(1) wrapper: $! must be the server's pid; --timeout bounds the host)
    PMIXX_TEST_WAIT_FILE="$go" "$host" --tmpdir "$dir" -n 1 --tool-support \
        --system-support --report-uri "$work/uri-files" --timeout 60 -- "$clients/client_basic" \
        > "$work/files.out" 2> "$work/files.err" &
    hpid=$!
    for _ in $(seq 1 200); do [ -s "$work/uri-files" ] && break; sleep 0.1; done
    for f in "pmix.$host_name.tool.$hpid" "pmix.$host_name.tool" "pmix.sys.$host_name"; do
        [ -f "$dir/$f" ] || fail "rendezvous file $f missing"
    done
    nsfile=$(ls "$dir" | grep "^pmix\.$host_name\.tool\..*-srv0$")
    [ -n "$nsfile" ] || fail "no per-nspace rendezvous file"
    mode=$(stat -c %a "$dir/pmix.$host_name.tool.$hpid" 2>/dev/null)
    [ "$mode" = 600 ] || fail "pid file mode $mode, want 600"
    mode=$(stat -c %a "$dir/pmix.sys.$host_name" 2>/dev/null)
    [ "$mode" = 640 ] || fail "system file mode $mode, want 640"
    line1=$(head -n 1 "$dir/pmix.$host_name.tool.$hpid")
    case $line1 in *-srv0.0\;*) ;; *) fail "first line '$line1' is not <nspace>.<rank>;<uri>" ;; esac
    line3=$(sed -n 3p "$dir/pmix.$host_name.tool.$hpid")
    [ "$line3" = "$hpid" ] || fail "pid line '$line3', want $hpid"
    line4=$(sed -n 4p "$dir/pmix.$host_name.tool.$hpid")
    [ "$line4" = "$(id -u):$(id -g)" ] || fail "uid:gid line '$line4'"
    touch "$go"
    wait $hpid || fail "host with rendezvous files exited $?"
    left=$(ls "$dir" | grep "^pmix\." || true)
    [ -z "$left" ] || fail "rendezvous files left after finalize: $left"
}
files_check

# A second server with a live system server present is refused; a stale
# system file (dead pid) is reclaimed.
stale_check() {
    dir="$work/stale.tmp"
    mkdir -p "$dir"
    sh -c 'exit 0' & dead=$!
    wait $dead
    printf 'old.0;tcp4://127.0.0.1:1\n0.0.0\n%s\n0:0\nThu Jan  1 00:00:00 1970\n\n' "$dead" \
        > "$dir/pmix.sys.$host_name"
    run_host tool-stale -n 1 --tool-support --system-support --report-uri "$work/uri-stale" \
        --tool "$tool system" --timeout 60 -- "$peer"
}
stale_check

# Another uid: refused by the host's tool_connected (the test runs as root).
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    chmod 755 "$clients" 2>/dev/null
    refused() {
        for _ in $(seq 1 200); do [ -s "$work/uri-refused" ] && break; sleep 0.1; done
        uri=$(head -n 1 "$work/uri-refused")
        setpriv --reuid=65534 --regid=65534 --clear-groups "$tool" refused "$uri"
    }
    go="$work/refused.go"
    PMIXX_TEST_WAIT_FILE="$go" "$host" --tmpdir "$work/refused.tmp" -n 1 --tool-support \
        --report-uri "$work/uri-refused" --timeout 60 -- "$clients/client_basic" \
        > "$work/refused.out" 2> "$work/refused.err" &
    hpid=$!
    mkdir -p "$work/refused.tmp"
    refused > "$work/refused-tool.out" 2>&1 || fail "a tool of uid 65534 was not refused"
    touch "$go"
    wait $hpid || fail "host (refused tool) exited $?"
    grep -q "refused 1 ->" "$work/refused.out" || fail "the host's tool_connected did not refuse the tool"
else
    say "SKIP: another-uid refusal (needs root and setpriv)"
fi

# A server without tool support refuses tools; its clients are unaffected.
run_host tool-unsupported -n 2 --report-uri "$work/uri-unsup" --tool "$tool refused" \
    --timeout 60 -- "$clients/client_basic"
finish
