/*
 * pmix_bench host module: client_connected, client_finalized, fence_nb.
 * See bench_host_module.h for the threading contract.
 */
#define _XOPEN_SOURCE 700

#include "bench_host_module.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

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

/* The other node's host (--nodes 2). */
static struct {
    int fd;
    int node;
    double deadline;
} g_peer = {-1, 0, 0};

void BenchModuleSetPeer(int fd, int node, double deadline)
{
    g_peer.fd = fd;
    g_peer.node = node;
    g_peer.deadline = deadline;
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* Adds what a read or send moved to *done; -1 when the peer is gone or the
 * call failed, 0 when it would have blocked. */
static int Step(ssize_t moved, size_t *done)
{
    if (moved > 0) {
        *done += (size_t)moved;
        return 0;
    }
    return 0 == moved || (EAGAIN != errno && EINTR != errno) ? -1 : 0;
}

/* Sends mine (its length first) and receives the peer's contribution at
 * the same time, so that neither host's write waits for the other's read;
 * never reads past the peer's message (its next one follows only after
 * this exchange ended on both sides). 0 on success, *theirs malloc'd. */
static int Exchange(const char *mine, size_t n, char **theirs, size_t *m)
{
    uint64_t out_len = n, in_len = 0;
    size_t sent = 0, got = 0, hdr = sizeof(uint64_t);
    char *in = NULL;
    while (sent < hdr + n || got < hdr || got < hdr + in_len) {
        struct pollfd p;
        int ms = (int)((g_peer.deadline - BenchRealNow()) * 1000);
        p.fd = g_peer.fd;
        p.events = (short)((sent < hdr + n ? POLLOUT : 0) |
                           (got < hdr || got < hdr + in_len ? POLLIN : 0));
        p.revents = 0;
        if (ms <= 0 || poll(&p, 1, ms) < 0 || (p.revents & (POLLERR | POLLNVAL))) {
            break;
        }
        if (p.revents & POLLOUT) {
            const char *from = sent < hdr ? (const char *)&out_len + sent : mine + (sent - hdr);
            size_t left = sent < hdr ? hdr - sent : hdr + n - sent;
            if (0 != Step(send(g_peer.fd, from, left, MSG_NOSIGNAL), &sent)) {
                break;
            }
        }
        if (p.revents & (POLLIN | POLLHUP)) {
            if (got < hdr) {
                if (0 != Step(read(g_peer.fd, (char *)&in_len + got, hdr - got), &got)) {
                    break;
                }
                if (got == hdr && NULL == (in = malloc(in_len > 0 ? in_len : 1))) {
                    break;
                }
            } else if (0 != Step(read(g_peer.fd, in + (got - hdr), hdr + in_len - got), &got)) {
                break;
            }
        }
    }
    if (sent < hdr + n || got < hdr || got < hdr + in_len) {
        free(in);
        return -1;
    }
    *theirs = in;
    *m = in_len;
    return 0;
}

/* The fence's data of both nodes, node 0's first (replaces d->data). */
static pmix_status_t Combine(Deferred *d)
{
    char *theirs = NULL, *all;
    size_t m = 0;
    if (0 != Exchange(d->data, d->ndata, &theirs, &m)) {
        fprintf(stderr, "pmix_bench host: node %d: the fence exchange with the other host failed\n",
                g_peer.node);
        return PMIX_ERR_COMM_FAILURE;
    }
    all = malloc(d->ndata + m + 1);
    if (NULL == all) {
        free(theirs);
        return PMIX_ERR_NOMEM;
    }
    /* d->data is NULL when this node contributed nothing (a barrier). */
    if (d->ndata > 0) {
        memcpy(all + (0 == g_peer.node ? 0 : m), d->data, d->ndata);
    }
    if (m > 0) {
        memcpy(all + (0 == g_peer.node ? d->ndata : 0), theirs, m);
    }
    free(theirs);
    free(d->data);
    d->data = all;
    d->ndata += m;
    return PMIX_SUCCESS;
}

static void RunDeferred(Deferred *d)
{
    if (NULL != d->modex_cb) {
        pmix_status_t status = g_peer.fd >= 0 ? Combine(d) : PMIX_SUCCESS;
        if (PMIX_SUCCESS != status) {
            free(d->data);
            d->modex_cb(status, NULL, 0, d->cbdata, NULL, NULL);
        } else {
            d->modex_cb(PMIX_SUCCESS, d->data, d->ndata, d->cbdata, ReleaseFenceData, d->data);
        }
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

/* The aggregate of all nodes' contributions: ours alone, the other nodes
 * having no processes; with --nodes 2 the peer host's too (Combine). */
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
