/*
 * client_threads: the library used from several application threads at
 * once, for the TSan build (contrib/check.sh) and every other build.
 * Each rank puts and commits a key, then at the same time:
 *   - kGetters threads Get every rank's key (direct modex for the peers'),
 *     the job size and their own rank's key, over and over;
 *   - one thread runs kFences fences (alternately collecting data), putting
 *     and committing a new key before each;
 *   - one thread registers and deregisters an event handler over and over
 *     while another notifies the namespace of that event (every rank), so
 *     events arrive while handlers come and go.
 * Checks every Get's value, every fence's status, that the notifications
 * reached a handler registered for the whole time, and that the handlers
 * registered for a moment ran only while registered (the library never
 * calls a handler after its deregistration completed).
 */
#include "test/host/clients/client_util.h"

#include <pthread.h>

#define kCode (PMIX_EXTERNAL_ERR_BASE - 21)
#define kGetters 3
#define kGetRounds 40
#define kFences 20
#define kRegRounds 30
#define kNotifies 30

static uint32_t job_size;
/* Set by the fence thread when its fences are done: the churn threads stop. */
static int fences_done;
/* Events seen by the handler registered for the whole run. */
static int steady_events;
/* Events seen by the short-lived handlers, and by one after deregistration. */
static int churn_events;
static int late_events;

static void KeyOf(char *key, size_t size, pmix_rank_t rank) {
    snprintf(key, size, "test.threads.%u", (unsigned)rank);
}

static void *Getter(void *arg) {
    (void)arg;
    for (int round = 0; round < kGetRounds; ++round) {
        for (uint32_t r = 0; r < job_size; ++r) {
            char key[PMIX_MAX_KEYLEN + 1];
            KeyOf(key, sizeof key, r);
            pmix_value_t *v = GetTyped(r, key, PMIX_UINT32, NULL, 0);
            CHECK(v->data.uint32 == 1000 + r, "Get(%u, %s) = %u, want %u", (unsigned)r, key,
                  (unsigned)v->data.uint32, (unsigned)(1000 + r));
            PMIX_VALUE_RELEASE(v);
        }
        pmix_value_t *v = NULL;
        pmix_proc_t wild = ProcOf(PMIX_RANK_WILDCARD);
        CHECK_RC(PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v), PMIX_SUCCESS, "Get(PMIX_JOB_SIZE)");
        CHECK(v && v->type == PMIX_UINT32 && v->data.uint32 == job_size, "PMIX_JOB_SIZE changed");
        PMIX_VALUE_RELEASE(v);
    }
    return NULL;
}

static void PutCommit(const char *key, uint32_t value) {
    pmix_value_t v;
    PMIX_VALUE_LOAD(&v, &value, PMIX_UINT32);
    CHECK_RC(PMIx_Put(PMIX_GLOBAL, key, &v), PMIX_SUCCESS, "PMIx_Put");
    PMIX_VALUE_DESTRUCT(&v);
    CHECK_RC(PMIx_Commit(), PMIX_SUCCESS, "PMIx_Commit");
}

static void *Fencer(void *arg) {
    (void)arg;
    pmix_proc_t all = ProcOf(PMIX_RANK_WILDCARD);
    for (int i = 0; i < kFences; ++i) {
        char key[PMIX_MAX_KEYLEN + 1];
        snprintf(key, sizeof key, "test.threads.f%d", i);
        PutCommit(key, (uint32_t)i);
        pmix_info_t info;
        bool collect = (i % 2) == 0;
        PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
        CHECK_RC(PMIx_Fence(&all, 1, &info, 1), PMIX_SUCCESS, "PMIx_Fence (fence thread)");
        PMIX_INFO_DESTRUCT(&info);
        /* What the fence brought: a peer's key of this round. */
        pmix_rank_t peer = (client_me.rank + 1) % job_size;
        pmix_value_t *v = GetTyped(peer, key, PMIX_UINT32, NULL, 0);
        CHECK(v->data.uint32 == (uint32_t)i, "Get(%u, %s) after the fence", (unsigned)peer, key);
        PMIX_VALUE_RELEASE(v);
    }
    FLAG_SET(fences_done, 1);
    return NULL;
}

static void SteadyHandler(size_t id, pmix_status_t status, const pmix_proc_t *source,
                          pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                          pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata) {
    (void)id, (void)source, (void)info, (void)ninfo, (void)results, (void)nresults;
    if (status == kCode) FLAG_INC(steady_events);
    if (cbfunc) cbfunc(PMIX_EVENT_NO_ACTION_TAKEN, NULL, 0, NULL, NULL, cbdata);
}

/* The index of the churn registration whose handler may run: -1 none. */
static int churn_current = -1;

