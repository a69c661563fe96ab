/*
 * client_lost_server DIR MODE IMAGE: each rank first completes a fence
 * (so that it holds a doorbell page), creates DIR/<rank>.waiting, then
 * blocks until the server dies: MODE get -- in a PMIx_Get the server can
 * only hold (a key rank 0 never puts, PMIX_TIMEOUT 60 s); fence -- in a
 * fence the last rank never joins (that one waits idle); idle -- waiting
 * for the PMIX_ERR_LOST_CONNECTION event. The test kills the host; the
 * call must fail / the event must come. Then the client calls
 * PMIx_Finalize, after which it must hold no memory file of the library:
 * no mapping and no descriptor of a gds/shmem region (the job image) or a
 * doorbell page, whose memory only goes with the last of them. Before
 * blocking it checks that it holds what IMAGE says: shared -- the job
 * image mapped from the server's memfd and a doorbell page; inline -- the
 * image as bytes (a PMIX_MCA_gds=hash server: no image memfd), a doorbell
 * page still; no-fds -- the client itself chose PMIX_MCA_gds=hash, so the
 * server passes it no descriptor at all: neither. The memory-file checks
 * are pmixx's (OpenPMIx names its memory otherwise).
 * The client writes DIR/<rank>.ok (status, how long it blocked, which
 * event a default handler saw) when all that held, DIR/<rank>.fail (why)
 * when not, DIR/<rank>.hang when it was still blocked after 20 s.
 */
#include "test/host/clients/client_util.h"

static const char *dir;
static int lost_event;
static pmix_status_t last_event = PMIX_SUCCESS;

static void WriteResult(const char *suffix, const char *text) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%u.%s", dir, client_me.rank, suffix);
    FILE *f = fopen(path, "w");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static void OnAlarm(int sig) {
    (void)sig;
    char path[4096];
    snprintf(path, sizeof path, "%s/%u.hang", dir, client_me.rank);
    int fd = open(path, O_CREAT | O_WRONLY, 0600);
    if (fd >= 0) close(fd);
    _exit(3);
}

static void LostHandler(size_t id, pmix_status_t status, const pmix_proc_t *source,
                        pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                        pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata) {
    (void)id, (void)source, (void)info, (void)ninfo, (void)results, (void)nresults;
    FLAG_SET(last_event, status);
    if (status == PMIX_ERR_LOST_CONNECTION || status == PMIX_ERR_UNREACH) FLAG_SET(lost_event, 1);
    if (cbfunc) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

/* Blocks until the server is gone; returns the status it ended with. */
static pmix_status_t Block(const char *mode, pmix_rank_t nprocs) {
    if (strcmp(mode, "get") == 0) {
        /* a key rank 0 never puts; OpenPMIx gives up on such a Get after
         * 2 s unless told otherwise */
        pmix_proc_t peer;
        PMIX_LOAD_PROCID(&peer, client_me.nspace, 0);
        pmix_info_t info;
        int sec = 60;
        PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &sec, PMIX_INT);
        pmix_value_t *val = NULL;
        return PMIx_Get(&peer, "lost.never.put", &info, 1, &val);
    }
    if (strcmp(mode, "fence") == 0 && client_me.rank + 1 < nprocs) {
        /* the last rank never joins */
        pmix_proc_t all;
        PMIX_LOAD_PROCID(&all, client_me.nspace, PMIX_RANK_WILDCARD);
        return PMIx_Fence(&all, 1, NULL, 0);
    }
    /* idle: only the event can tell */
    const struct timespec tick = {0, 10000000L};
    while (!FLAG_GET(lost_event)) nanosleep(&tick, NULL);
    return PMIX_ERR_LOST_CONNECTION;
}

/* The library's memory files this process maps or holds, as text ("" when
 * none): what must be gone after PMIx_Finalize. */
