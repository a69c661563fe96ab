#!/bin/sh
# The server dies under blocked clients (idle ones, ones in a fence that
# cannot complete, ones in a Get the server holds); the test SIGKILLs the
# host. Every blocked call must fail and idle clients must get the
# PMIX_ERR_LOST_CONNECTION event, instead of hanging (each client reports
# which event its default handler saw). The job data the dead server shared
# (gds/shmem: sealed memfds, which have no name) leaves nothing behind: no
# regular file in its tmpdir, nothing in /dev/shm naming the job.
. "$(dirname "$0")/common.sh"

# wait_files DIR PATTERN COUNT SECONDS
wait_files() {
    i=0
    while [ "$(ls "$1" 2>/dev/null | grep -c -- "$2")" -lt "$3" ] && [ $i -lt $(($4 * 10)) ]; do
        sleep 0.1
        i=$((i + 1))
    done
    [ "$(ls "$1" | grep -c -- "$2")" -ge "$3" ]
}

lost_server() {
    name=$1 n=$2 mode=$3
    shift 3
    d="$work/$name"
    mkdir -p "$d/out" "$d/tmp"
    say "RUN $name: pmix_test_host -n $n $* -- client_lost_server $mode, then SIGKILL the host"
    ns="pmixx-lost-$$-$name"
    "$host" -n "$n" --nspace "$ns" --tmpdir "$d/tmp" --timeout 40 "$@" -- \
        "$clients/client_lost_server" "$d/out" "$mode" > "$d/host.out" 2> "$d/host.err" &
    pid=$!   # the host itself (its own alarm bounds it), so the kill hits the server
    if ! wait_files "$d/out" '\.waiting$' "$n" 20; then
        fail "$name: clients did not all reach the blocking Get"
        kill -9 $pid 2>/dev/null
        wait $pid 2>/dev/null
        sed 's/^/    | /' "$d/host.err" | tail -20
        return
    fi
    sleep 0.3   # let the Gets arrive at the server
    kill -9 $pid
    wait $pid 2>/dev/null
    wait_files "$d/out" '\.\(ok\|fail\|hang\)$' "$n" 30 || fail "$name: clients still running 30 s after the host died"
    for f in "$d"/out/*.ok; do [ -f "$f" ] && say "  rank $(basename "$f" .ok): $(cat "$f")"; done
    for f in "$d"/out/*.fail "$d"/out/*.hang; do
        [ -f "$f" ] && fail "$name: rank $(basename "$f"): ${f##*.} $(cat "$f")"
    done
    left=$(find "$d/tmp" -type f 2>/dev/null)
    [ -z "$left" ] || fail "$name: files left in the dead server's tmpdir: $left"
    left=$(ls /dev/shm 2>/dev/null | grep -F -- "$ns")
    [ -z "$left" ] || fail "$name: /dev/shm entries of the job left: $left"
}

lost_server lost-server-idle-n2 2 idle
lost_server lost-server-fence-n4 4 fence
lost_server lost-server-get-n4 4 get
finish
