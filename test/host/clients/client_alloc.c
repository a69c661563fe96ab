/*
 * client_alloc [unsupported]: PMIx_Allocation_request(_nb),
 * PMIx_Process_monitor(_nb) and PMIx_Job_control against the test host,
 * whose allocate, monitor and job_control upcalls (host_module.c) echo
 * what they saw under "test.*" keys.
 * Checks that each request reaches the host with this process as the
 * requester and the real PMIX_USERID, that results and denials (with
 * their reasons) come back, and that PMIx_Heartbeat() reaches the monitor
 * upcall. With "unsupported" the host runs --without-upcalls
 * allocate,monitor: allocation fails with PMIX_ERR_NOT_SUPPORTED, monitoring
 * falls to the library (a file monitor without a mode is PMIX_ERR_BAD_PARAM).
 */
#include "test/host/clients/client_util.h"

#include <pthread.h>

static const pmix_info_t *Find(const pmix_info_t *info, size_t n, const char *key) {
    for (size_t i = 0; i < n; ++i)
        if (PMIX_CHECK_KEY(&info[i], key)) return &info[i];
    return NULL;
}

static uint32_t U32Of(const pmix_info_t *info, size_t n, const char *key) {
    const pmix_info_t *i = Find(info, n, key);
    CHECK(i && i->value.type == PMIX_UINT32, "result %s missing or not uint32", key);
    return i->value.data.uint32;
}

static const char *StringOf(const pmix_info_t *info, size_t n, const char *key) {
    const pmix_info_t *i = Find(info, n, key);
    CHECK(i && i->value.type == PMIX_STRING, "result %s missing or not a string", key);
    return i->value.data.string;
}

/* The host's echo: the request came from us, with our uid once. */
static void CheckEcho(const pmix_info_t *info, size_t n, const char *what) {
    const pmix_info_t *who = Find(info, n, "test.requester");
    CHECK(who && who->value.type == PMIX_PROC, "%s: no test.requester", what);
    CHECK(PMIX_CHECK_PROCID(who->value.data.proc, &client_me), "%s: requester %s:%u", what,
          who->value.data.proc->nspace, who->value.data.proc->rank);
    /* OpenPMIx 4.2.2 does not add the requester's PMIX_USERID (the standard
     * requires it): checked on pmixx only */
    if (OnOpenPmix()) return;
    CHECK(U32Of(info, n, "test.userid") == (uint32_t)getuid(), "%s: PMIX_USERID %u, want %u",
          what, U32Of(info, n, "test.userid"), (unsigned)getuid());
    CHECK(U32Of(info, n, "test.nuserid") == 1, "%s: %u PMIX_USERID entries", what,
          U32Of(info, n, "test.nuserid"));
}

