#!/bin/sh
# The job-data image in the welcome (src/wire/job_image.h): local clients
# on the Unix socket map the server's sealed memfd (one mapping, no
# descriptor kept, no name in /dev/shm or the tmpdir), clients of a
# PMIX_MCA_gds=hash server, on TCP, or that chose PMIX_MCA_gds=hash
# themselves (in their own environment only: a shmem server) get the bytes
# inline; all four answer
# every key of every realm the same (dumps compared: session, job, app,
# node, every rank's, derived keys), also for a second node's ranks; the
# dumps hold the host's session and PMIX_PROC_DATA keys; another
# namespace's image comes in a get reply; a new generation after the
# clients connected reaches them (all four ways), whether it comes from
# register_resources or from the host registering the namespace again;
# and a namespace registered only after they connected (and asked for it)
# can be read by them.
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
# Every rank (this node's 0-3 and the peer host's 4-5) dumped every realm
# (client_image.c: test/common/jobinfo_dump.h); the four must be the same
# but for the server's URI (a new port per run; the namespace is masked).
for mode in hash tcp clienthash; do
    if ! sh "$top_srcdir/test/tools/jobdata_diff.sh" "$work/shared" "$work/$mode" 6 pmix.srvr.uri \
        >"$work/diff.$mode" 2>&1; then
        fail "shmem and $mode answer differently"
        sed 's/^/    | /' "$work/diff.$mode" | head -60
    fi
done
# ... and the dumps hold what the host registered: its session (id 7, its
# own key, by the session and by its id) and every rank's PMIX_PROC_DATA,
# the peer host's ranks' too, as well as what derives from it.
for r in 0 4; do
    f=$work/shared/$r
    [ -s "$f" ] || continue
    for want in "session pmix.session.id: .*Value: 7$" "session test.session.str: .*Value: session-level-string$" \
        "session 7 pmix.univ.size: .*Value: 6$" "session 7 pmix.alist: .*Value: .*,.*" \
        "job pmix.session.id: .*Value: 7$" "job test.job.str: .*Value: job-level-string$" \
        "rank 1 test.proc.str: .*Value: rank-1-on-node-0$" "rank 5 test.proc.str: .*Value: rank-5-on-node-1$" \
        "rank 5 test.proc.u32: .*Value: 1005$" "rank 4 pmix.reinc: .*Value: 0$" \
        "rank 5 =pmix.lrank: .*Value: 1$" "rank 5 =pmix.nodeid: .*Value: 1$" \
        "node 1 =pmix.lpeers: .*Value: 4,5$" "app 0 =pmix.app.size: .*Value: 6$"; do
        grep -q "^$want" "$f" || fail "rank $r's dump lacks '$want'"
    done
done
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
