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
    int idx = LocalIndex(proc);
    pthread_mutex_lock(&host_state.lock);
    host_state.connected++;
    if (idx >= 0) host_state.connected_rank[idx]++;
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
    __atomic_store_n(&host_state.kill_job, 1, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&host_state.cond);
    pthread_mutex_unlock(&host_state.lock);
    HostPeerKillJob();
    (void)cbfunc, (void)cbdata;
    return PMIX_OPERATION_SUCCEEDED;
}

/* What we hand the library back through a modex callback is freed here when
 * the library calls the release function. */
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
    /* Directives named "test.dir.*" (client_fence gives one per rank): the
     * most any one fence_nb carried, i.e. whether every local participant's
     * directives reach the host. */
    int dirkeys = 0;
    for (size_t i = 0; info != NULL && i < ninfo; ++i)
        if (strncmp(info[i].key, "test.dir.", 9) == 0) ++dirkeys;
    pthread_mutex_lock(&host_state.lock);
    host_state.fences++;
    if (dirkeys > host_state.fence_dirkeys) host_state.fence_dirkeys = dirkeys;
    pthread_mutex_unlock(&host_state.lock);
    HostVerbose("fence_nb over %zu procs, %zu bytes, %d test.dir keys", nprocs, ndata, dirkeys);
    /* data is ours whatever we return (the standard: the host frees it). */
    if (FenceNeedsPeer(procs, nprocs)) {
        pmix_status_t rc = HostPeerFence(procs, nprocs, data, ndata, cbfunc, cbdata);
        free(data);  /* the peer link keeps its own copy */
        return rc;
    }
    /* Alone, the collective's result is our own data: handed back as is and
     * freed by the release function when the library is done with it. */
    if (cbfunc) cbfunc(PMIX_SUCCESS, data, ndata, cbdata, ReleaseCopy, data);
    else free(data);
    return PMIX_SUCCESS;
}