static void HeldMemfds(char *out, size_t len) {
    int region_maps = MemfdMapsNamed(PMIXX_MEMFD_REGION);
    int region_fds = MemfdFdsNamed(PMIXX_MEMFD_REGION);
    int bell_maps = MemfdMapsNamed(PMIXX_MEMFD_DOORBELL);
    int bell_fds = MemfdFdsNamed(PMIXX_MEMFD_DOORBELL);
    out[0] = '\0';
    if (region_maps + region_fds + bell_maps + bell_fds > 0)
        snprintf(out, len, "%d mappings and %d descriptors of %s, %d and %d of %s", region_maps,
                 region_fds, PMIXX_MEMFD_REGION, bell_maps, bell_fds, PMIXX_MEMFD_DOORBELL);
}

/* Before blocking: the memory files whose release the test checks are
 * there, as `image` says (else that check could not fail). Why not, or
 * NULL. */
static const char *NotHeld(const char *image, char *why, size_t len) {
    int want_region = strcmp(image, "shared") == 0;
    int want_bell = strcmp(image, "no-fds") != 0;
    int region_maps = MemfdMapsNamed(PMIXX_MEMFD_REGION);
    int bell_maps = MemfdMapsNamed(PMIXX_MEMFD_DOORBELL);
    Note("before the loss (%s): %d image and %d doorbell mappings", image, region_maps, bell_maps);
    if (want_region ? region_maps < 1 : region_maps != 0) {
        snprintf(why, len, "%d mappings of the job image's memfd (%s), want %s", region_maps,
                 PMIXX_MEMFD_REGION, want_region ? ">= 1" : "0");
        return why;
    }
    if (want_bell ? bell_maps < 1 : bell_maps != 0) {
        snprintf(why, len, "%d doorbell pages (%s) mapped after a fence, want %s", bell_maps,
                 PMIXX_MEMFD_DOORBELL, want_bell ? ">= 1" : "0");
        return why;
    }
    return NULL;
}

int main(int argc, char **argv) {
    CHECK(argc == 4 && (strcmp(argv[3], "shared") == 0 || strcmp(argv[3], "inline") == 0 ||
                        strcmp(argv[3], "no-fds") == 0),
          "usage: client_lost_server DIR get|fence|idle shared|inline|no-fds");
    dir = argv[1];
    int ours = !OnOpenPmix();
    ClientInit();
    signal(SIGALRM, OnAlarm);
    /* A default handler (all codes): which event arrives is reported. */
    pmix_status_t rc = PMIx_Register_event_handler(NULL, 0, NULL, 0, LostHandler, NULL, NULL);
    CHECK(rc >= 0, "PMIx_Register_event_handler (blocking): %s", PMIx_Error_string(rc));
    pmix_rank_t nprocs = GetU32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "the first Fence");
    char why[256];
    if (ours && NotHeld(argv[3], why, sizeof why) != NULL) {
        WriteResult("fail", why);
        Fail("%s", why);
    }
    WriteResult("waiting", "");
    alarm(20);
    double t0 = NowSec();
    rc = Block(argv[2], nprocs);
    double took = NowSec() - t0;
    const struct timespec tick = {0, 10000000L};
    for (int i = 0; i < 100 && !FLAG_GET(lost_event); ++i) nanosleep(&tick, NULL); /* let the event land */
    pmix_status_t fin = PMIx_Finalize(NULL, 0);
    alarm(0);
    char held[256] = "";
    if (ours) HeldMemfds(held, sizeof held);
    char text[600];
    pmix_status_t event = FLAG_GET(last_event);
    snprintf(text, sizeof text, "%s: %s (%d) after %.2f s; event %s; PMIx_Finalize %s%s%s\n",
             argv[2], PMIx_Error_string(rc), rc, took,
             event == PMIX_SUCCESS ? "none" : PMIx_Error_string(event), PMIx_Error_string(fin),
             held[0] ? "; still held after it: " : "", held);
    int ok = rc != PMIX_SUCCESS && held[0] == '\0' && (fin == PMIX_SUCCESS || !ours);
    WriteResult(ok ? "ok" : "fail", text);
    Note("%s", text);
    return ok ? 0 : 1;
}
