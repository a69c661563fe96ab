#!/bin/sh
# The server dies under blocked clients (idle ones, ones in a fence that
# cannot complete, ones in a Get the server holds); the test SIGKILLs the
# host. Every blocked call must fail and idle clients must get the
# PMIX_ERR_LOST_CONNECTION event, instead of hanging (each client reports
# which event its default handler saw). The job data the dead server shared
# (gds/shmem: sealed memfds, which have no name) leaves nothing behind: no
# regular file in its tmpdir, nothing in /dev/shm naming the job, and in
# each client, once PMIx_Finalize returned, no mapping or descriptor of a
# memory file of the library (its job image, its doorbell page), which
# the client checked it did map before (client_lost_server.c). With
# PMIX_MCA_gds=hash the image comes inline: no image memfd at all; from a
# hash server a doorbell page still, and it must go too; to a client that
# chose hash itself, no descriptor at all.
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

# lost_server NAME N MODE GDS [host options]: GDS shmem (the default),
# client-hash (PMIX_MCA_gds=hash for the clients only) or hash (for the
# host, whose clients inherit it).
lost_server() {
    name=$1 n=$2 mode=$3 gds=$4
    shift 4
    d="$work/$name"
    mkdir -p "$d/out" "$d/tmp"
    say "RUN $name: pmix_test_host -n $n $* -- client_lost_server $mode ($gds); SIGKILL the host"
    ns="pmixx-lost-$$-$name"
    image=inline host_env= client_env=
    case $gds in
    shmem) image=shared ;;
    client-hash) client_env=PMIX_MCA_gds=hash image=no-fds ;;
    hash) host_env=PMIX_MCA_gds=hash ;;
    esac
    # env execs the host: $! is still the server's pid
    env $host_env "$host" -n "$n" --nspace "$ns" --tmpdir "$d/tmp" --timeout 40 "$@" -- \
        env $client_env "$clients/client_lost_server" "$d/out" "$mode" "$image" \
        > "$d/host.out" 2> "$d/host.err" &
    pid=$!   # the host itself (its own alarm bounds it), so the kill hits the server
    # a client that found nothing to check fails before it blocks
    if ! wait_files "$d/out" '\.\(waiting\|fail\)$' "$n" 20; then
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

lost_server lost-server-idle-n2 2 idle shmem
lost_server lost-server-fence-n4 4 fence shmem
lost_server lost-server-get-n4 4 get shmem
lost_server lost-server-fence-client-hash-n2 2 fence client-hash
lost_server lost-server-get-hash-n2 2 get hash
finish