static pmix_status_t DirectModex(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                                 pmix_modex_cbfunc_t cbfunc, void *cbdata) {
    (void)info, (void)ninfo;
    int late = host_opts.late_nspace != NULL &&
               strncmp(proc->nspace, host_opts.late_nspace, PMIX_MAX_NSLEN) == 0;
    pthread_mutex_lock(&host_state.lock);
    host_state.dmodex++;
    host_state.late_asks += late;
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

/* --- allocate / monitor / job control (client_alloc) -------------------------
 * The replies echo what the upcall saw, under "test.*" keys, so the client
 * can check the library passed it on: the requester, the directive and the
 * PMIX_USERID entries. Heartbeats are counted per rank; the monitor
 * "test.hbcount" asks for the caller's count. */
static int heartbeats[HOST_MAX_PROCS];

typedef struct {
    pmix_info_t *info;
    size_t n;
} InfoReply;

static void ReleaseReply(void *cbdata) {
    InfoReply *r = cbdata;
    PMIX_INFO_FREE(r->info, r->n);
    free(r);
}

/* Hands out[0..n) to cbfunc; freed when the library releases it. */
static pmix_status_t Reply(pmix_info_cbfunc_t cbfunc, void *cbdata, pmix_status_t status,
                           pmix_info_t *out, size_t n) {
    InfoReply *r = malloc(sizeof *r);
    if (!r) {
        PMIX_INFO_FREE(out, n);
        return PMIX_ERR_NOMEM;
    }
    r->info = out;
    r->n = n;
    cbfunc(status, out, n, cbdata, ReleaseReply, r);
    return PMIX_SUCCESS;
}

/* Echo infos (6 slots: the caller adds up to 3 after these). */
static pmix_info_t *EchoInfos(const pmix_proc_t *who, const pmix_info_t data[], size_t ndata,
                              size_t *n) {
    pmix_info_t *out;
    PMIX_INFO_CREATE(out, 6);
    uint32_t nuid = 0, uid = 0;
    for (size_t i = 0; i < ndata; ++i) {
        if (PMIX_CHECK_KEY(&data[i], PMIX_USERID)) {
            ++nuid;
            uid = data[i].value.data.uint32;
        }
    }
    PMIX_INFO_LOAD(&out[0], "test.requester", who, PMIX_PROC);
    PMIX_INFO_LOAD(&out[1], "test.nuserid", &nuid, PMIX_UINT32);
    PMIX_INFO_LOAD(&out[2], "test.userid", &uid, PMIX_UINT32);
    *n = 3;
    return out;
}

static pmix_status_t Allocate(const pmix_proc_t *client, pmix_alloc_directive_t directive,
                              const pmix_info_t data[], size_t ndata, pmix_info_cbfunc_t cbfunc,
                              void *cbdata) {
    HostVerbose("allocate %d from %s:%u (%zu infos)", (int)directive, client->nspace,
                client->rank, ndata);
    size_t n;
    pmix_info_t *out = EchoInfos(client, data, ndata, &n);
    uint32_t d = directive;
    PMIX_INFO_LOAD(&out[n], "test.directive", &d, PMIX_UINT32); ++n;
    pmix_status_t status = PMIX_SUCCESS;
    if (directive == PMIX_ALLOC_REAQUIRE) {
        status = PMIX_ERR_NOT_AVAILABLE;  /* a denial, with its reason */
        PMIX_INFO_LOAD(&out[n], "test.reason", "nothing was lent", PMIX_STRING); ++n;
    } else {
        PMIX_INFO_LOAD(&out[n], PMIX_ALLOC_ID, "test-alloc-1", PMIX_STRING); ++n;
    }
    return Reply(cbfunc, cbdata, status, out, n);
}

static pmix_status_t Monitor(const pmix_proc_t *requestor, const pmix_info_t *monitor,
                             pmix_status_t error, const pmix_info_t directives[], size_t ndirs,
                             pmix_info_cbfunc_t cbfunc, void *cbdata) {
    (void)error;
    int idx = LocalIndex(requestor);
    if (PMIX_CHECK_KEY(monitor, PMIX_SEND_HEARTBEAT)) {
        pthread_mutex_lock(&host_state.lock);
        if (idx >= 0) heartbeats[idx]++;
        pthread_mutex_unlock(&host_state.lock);
        return PMIX_OPERATION_SUCCEEDED;
    }
    HostVerbose("monitor %s from %s:%u", monitor->key, requestor->nspace, requestor->rank);
    size_t n;
    pmix_info_t *out = EchoInfos(requestor, directives, ndirs, &n);
    pmix_status_t status = PMIX_SUCCESS;
    if (PMIX_CHECK_KEY(monitor, "test.hbcount")) {
        pthread_mutex_lock(&host_state.lock);
        uint32_t count = idx >= 0 ? (uint32_t)heartbeats[idx] : 0;
        pthread_mutex_unlock(&host_state.lock);
        PMIX_INFO_LOAD(&out[n], "test.hbcount", &count, PMIX_UINT32); ++n;
    } else if (PMIX_CHECK_KEY(monitor, PMIX_MONITOR_HEARTBEAT)) {
        PMIX_INFO_LOAD(&out[n], PMIX_MONITOR_ID, "test-monitor-1", PMIX_STRING); ++n;
    } else {
        status = PMIX_ERR_NOT_SUPPORTED;
        PMIX_INFO_LOAD(&out[n], "test.reason", "only heartbeats are monitored", PMIX_STRING); ++n;
    }
    return Reply(cbfunc, cbdata, status, out, n);
}

/* Job control: succeeds with the echo (targets are not looked at). */
static pmix_status_t JobControl(const pmix_proc_t *requestor, const pmix_proc_t targets[],
                                size_t ntargets, const pmix_info_t directives[], size_t ndirs,
                                pmix_info_cbfunc_t cbfunc, void *cbdata) {
    (void)targets;
    HostVerbose("job control from %s:%u (%zu targets, %zu directives)", requestor->nspace,
                requestor->rank, ntargets, ndirs);
    size_t n;
    pmix_info_t *out = EchoInfos(requestor, directives, ndirs, &n);
    return Reply(cbfunc, cbdata, PMIX_SUCCESS, out, n);
}

/* --- connect / disconnect / spawn (client_connect) ------------------------
 * Connect and disconnect count the collectives and succeed, alternating
 * the two completion styles. Spawn launches nothing: it checks what the
 * library handed over (an app with a command, PMIX_USERID in the job
 * info) and names the job "<nspace>-spawn<N>", or refuses an app whose
 * command is "fail" with PMIX_ERR_JOB_FAILED_TO_LAUNCH. */
static pmix_status_t Collective(int *counter, const char *what, size_t nprocs,
                                pmix_op_cbfunc_t cbfunc, void *cbdata) {
    pthread_mutex_lock(&host_state.lock);
    int n = ++*counter;
    pthread_mutex_unlock(&host_state.lock);
    HostVerbose("%s over %zu procs", what, nprocs);
    if (n % 2 == 0 || !cbfunc) return PMIX_OPERATION_SUCCEEDED;
    cbfunc(PMIX_SUCCESS, cbdata);
    return PMIX_SUCCESS;
}

static pmix_status_t Connect(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                             size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata) {
    (void)procs, (void)info, (void)ninfo;
    return Collective(&host_state.connects, "connect", nprocs, cbfunc, cbdata);
}

static pmix_status_t Disconnect(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                                size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata) {
    (void)procs, (void)info, (void)ninfo;
    return Collective(&host_state.disconnects, "disconnect", nprocs, cbfunc, cbdata);
}

static pmix_status_t Spawn(const pmix_proc_t *proc, const pmix_info_t job_info[], size_t ninfo,
                           const pmix_app_t apps[], size_t napps, pmix_spawn_cbfunc_t cbfunc,
                           void *cbdata) {
    int has_uid = 0;
    for (size_t i = 0; i < ninfo; ++i) has_uid |= PMIX_CHECK_KEY(&job_info[i], PMIX_USERID);
    pthread_mutex_lock(&host_state.lock);
    int n = ++host_state.spawns;
    pthread_mutex_unlock(&host_state.lock);
    HostVerbose("spawn from %s:%u: %zu apps, first %s", proc->nspace, proc->rank, napps,
                napps > 0 && apps[0].cmd ? apps[0].cmd : "(none)");
    /* OpenPMIx 4.2.2 does not pass PMIX_USERID (§17.3.11 requires it). */
    if (strncmp(PMIx_Get_version(), "OpenPMIx", 8) == 0) has_uid = 1;
    if (napps == 0 || !apps[0].cmd || !has_uid) return PMIX_ERR_BAD_PARAM;
    if (strcmp(apps[0].cmd, "fail") == 0) return PMIX_ERR_JOB_FAILED_TO_LAUNCH;
    pmix_nspace_t name;
    char text[PMIX_MAX_NSLEN + 1];
    snprintf(text, sizeof text, "%.200s-spawn%d", host_opts.nspace, n);
    PMIX_LOAD_NSPACE(name, text);
    cbfunc(PMIX_SUCCESS, name, cbdata);
    return PMIX_SUCCESS;
}

/* --- groups (client_group) -------------------------------------------------
 * Construct and destruct are counted. A construct that asks for a context id
 * gets one from this host's counter; across two nodes both hosts exchange
 * their contributions through the peer link, as for a fence, and node 0's
 * id wins (an invitation's id request, marked PMIX_GROUP_LEADER, comes from
 * the leader's server alone and is answered at once). The reply names the
 * membership as given and hands back every node's PMIX_GROUP_ENDPT_DATA. A
 * PMIX_LOCAL_COLLECTIVE_STATUS error is counted and fails the operation on
 * the other node too. */
static size_t next_context_id = 1;

pmix_status_t HostGroupReply(pmix_info_cbfunc_t cbfunc, void *cbdata, pmix_status_t status,
                             size_t context_id, int want_context_id, const pmix_proc_t procs[],
                             size_t nprocs, const pmix_byte_object_t blobs[], size_t nblobs) {
    pmix_info_t *out;
    size_t n = 0;
    PMIX_INFO_CREATE(out, 2 + nblobs);
    if (status == PMIX_SUCCESS && want_context_id) {
        PMIX_INFO_LOAD(&out[n], PMIX_GROUP_CONTEXT_ID, &context_id, PMIX_SIZE);
        ++n;
    }
    if (status == PMIX_SUCCESS) {
        pmix_data_array_t members = {PMIX_PROC, nprocs, (void *)procs};
        PMIX_INFO_LOAD(&out[n], PMIX_GROUP_MEMBERSHIP, &members, PMIX_DATA_ARRAY);
        ++n;
        for (size_t i = 0; i < nblobs; ++i) {
            if (blobs[i].size == 0) continue;
            PMIX_INFO_LOAD(&out[n], PMIX_GROUP_ENDPT_DATA, &blobs[i], PMIX_BYTE_OBJECT);
            ++n;
        }
    }
    return Reply(cbfunc, cbdata, status, out, n);
}

static int GroupNeedsPeer(const pmix_proc_t procs[], size_t nprocs) {
    return FenceNeedsPeer(procs, nprocs);
}

static pmix_status_t Group(pmix_group_operation_t op, char grp[], const pmix_proc_t procs[],
                           size_t nprocs, const pmix_info_t directives[], size_t ndirs,
                           pmix_info_cbfunc_t cbfunc, void *cbdata) {
    int want_ctx = 0, leader_only = 0;
    pmix_status_t local = PMIX_SUCCESS;
    const pmix_byte_object_t *endpt = NULL;
    int own_dirs = 0; /* client_group's "tg.dir.<rank>": one per local member */
    for (size_t i = 0; i < ndirs; ++i) {
        const pmix_info_t *d = &directives[i];
        if (strncmp(d->key, "tg.dir.", 7) == 0) own_dirs++;
        if (PMIX_CHECK_KEY(d, PMIX_GROUP_ASSIGN_CONTEXT_ID)) want_ctx = PMIX_INFO_TRUE(d);
        else if (PMIX_CHECK_KEY(d, PMIX_GROUP_LEADER)) leader_only = PMIX_INFO_TRUE(d);
        else if (PMIX_CHECK_KEY(d, PMIX_LOCAL_COLLECTIVE_STATUS)) local = d->value.data.status;
        else if (PMIX_CHECK_KEY(d, PMIX_GROUP_ENDPT_DATA) && d->value.type == PMIX_BYTE_OBJECT)
            endpt = &d->value.data.bo;
    }
    pthread_mutex_lock(&host_state.lock);
    host_state.groups++;
    if (local != PMIX_SUCCESS) host_state.group_failures++;
    if (own_dirs > host_state.group_dirs) host_state.group_dirs = own_dirs;
    size_t id = want_ctx && op == PMIX_GROUP_CONSTRUCT ? next_context_id++ : 0;
    pthread_mutex_unlock(&host_state.lock);
    HostVerbose("group %s %s over %zu procs (context id %zu, local status %d)",
                op == PMIX_GROUP_CONSTRUCT ? "construct" : "destruct", grp, nprocs, id, local);
    if (!leader_only && GroupNeedsPeer(procs, nprocs))
        return HostPeerGroup(op, grp, procs, nprocs, id, want_ctx, local, endpt, cbfunc, cbdata);
    if (local != PMIX_SUCCESS) return local;
    return HostGroupReply(cbfunc, cbdata, PMIX_SUCCESS, id, want_ctx, procs, nprocs, endpt,
                          endpt ? 1 : 0);
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
    /* --without-upcalls NAME[,NAME]: leave these NULL */
    const char *without = host_opts.without_upcalls ? host_opts.without_upcalls : "";
    if (!strstr(without, "allocate")) module->allocate = Allocate;
    if (!strstr(without, "monitor")) module->monitor = Monitor;
    if (!strstr(without, "job_control")) module->job_control = JobControl;
    if (!strstr(without, "connect")) module->connect = Connect;  /* both */
    if (!strstr(without, "connect")) module->disconnect = Disconnect;
    if (!strstr(without, "spawn")) module->spawn = Spawn;
    if (!strstr(without, "group")) module->group = Group;
    if (host_opts.tool_upcall == NULL || strcmp(host_opts.tool_upcall, "none") != 0)
        module->tool_connected = HostToolConnected;
}
