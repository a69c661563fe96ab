/*
 * pmix_bench host: the minimal host module and the helpers that wait for
 * the server library's callbacks.
 *
 * Threads: the server library calls the module on its own thread. Every
 * upcall answers through the module's "deferred" thread (started by
 * BenchModuleStart), never before returning, as the standard requires.
 * The fence is single-node: the data the library hands up is handed straight
 * back (the host owns it and frees it in the release callback).
 */
#ifndef PMIXX_BENCH_BENCH_HOST_MODULE_H
#define PMIXX_BENCH_BENCH_HOST_MODULE_H

#include <strings.h> /* OpenPMIx's pmix_common.h uses strncasecmp */

#include <pmix.h>
#include <pmix_server.h>

#include <pthread.h>

/* A one-shot completion for pmix_op_cbfunc_t APIs. Heap-allocated: a wait
 * that times out abandons the waiter, and the late callback frees it. */
typedef struct BenchWaiter BenchWaiter;

/* NULL when out of memory. */
BenchWaiter *BenchWaiterNew(void);
/* pmix_op_cbfunc_t: cbdata is a BenchWaiter. */
void BenchWaiterOpCb(pmix_status_t status, void *cbdata);
/* Waits for the callback until deadline (absolute CLOCK_REALTIME seconds)
 * and releases w either way. PMIx_Foo's rc says whether cbfunc will run:
 * PMIX_SUCCESS -> wait; PMIX_OPERATION_SUCCEEDED -> success; else rc.
 * Returns the callback's status, rc, or PMIX_ERR_TIMEOUT. A NULL w (out
 * of memory, the API was not called) gives PMIX_ERR_NOMEM. */
pmix_status_t BenchWaiterFinish(BenchWaiter *w, pmix_status_t rc, double deadline);

/* Absolute CLOCK_REALTIME time, seconds. */
double BenchRealNow(void);

/* Starts the deferred thread; fills *module. Returns 0 on success. */
int BenchModuleStart(pmix_server_module_t *module);
/* --nodes 2: every fence's contribution is exchanged with the other node's
 * host over fd (a stream socket) before the fence completes, each node's
 * data in node order; node: this host's; deadline: CLOCK_REALTIME seconds
 * after which an exchange fails the fence. Call before BenchModuleStart. */
void BenchModuleSetPeer(int fd, int node, double deadline);
/* Drains and joins the deferred thread. */
void BenchModuleStop(void);

/* Counters kept by the module (read after the clients have exited). */
typedef struct {
    int connected;
    int finalized;
    int fences;
} BenchModuleStats;
BenchModuleStats BenchModuleGetStats(void);

#endif /* PMIXX_BENCH_BENCH_HOST_MODULE_H */
