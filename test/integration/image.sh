#!/bin/sh
# The job-data image in the welcome (src/wire/job_image.h): local clients
# on the Unix socket map the server's sealed memfd (one mapping, no
# descriptor kept, no name in /dev/shm or the tmpdir), clients of a
# PMIX_MCA_gds=hash server, on TCP, or that chose PMIX_MCA_gds=hash
# themselves (in their own environment only: a shmem server) get the bytes
# inline; all four answer
# every job-level and derived key the same (dumps compared), also for a
# second node's ranks; another namespace's image comes in a get reply;
# a new generation after the clients connected reaches them (all four
# ways), whether it comes from register_resources or from the host
# registering the namespace again; and a namespace registered only after
# they connected (and asked for it) can be read by them.
. "$(dirname "$0")/common.sh"
ours_only "gds/shmem and the image transfer are pmixx's"
mkdir -p "$work/shared" "$work/hash" "$work/tcp" "$work/clienthash"
PMIXX_IMAGE_FOREIGN=1 PMIXX_IMAGE_DUMP="$work/shared" \
    run_host image-shared -n 4 --remote-procs 2 --extra-nspace --timeout 60 -- \
    "$clients/client_image" shared
PMIX_MCA_gds=hash PMIXX_IMAGE_FOREIGN=1 PMIXX_IMAGE_DUMP="$work/hash" \
    run_host image-hash -n 4 --remote-procs 2 --extra-nspace --timeout 60 -- \
    "$clients/client_image" inline
PMIXX_IMAGE_FOREIGN=1 PMIXX_IMAGE_DUMP="$work/tcp" \
    run_host image-tcp -n 4 --tcp --remote-procs 2 --extra-nspace --timeout 60 -- \
    "$clients/client_image" inline
PMIXX_IMAGE_FOREIGN=1 PMIXX_IMAGE_DUMP="$work/clienthash" \
    run_host image-client-hash -n 4 --remote-procs 2 --extra-nspace --timeout 60 -- \
    env PMIX_MCA_gds=hash "$clients/client_image" inline
for r in 0 1 2 3; do
    [ -s "$work/shared/$r" ] || { fail "rank $r wrote no dump"; continue; }
    # the job id is the namespace, unique per run
    grep -v "pmix.jobid" "$work/shared/$r" > "$work/shared.$r"
    for mode in hash tcp clienthash; do
        grep -v "pmix.jobid" "$work/$mode/$r" > "$work/$mode.$r"
        if ! diff "$work/shared.$r" "$work/$mode.$r" > "$work/diff.$mode.$r" 2>&1; then
            fail "rank $r: shmem and $mode answer differently"
            sed 's/^/    | /' "$work/diff.$mode.$r" | head -20
        fi
    done
done
grep -q "pmix.hname: " "$work/shared/0" || fail "no hostname in the dump"
# Updates: register_resources after the clients connected reaches them as
# a new image (descriptor, inline over TCP and from a hash server).
PMIXX_IMAGE_UPDATE=1 run_host image-update -n 4 --update-job --timeout 60 -- \
    "$clients/client_image" shared
PMIXX_IMAGE_UPDATE=1 run_host image-update-tcp -n 2 --tcp --update-job --timeout 60 -- \
    "$clients/client_image" inline
PMIX_MCA_gds=hash PMIXX_IMAGE_UPDATE=1 run_host image-update-hash -n 2 --update-job \
    --timeout 60 -- "$clients/client_image" inline
PMIXX_IMAGE_UPDATE=1 run_host image-update-client-hash -n 2 --update-job --timeout 60 -- \
    env PMIX_MCA_gds=hash "$clients/client_image" inline
# The host registers the job again, two values changed, once the clients
# connected: they see the new values without asking. Then it registers a
# new namespace, once each of them asked for its data in vain: now they
# read it (its image in a get reply).
late="late-$$"
export PMIXX_IMAGE_REREGISTER=1 PMIXX_IMAGE_LATE="$late"
run_host image-reregister -n 4 --reregister-job --late-nspace "$late" --timeout 60 -- \
    "$clients/client_image" shared
run_host image-reregister-tcp -n 2 --tcp --reregister-job --late-nspace "$late" --timeout 60 -- \
    "$clients/client_image" inline
PMIX_MCA_gds=hash run_host image-reregister-hash -n 2 --reregister-job --late-nspace "$late" \
    --timeout 60 -- "$clients/client_image" inline
run_host image-reregister-client-hash -n 2 --reregister-job --late-nspace "$late" --timeout 60 -- \
    env PMIX_MCA_gds=hash "$clients/client_image" inline
unset PMIXX_IMAGE_REREGISTER PMIXX_IMAGE_LATE
finish
