/*
 * pmix_bench host module: client_connected, client_finalized, fence_nb.
 * See bench_host_module.h for the threading contract.
 */
#define _XOPEN_SOURCE 700

#include "bench_host_module.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- one-shot waiter ------------------------------------------------- */

struct BenchWaiter {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int done;
    int abandoned;  /* the waiter gave up: the callback frees */
    pmix_status_t status;
};

BenchWaiter *BenchWaiterNew(void)
{
    BenchWaiter *w = calloc(1, sizeof(*w));
    if (NULL != w) {
        pthread_mutex_init(&w->mu, NULL);
        pthread_cond_init(&w->cv, NULL);
        w->status = PMIX_ERROR;
    }
    return w;
}

static void WaiterFree(BenchWaiter *w)
{
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w);
}

void BenchWaiterOpCb(pmix_status_t status, void *cbdata)
{
    BenchWaiter *w = (BenchWaiter *)cbdata;
    int abandoned;
    pthread_mutex_lock(&w->mu);
    w->status = status;
    w->done = 1;
    abandoned = w->abandoned;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    if (abandoned) {
        WaiterFree(w);
    }
}

double BenchRealNow(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Waits until done or deadline; frees w unless the callback is still due. */
static pmix_status_t WaitAndRelease(BenchWaiter *w, double deadline)
{
    struct timespec ts;
    pmix_status_t status;
    int done;
    double whole = floor(deadline);
    ts.tv_sec = (time_t)whole;
    ts.tv_nsec = (long)((deadline - whole) * 1e9);
    pthread_mutex_lock(&w->mu);
    while (!w->done) {
        if (ETIMEDOUT == pthread_cond_timedwait(&w->cv, &w->mu, &ts)) {
            break;
        }
    }
    done = w->done;
    status = done ? w->status : PMIX_ERR_TIMEOUT;
    w->abandoned = !done;
    pthread_mutex_unlock(&w->mu);
    if (done) {
        WaiterFree(w);
    }
    return status;
}

pmix_status_t BenchWaiterFinish(BenchWaiter *w, pmix_status_t rc, double deadline)
{
    if (NULL == w) {
        return PMIX_ERR_NOMEM; /* the API was not called */
    }
    if (PMIX_SUCCESS == rc) {
        return WaitAndRelease(w, deadline);
    }
    WaiterFree(w); /* the callback will not run */
    return PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc;
}

/* ---- deferred thread: runs upcall answers after the upcall returned --- */

typedef struct Deferred {
    struct Deferred *next;
    pmix_op_cbfunc_t op_cb;        /* set for connected/finalized */
    pmix_modex_cbfunc_t modex_cb;  /* set for fence_nb */
    void *cbdata;
    char *data;  /* fence data, owned here until the release callback */
    size_t ndata;
} Deferred;

static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    Deferred *head;
    Deferred *tail;
    int stop;
    pthread_t thread;
    BenchModuleStats stats;
} g_module = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, NULL, 0, 0, {0, 0, 0}};

static void ReleaseFenceData(void *cbdata)
{
    free(cbdata);
}

static void RunDeferred(Deferred *d)
{
    if (NULL != d->modex_cb) {
        d->modex_cb(PMIX_SUCCESS, d->data, d->ndata, d->cbdata, ReleaseFenceData, d->data);
    } else if (NULL != d->op_cb) {
        d->op_cb(PMIX_SUCCESS, d->cbdata);
    }
    free(d);
}

static void *DeferredLoop(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&g_module.mu);
    for (;;) {
        Deferred *d = g_module.head;
        if (NULL == d) {
            if (g_module.stop) {
                break;
            }
            pthread_cond_wait(&g_module.cv, &g_module.mu);
            continue;
        }
        g_module.head = d->next;
        if (NULL == g_module.head) {
            g_module.tail = NULL;
        }
        pthread_mutex_unlock(&g_module.mu);
        RunDeferred(d);
        pthread_mutex_lock(&g_module.mu);
    }
    pthread_mutex_unlock(&g_module.mu);
    return NULL;
}

/* Queues d; counter (may be NULL) is bumped under the same lock. */
static pmix_status_t Post(Deferred *d, int *counter)
{
    pthread_mutex_lock(&g_module.mu);
    d->next = NULL;
    if (NULL == g_module.tail) {
        g_module.head = d;
    } else {
        g_module.tail->next = d;
    }
    g_module.tail = d;
    if (NULL != counter) {
        ++*counter;
    }
    pthread_cond_signal(&g_module.cv);
    pthread_mutex_unlock(&g_module.mu);
    return PMIX_SUCCESS;
}

static pmix_status_t PostOp(pmix_op_cbfunc_t cbfunc, void *cbdata, int *counter)
{
    Deferred *d = calloc(1, sizeof(*d));
    if (NULL == d) {
        return PMIX_ERR_NOMEM;
    }
    d->op_cb = cbfunc;
    d->cbdata = cbdata;
    return Post(d, counter);
}

/* ---- the upcalls ---------------------------------------------------- */

static pmix_status_t ClientConnected(const pmix_proc_t *proc, void *server_object,
                                     pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)proc;
    (void)server_object;
    return PostOp(cbfunc, cbdata, &g_module.stats.connected);
}

static pmix_status_t ClientFinalized(const pmix_proc_t *proc, void *server_object,
                                     pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)proc;
    (void)server_object;
    return PostOp(cbfunc, cbdata, &g_module.stats.finalized);
}

/* Single node: the aggregate of all nodes' contributions is ours alone. */
static pmix_status_t FenceNb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                             size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc,
                             void *cbdata)
{
    Deferred *d = calloc(1, sizeof(*d));
    (void)procs;
    (void)nprocs;
    (void)info;
    (void)ninfo;
    if (NULL == d) {
        return PMIX_ERR_NOMEM;
    }
    d->modex_cb = cbfunc;
    d->cbdata = cbdata;
    d->data = data;
    d->ndata = ndata;
    return Post(d, &g_module.stats.fences);
}

int BenchModuleStart(pmix_server_module_t *module)
{
    memset(module, 0, sizeof(*module));
    module->client_connected = ClientConnected;
    module->client_finalized = ClientFinalized;
    module->fence_nb = FenceNb;
    module->direct_modex = NULL;
    g_module.stop = 0;
    return pthread_create(&g_module.thread, NULL, DeferredLoop, NULL);
}

void BenchModuleStop(void)
{
    pthread_mutex_lock(&g_module.mu);
    g_module.stop = 1;
    pthread_cond_signal(&g_module.cv);
    pthread_mutex_unlock(&g_module.mu);
    pthread_join(g_module.thread, NULL);
}

BenchModuleStats BenchModuleGetStats(void)
{
    BenchModuleStats s;
    pthread_mutex_lock(&g_module.mu);
    s = g_module.stats;
    pthread_mutex_unlock(&g_module.mu);
    return s;
}