/* One _nb callback's outcome, waited for with a bound. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;
    pmix_status_t status;
    char reason[128];
} NbResult;

static void NbDone(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                   pmix_release_cbfunc_t release_fn, void *release_cbdata) {
    NbResult *r = cbdata;
    pthread_mutex_lock(&r->lock);
    r->status = status;
    const pmix_info_t *reason = Find(info, ninfo, "test.reason");
    if (reason && reason->value.type == PMIX_STRING)
        snprintf(r->reason, sizeof r->reason, "%s", reason->value.data.string);
    r->done = 1;
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->lock);
    if (release_fn) release_fn(release_cbdata);
}

static void WaitNb(NbResult *r, const char *what) {
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 20;
    pthread_mutex_lock(&r->lock);
    while (!r->done)
        if (pthread_cond_timedwait(&r->cond, &r->lock, &deadline) != 0) break;
    int done = r->done;
    pthread_mutex_unlock(&r->lock);
    CHECK(done, "%s: callback did not come within 20 s", what);
}

static void Allocations(void) {
    uint64_t nodes = 1;
    uint32_t forged = (uint32_t)getuid() + 1000;
    pmix_info_t req[2];
    size_t nreq = 1;
    PMIX_INFO_LOAD(&req[0], PMIX_ALLOC_NUM_NODES, &nodes, PMIX_UINT64);
    /* pmixx drops a PMIX_USERID the requester supplies (OpenPMIx passes it on) */
    if (!OnOpenPmix()) PMIX_INFO_LOAD(&req[nreq++], PMIX_USERID, &forged, PMIX_UINT32);
    pmix_info_t *res = NULL;
    size_t nres = 0;
    CHECK_RC(PMIx_Allocation_request(PMIX_ALLOC_NEW, req, nreq, &res, &nres), PMIX_SUCCESS,
             "PMIx_Allocation_request(NEW)");
    CheckEcho(res, nres, "allocate");
    CHECK(U32Of(res, nres, "test.directive") == PMIX_ALLOC_NEW, "allocate: directive %u",
          U32Of(res, nres, "test.directive"));
    CHECK(strcmp(StringOf(res, nres, PMIX_ALLOC_ID), "test-alloc-1") == 0, "allocate: ALLOC_ID");
    PMIX_INFO_FREE(res, nres);
    for (size_t i = 0; i < nreq; ++i) PMIX_INFO_DESTRUCT(&req[i]);

    NbResult r = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, PMIX_SUCCESS, ""};
    CHECK_RC(PMIx_Allocation_request_nb(PMIX_ALLOC_REAQUIRE, NULL, 0, NbDone, &r), PMIX_SUCCESS,
             "PMIx_Allocation_request_nb(REAQUIRE)");
    WaitNb(&r, "allocate REAQUIRE");
    CHECK_RC(r.status, PMIX_ERR_NOT_AVAILABLE, "allocate REAQUIRE status");
    /* OpenPMIx 4.2.2 drops the host's infos of a failed request */
    CHECK(OnOpenPmix() || strcmp(r.reason, "nothing was lent") == 0,
          "allocate REAQUIRE reason '%s'", r.reason);
    Note("allocations ok");
}

static void Monitors(void) {
    pmix_info_t monitor, dir;
    uint32_t seconds = 5;
    PMIX_INFO_LOAD(&monitor, PMIX_MONITOR_HEARTBEAT, NULL, PMIX_POINTER);
    PMIX_INFO_LOAD(&dir, PMIX_MONITOR_HEARTBEAT_TIME, &seconds, PMIX_UINT32);
    pmix_info_t *res = NULL;
    size_t nres = 0;
    CHECK_RC(PMIx_Process_monitor(&monitor, PMIX_MONITOR_HEARTBEAT_ALERT, &dir, 1, &res, &nres),
             PMIX_SUCCESS, "PMIx_Process_monitor(HEARTBEAT)");
    /* OpenPMIx 4.2.2 keeps heartbeat monitors in its own sensor (no upcall) */
    if (!OnOpenPmix()) {
        CheckEcho(res, nres, "monitor");
        CHECK(strcmp(StringOf(res, nres, PMIX_MONITOR_ID), "test-monitor-1") == 0, "monitor: ID");
    }
    PMIX_INFO_FREE(res, nres);
    PMIX_INFO_DESTRUCT(&monitor);
    PMIX_INFO_DESTRUCT(&dir);
    /* OpenPMIx 4.2.2 answers file monitors itself too (PMIX_ERR_BAD_PARAM
     * without more directives): the upcall path is pmixx's */
    if (OnOpenPmix()) return;

    NbResult r = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, PMIX_SUCCESS, ""};
    PMIX_INFO_LOAD(&monitor, PMIX_MONITOR_FILE, "/nonexistent", PMIX_STRING);
    CHECK_RC(PMIx_Process_monitor_nb(&monitor, PMIX_MONITOR_FILE_ALERT, NULL, 0, NbDone, &r),
             PMIX_SUCCESS, "PMIx_Process_monitor_nb(FILE)");
    WaitNb(&r, "monitor FILE");
    /* the host declines (PMIX_ERR_NOT_SUPPORTED): the library takes it
     * over and, as OpenPMIx, wants to know what to watch the file for */
    CHECK_RC(r.status, PMIX_ERR_BAD_PARAM, "monitor FILE status");
    PMIX_INFO_DESTRUCT(&monitor);
    Note("monitors ok");
}

/* A PMIX_USERID the requester puts among the directives never reaches the
 * host: it gets the real one, once (checked on pmixx only, like above). */