static void ChurnHandler(size_t id, pmix_status_t status, const pmix_proc_t *source,
                         pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                         pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata) {
    int cur = FLAG_GET(churn_current);
    (void)id, (void)source, (void)info, (void)ninfo, (void)results, (void)nresults;
    if (cur < 0) FLAG_INC(late_events); /* ran although no churn handler is registered */
    if (status == kCode) FLAG_INC(churn_events);
    if (cbfunc) cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

typedef struct {
    int done;
    pmix_status_t status;
    size_t ref;
} RegWait;

static void Registered(pmix_status_t status, size_t ref, void *cbdata) {
    RegWait *w = cbdata;
    w->status = status;
    w->ref = ref;
    FLAG_SET(w->done, 1);
}

static void OpDone(pmix_status_t status, void *cbdata) {
    RegWait *w = cbdata;
    w->status = status;
    FLAG_SET(w->done, 1);
}

static void WaitDone(RegWait *w, const char *what) {
    const struct timespec tick = {0, 1000000L};
    double t0 = NowSec();
    while (!FLAG_GET(w->done) && NowSec() - t0 < 60.0) nanosleep(&tick, NULL);
    CHECK(FLAG_GET(w->done), "%s: no callback within 60 s", what);
    CHECK_RC(w->status, PMIX_SUCCESS, what);
}

static size_t Register(pmix_notification_fn_t fn, const char *name) {
    pmix_status_t code = kCode;
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_EVENT_HDLR_NAME, name, PMIX_STRING);
    RegWait w = {0};
    pmix_status_t rc = PMIx_Register_event_handler(&code, 1, &info, 1, fn, Registered, &w);
    PMIX_INFO_DESTRUCT(&info);
    CHECK_RC(rc, PMIX_SUCCESS, "PMIx_Register_event_handler");
    WaitDone(&w, "event handler registration");
    return w.ref;
}

static void Deregister(size_t ref) {
    RegWait w = {0};
    pmix_status_t rc = PMIx_Deregister_event_handler(ref, OpDone, &w);
    if (rc == PMIX_OPERATION_SUCCEEDED) return;
    CHECK_RC(rc, PMIX_SUCCESS, "PMIx_Deregister_event_handler");
    WaitDone(&w, "event handler deregistration");
}

static void *Registrar(void *arg) {
    (void)arg;
    for (int i = 0; i < kRegRounds; ++i) {
        FLAG_SET(churn_current, i);
        size_t ref = Register(ChurnHandler, "test.threads.churn");
        const struct timespec pause_ = {0, 2000000L};
        nanosleep(&pause_, NULL);
        Deregister(ref);
        /* Deregistration done: the handler must not run any more. */
        FLAG_SET(churn_current, -1);
    }
    return NULL;
}

static void *Notifier(void *arg) {
    (void)arg;
    for (int i = 0; i < kNotifies; ++i) {
        RegWait w = {0};
        pmix_status_t rc =
            PMIx_Notify_event(kCode, &client_me, PMIX_RANGE_NAMESPACE, NULL, 0, OpDone, &w);
        if (rc == PMIX_OPERATION_SUCCEEDED) continue;
        CHECK_RC(rc, PMIX_SUCCESS, "PMIx_Notify_event");
        WaitDone(&w, "PMIx_Notify_event");
    }
    return NULL;
}

int main(void) {
    ClientInit();
    job_size = GetU32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    char key[PMIX_MAX_KEYLEN + 1];
    KeyOf(key, sizeof key, client_me.rank);
    PutCommit(key, 1000 + client_me.rank);
    size_t steady = Register(SteadyHandler, "test.threads.steady");
    /* Every rank's steady handler is in place before anyone notifies. */
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "first PMIx_Fence");

    pthread_t getters[kGetters], fencer, registrar, notifier;
    for (int i = 0; i < kGetters; ++i)
        CHECK(pthread_create(&getters[i], NULL, Getter, NULL) == 0, "pthread_create");
    CHECK(pthread_create(&fencer, NULL, Fencer, NULL) == 0, "pthread_create");
    CHECK(pthread_create(&registrar, NULL, Registrar, NULL) == 0, "pthread_create");
    CHECK(pthread_create(&notifier, NULL, Notifier, NULL) == 0, "pthread_create");
    for (int i = 0; i < kGetters; ++i) pthread_join(getters[i], NULL);
    pthread_join(fencer, NULL);
    pthread_join(registrar, NULL);
    pthread_join(notifier, NULL);
    CHECK(FLAG_GET(fences_done), "the fence thread did not finish");

    /* Every rank's notifications were sent: after this fence and a short
     * wait they have all arrived (each rank sends kNotifies). */
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "last PMIx_Fence");
    const struct timespec tick = {0, 10000000L};
    int want = (int)(kNotifies * job_size);
    double t0 = NowSec();
    while (FLAG_GET(steady_events) < want && NowSec() - t0 < 30.0) nanosleep(&tick, NULL);
    Note("steady handler: %d events, churn handlers: %d, late: %d", FLAG_GET(steady_events),
         FLAG_GET(churn_events), FLAG_GET(late_events));
    CHECK(FLAG_GET(steady_events) == want, "the steady handler saw %d events, want %d",
          FLAG_GET(steady_events), want);
    CHECK(FLAG_GET(late_events) == 0, "a handler ran %d times after its deregistration completed",
          FLAG_GET(late_events));
    Deregister(steady);
    ClientFinalize();
    return 0;
}
