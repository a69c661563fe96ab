/*
 * The host's server module: the upcalls the PMIx server library makes.
 * They run on the library's progress thread; each one records what it saw
 * in host_state (under its lock) and completes through the library's
 * callback. Upcalls alternate between the two completion styles the
 * standard allows (return PMIX_OPERATION_SUCCEEDED, or return PMIX_SUCCESS
 * and call cbfunc) so the library's handling of both is exercised.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "test/host/host.h"

static int LocalIndex(const pmix_proc_t *proc) {
    if (!proc || strncmp(proc->nspace, host_opts.nspace, PMIX_MAX_NSLEN) != 0) return -1;
    long idx = (long)proc->rank - host_opts.rank_offset;
    return idx >= 0 && idx < host_opts.nprocs ? (int)idx : -1;
}

static pmix_status_t Connected(const pmix_proc_t *proc, int v1) {
    pthread_mutex_lock(&host_state.lock);
    host_state.connected++;
    if (v1) host_state.connected_v1++;
    pthread_mutex_unlock(&host_state.lock);
    HostVerbose("client_connected%s %s:%u", v1 ? "" : "2", proc->nspace, proc->rank);
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t ClientConnected(const pmix_proc_t *proc, void *server_object,
                                     pmix_op_cbfunc_t cbfunc, void *cbdata) {
    (void)server_object, (void)cbfunc, (void)cbdata;
    return Connected(proc, 1);
}

static pmix_status_t ClientConnected2(const pmix_proc_t *proc, void *server_object,
                                      pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                      void *cbdata) {
    (void)server_object, (void)info, (void)ninfo, (void)cbfunc, (void)cbdata;
    return Connected(proc, 0);
}

static pmix_status_t ClientFinalized(const pmix_proc_t *proc, void *server_object,
                                     pmix_op_cbfunc_t cbfunc, void *cbdata) {
    (void)server_object;
    int idx = LocalIndex(proc);
    pthread_mutex_lock(&host_state.lock);
    host_state.finalized++;
    if (idx >= 0) host_state.finalized_rank[idx]++;
    pthread_mutex_unlock(&host_state.lock);
    HostVerbose("client_finalized %s:%u", proc->nspace, proc->rank);
    if (cbfunc) cbfunc(PMIX_SUCCESS, cbdata);
    return PMIX_SUCCESS;
}

static pmix_status_t Abort(const pmix_proc_t *proc, void *server_object, int status,
                           const char msg[], pmix_proc_t procs[], size_t nprocs,
                           pmix_op_cbfunc_t cbfunc, void *cbdata) {
    (void)server_object, (void)procs;
    HostLog("abort from %s:%u status %d (%zu procs): %s", proc->nspace, proc->rank, status,
            nprocs, msg ? msg : "(null)");
    pthread_mutex_lock(&host_state.lock);
    host_state.aborts++;
    host_state.abort_status = status;
    snprintf(host_state.abort_msg, sizeof host_state.abort_msg, "%s", msg ? msg : "");
    host_state.kill_job = 1;
    pthread_cond_broadcast(&host_state.cond);
    pthread_mutex_unlock(&host_state.lock);
    HostPeerKillJob();
    (void)cbfunc, (void)cbdata;
    return PMIX_OPERATION_SUCCEEDED;
}

/* The library hands us its buffer for the call's duration only: the reply
 * is a copy that the library gives back through this release function. */
static void ReleaseCopy(void *cbdata) { free(cbdata); }

static int FenceNeedsPeer(const pmix_proc_t procs[], size_t nprocs) {
    if (!HostPeerActive()) return 0;
    int other = 1 - host_opts.node_id;
    for (size_t i = 0; i < nprocs; ++i)
        if (procs[i].rank == PMIX_RANK_WILDCARD || HostNodeOfRank(procs[i].rank) == other)
            return 1;
    return 0;
}

static pmix_status_t FenceNb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                             size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc,
                             void *cbdata) {
    (void)info, (void)ninfo;
    pthread_mutex_lock(&host_state.lock);
    host_state.fences++;
    pthread_mutex_unlock(&host_state.lock);
    HostVerbose("fence_nb over %zu procs, %zu bytes", nprocs, ndata);
    if (FenceNeedsPeer(procs, nprocs))
        return HostPeerFence(procs, nprocs, data, ndata, cbfunc, cbdata);
    char *copy = NULL;
    if (ndata > 0) {
        copy = malloc(ndata);
        if (!copy) return PMIX_ERR_NOMEM;
        memcpy(copy, data, ndata);
    }
    if (cbfunc) cbfunc(PMIX_SUCCESS, copy, ndata, cbdata, ReleaseCopy, copy);
    else free(copy);
    return PMIX_SUCCESS;
}

static pmix_status_t DirectModex(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                                 pmix_modex_cbfunc_t cbfunc, void *cbdata) {
    (void)info, (void)ninfo;
    pthread_mutex_lock(&host_state.lock);
    host_state.dmodex++;
    pthread_mutex_unlock(&host_state.lock);
    HostVerbose("direct_modex for %s:%u", proc->nspace, proc->rank);
    if (HostPeerActive() && HostNodeOfRank(proc->rank) != host_opts.node_id)
        return HostPeerDmodex(proc, cbfunc, cbdata);
    return PMIX_ERR_NOT_FOUND;
}

static pmix_status_t NotifyEvent(pmix_status_t code, const pmix_proc_t *source,
                                 pmix_data_range_t range, pmix_info_t info[], size_t ninfo,
                                 pmix_op_cbfunc_t cbfunc, void *cbdata) {
    (void)cbfunc, (void)cbdata;
    pthread_mutex_lock(&host_state.lock);
    host_state.notifies++;
    host_state.last_notify_code = code;
    pthread_mutex_unlock(&host_state.lock);
    HostVerbose("notify_event %d (%s) from %s:%u range %d", code, PMIx_Error_string(code),
                source ? source->nspace : "?", source ? source->rank : 0, (int)range);
    if (HostPeerActive() && range != PMIX_RANGE_LOCAL && range != PMIX_RANGE_PROC_LOCAL)
        HostPeerNotify(code, source, info, ninfo);
    return PMIX_OPERATION_SUCCEEDED;
}

void HostFillModule(pmix_server_module_t *module) {
    memset(module, 0, sizeof *module);
    module->client_connected = ClientConnected;
    if (!host_opts.connected1_only) module->client_connected2 = ClientConnected2;
    module->client_finalized = ClientFinalized;
    module->abort = Abort;
    module->fence_nb = FenceNb;
    module->direct_modex = DirectModex;
    module->notify_event = NotifyEvent;
}
