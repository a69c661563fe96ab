/*
 * client_lost_server DIR MODE: each rank creates DIR/<rank>.waiting, then
 * blocks until the server dies: MODE get -- in a PMIx_Get the server can
 * only hold (a key rank 0 never puts, PMIX_TIMEOUT 60 s); fence -- in a
 * fence the last rank never joins (that one waits idle); idle -- waiting
 * for the PMIX_ERR_LOST_CONNECTION event. The test kills the host; the
 * call must fail / the event must come. The client writes DIR/<rank>.ok
 * (status, how long it blocked, which event a default handler saw) when
 * it did, DIR/<rank>.hang when it was still blocked after 20 s.
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

int main(int argc, char **argv) {
    CHECK(argc == 3, "usage: client_lost_server DIR get|fence|idle");
    dir = argv[1];
    ClientInit();
    signal(SIGALRM, OnAlarm);
    /* A default handler (all codes): which event arrives is reported. */
    pmix_status_t rc = PMIx_Register_event_handler(NULL, 0, NULL, 0, LostHandler, NULL, NULL);
    CHECK(rc >= 0, "PMIx_Register_event_handler (blocking): %s", PMIx_Error_string(rc));
    pmix_rank_t nprocs = GetU32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    WriteResult("waiting", "");
    alarm(20);
    double t0 = NowSec();
    rc = Block(argv[2], nprocs);
    double took = NowSec() - t0;
    const struct timespec tick = {0, 10000000L};
    for (int i = 0; i < 100 && !FLAG_GET(lost_event); ++i) nanosleep(&tick, NULL); /* let the event land */
    alarm(0);
    char text[160];
    snprintf(text, sizeof text, "%s: %s (%d) after %.2f s; event %s\n", argv[2],
             PMIx_Error_string(rc), rc, took,
             FLAG_GET(last_event) == PMIX_SUCCESS ? "none" : PMIx_Error_string(FLAG_GET(last_event)));
    WriteResult(rc == PMIX_SUCCESS ? "fail" : "ok", text);
    Note("%s", text);
    _exit(rc == PMIX_SUCCESS ? 1 : 0); /* no PMIx_Finalize: the server is gone */
}