static void JobControls(void) {
    if (OnOpenPmix()) return;
    uint32_t forged = (uint32_t)getuid() + 1000;
    pmix_info_t dirs[2];
    PMIX_INFO_LOAD(&dirs[0], PMIX_USERID, &forged, PMIX_UINT32);
    PMIX_INFO_LOAD(&dirs[1], "test.jobctl", "echo", PMIX_STRING);
    pmix_info_t *res = NULL;
    size_t nres = 0;
    CHECK_RC(PMIx_Job_control(&client_me, 1, dirs, 2, &res, &nres), PMIX_SUCCESS,
             "PMIx_Job_control");
    CheckEcho(res, nres, "job control");
    PMIX_INFO_FREE(res, nres);
    PMIX_INFO_DESTRUCT(&dirs[0]);
    PMIX_INFO_DESTRUCT(&dirs[1]);
    Note("job control ok");
}

/* OpenPMIx keeps heartbeats in its own sensor: they never reach the host. */
static void Heartbeats(void) {
    if (OnOpenPmix()) return;
    for (int i = 0; i < 3; ++i) PMIx_Heartbeat();
    pmix_info_t ask;
    bool yes = true;
    PMIX_INFO_LOAD(&ask, "test.hbcount", &yes, PMIX_BOOL);
    pmix_info_t *res = NULL;
    size_t nres = 0;
    /* same connection, in order: the heartbeats arrived before this */
    CHECK_RC(PMIx_Process_monitor(&ask, PMIX_SUCCESS, NULL, 0, &res, &nres), PMIX_SUCCESS,
             "PMIx_Process_monitor(test.hbcount)");
    CHECK(U32Of(res, nres, "test.hbcount") == 3, "host counted %u heartbeats, want 3",
          U32Of(res, nres, "test.hbcount"));
    PMIX_INFO_FREE(res, nres);
    PMIX_INFO_DESTRUCT(&ask);
    Note("heartbeats ok");
}

/* Argument checks of pmixx (OpenPMIx forwards or crashes on these). */
static void BadArguments(void) {
    if (OnOpenPmix()) return;
    CHECK_RC(PMIx_Allocation_request(0, NULL, 0, NULL, NULL), PMIX_ERR_BAD_PARAM,
             "PMIx_Allocation_request(directive 0)");
    CHECK_RC(PMIx_Allocation_request(PMIX_ALLOC_NEW, NULL, 1, NULL, NULL), PMIX_ERR_BAD_PARAM,
             "PMIx_Allocation_request(NULL, 1)");
    CHECK_RC(PMIx_Process_monitor(NULL, 0, NULL, 0, NULL, NULL), PMIX_ERR_BAD_PARAM,
             "PMIx_Process_monitor(NULL)");
}

/* (OpenPMIx 4.2.2 crashes on NULL result pointers here; pmixx allows them) */
static void Unsupported(void) {
    pmix_info_t *res = NULL;
    size_t nres = 0;
    CHECK_RC(PMIx_Allocation_request(PMIX_ALLOC_EXTEND, NULL, 0, &res, &nres),
             PMIX_ERR_NOT_SUPPORTED, "PMIx_Allocation_request without upcall");
    CHECK(res == NULL && nres == 0, "results after NOT_SUPPORTED");
    pmix_info_t monitor;
    PMIX_INFO_LOAD(&monitor, PMIX_MONITOR_FILE, "/nonexistent", PMIX_STRING);
    /* the library monitors files itself; without what to watch for it is a
     * bad request (OpenPMIx 4.2.2 says the same) */
    CHECK_RC(PMIx_Process_monitor(&monitor, 0, NULL, 0, &res, &nres), PMIX_ERR_BAD_PARAM,
             "PMIx_Process_monitor without upcall");
    PMIX_INFO_DESTRUCT(&monitor);
    PMIx_Heartbeat();  /* goes nowhere, harmlessly */
}

int main(int argc, char **argv) {
    ClientInit();
    if (argc > 1 && strcmp(argv[1], "unsupported") == 0) {
        Unsupported();
    } else {
        Allocations();
        Monitors();
        Heartbeats();
        JobControls();
        BadArguments();
    }
    ClientFinalize();
    return 0;
}
