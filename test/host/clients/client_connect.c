/*
 * client_connect [MODE]: PMIx_Connect / PMIx_Disconnect (+ _nb) and
 * PMIx_Spawn (+ _nb) against the test host (every rank runs it):
 *
 *   basic (default)  argument checks; connect/disconnect over the job
 *                    (wildcard, explicit ranks in any order, _nb forms);
 *                    a disconnect of a set never connected; rank 0 connects
 *                    with rank 1 under PMIX_TIMEOUT 1 while rank 1 does not
 *                    join (PMIX_ERR_TIMEOUT); rank 0 spawns through the
 *                    host's spawn upcall (which names the job) and sees a
 *                    refused spawn fail.
 *   noupcalls        the host has no connect/disconnect/spawn upcalls: a
 *                    connect of local procs still succeeds, a spawn is
 *                    PMIX_ERR_NOT_SUPPORTED.
 *   dead             (with --kill-rank 1) rank 1 waits to be killed; the
 *                    others' connect over the job fails with
 *                    PMIX_ERR_PROC_TERM_WO_SYNC, the next one at once, one of
 *                    the survivors succeeds.
 *   extra            (with --extra-nspace) connect with the namespace
 *                    <nspace>-x (no procs here: the host's upcall decides);
 *                    its job info is then in the client: PMIX_OPTIONAL gets.
 *   extra-noupcall   the same without the host's connect: NOT_SUPPORTED.
 */
#include "test/host/clients/client_util.h"

static uint32_t job_size;

static pmix_proc_t *AllRanks(int reversed) {
    pmix_proc_t *list = calloc(job_size, sizeof *list);
    CHECK(list != NULL, "calloc");
    for (uint32_t i = 0; i < job_size; ++i) list[i] = ProcOf(reversed ? job_size - 1 - i : i);
    return list;
}

static void CheckArguments(void) {
    pmix_proc_t all = ProcOf(PMIX_RANK_WILDCARD);
    CHECK_RC(PMIx_Connect(NULL, 1, NULL, 0), PMIX_ERR_BAD_PARAM, "Connect(NULL procs, 1)");
    CHECK_RC(PMIx_Spawn(NULL, 0, NULL, 0, NULL), PMIX_ERR_BAD_PARAM, "Spawn(no apps)");
    /* pmixx decisions (OpenPMIx 4.2.2 differs, blocks, or crashes: it
     * dereferences the NULL procs of Disconnect(NULL, 1)). */
    if (OnOpenPmix()) return;
    CHECK_RC(PMIx_Disconnect(NULL, 1, NULL, 0), PMIX_ERR_BAD_PARAM, "Disconnect(NULL procs, 1)");
    CHECK_RC(PMIx_Connect(NULL, 0, NULL, 0), PMIX_ERR_BAD_PARAM, "Connect(no procs)");
    CHECK_RC(PMIx_Connect(&all, 1, NULL, 1), PMIX_ERR_BAD_PARAM, "Connect(NULL info, 1)");
    pmix_proc_t bad = ProcOf(PMIX_RANK_UNDEF);
    CHECK_RC(PMIx_Connect(&bad, 1, NULL, 0), PMIX_ERR_BAD_PARAM, "Connect(rank UNDEF)");
    CHECK_RC(PMIx_Connect_nb(NULL, 0, NULL, 0, NbWaitDone, NULL), PMIX_ERR_BAD_PARAM,
             "Connect_nb(no procs)");
    if (job_size > 1) {
        pmix_proc_t other = ProcOf((client_me.rank + 1) % job_size);
        CHECK_RC(PMIx_Connect(&other, 1, NULL, 0), PMIX_ERR_BAD_PARAM,
                 "Connect(without the caller)");
    }
    pmix_app_t app;
    PMIX_APP_CONSTRUCT(&app);
    app.ninfo = 1; /* with a NULL info array */
    CHECK_RC(PMIx_Spawn(NULL, 0, &app, 1, NULL), PMIX_ERR_BAD_PARAM, "Spawn(app info NULL, 1)");
    app.ninfo = 0;
    CHECK_RC(PMIx_Spawn(NULL, 1, &app, 1, NULL), PMIX_ERR_BAD_PARAM, "Spawn(NULL job info, 1)");
}

static void ConnectDisconnect(void) {
    pmix_proc_t all = ProcOf(PMIX_RANK_WILDCARD);
    CHECK_RC(PMIx_Connect(&all, 1, NULL, 0), PMIX_SUCCESS, "Connect(wildcard)");
    CHECK_RC(PMIx_Disconnect(&all, 1, NULL, 0), PMIX_SUCCESS, "Disconnect(wildcard)");
    pmix_proc_t *fwd = AllRanks(0), *rev = AllRanks(1);
    /* every rank lists the job in its own order: one set all the same */
    CHECK_RC(PMIx_Connect(client_me.rank % 2 ? rev : fwd, job_size, NULL, 0), PMIX_SUCCESS,
             "Connect(every rank listed)");
    if (!OnOpenPmix()) /* pmixx: a set this process did not connect */
        CHECK_RC(PMIx_Disconnect(&all, 1, NULL, 0), PMIX_ERR_INVALID_OPERATION,
                 "Disconnect(wildcard, connected as a list)");
    CHECK_RC(PMIx_Disconnect(client_me.rank % 2 ? fwd : rev, job_size, NULL, 0), PMIX_SUCCESS,
             "Disconnect(every rank listed)");
    free(fwd);
    free(rev);
    NbWait c = {0, 0}, d = {0, 0};
    CHECK_RC(PMIx_Connect_nb(&all, 1, NULL, 0, NbWaitDone, &c), PMIX_SUCCESS, "Connect_nb");
    NbWaitFor(&c, PMIX_SUCCESS, "Connect_nb callback");
    CHECK_RC(PMIx_Disconnect_nb(&all, 1, NULL, 0, NbWaitDone, &d), PMIX_SUCCESS, "Disconnect_nb");
    NbWaitFor(&d, PMIX_SUCCESS, "Disconnect_nb callback");
}

/* Rank 0 waits for rank 1, which goes on to the fence instead. */
static void Timeout(void) {
    if (job_size < 2 || OnOpenPmix()) return;
    if (client_me.rank == 0) CheckTimesOutWithoutRank1(PMIx_Connect, "Connect");
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "Fence after the timeout");
}

static pmix_app_t *OneApp(const char *cmd) {
    pmix_app_t *app;
    PMIX_APP_CREATE(app, 1);
    app->cmd = strdup(cmd);
    app->argv = calloc(3, sizeof(char *));
    app->argv[0] = strdup(cmd);
    app->argv[1] = strdup("spawn-child");
    app->maxprocs = 2;
    return app;
}

static void SpawnDone(pmix_status_t status, pmix_nspace_t nspace, void *cbdata) {
    NbWait *w = cbdata;
    if (status == PMIX_SUCCESS)
        CHECK(strncmp(nspace, client_me.nspace, strlen(client_me.nspace)) == 0,
              "Spawn_nb named %s", nspace);
    w->status = status;
    FLAG_SET(w->done, 1);
}

static void Spawns(pmix_status_t want) {
    if (client_me.rank != 0) return;
    pmix_app_t *app = OneApp("/bin/true");
    char nspace[PMIX_MAX_NSLEN + 1] = "";
    pmix_info_t info;
    int sec = 10;
    PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &sec, PMIX_INT);
    CHECK_RC(PMIx_Spawn(&info, 1, app, 1, nspace), want, "Spawn");
    if (want == PMIX_SUCCESS) {
        char prefix[PMIX_MAX_NSLEN + 16];
        snprintf(prefix, sizeof prefix, "%.200s-spawn", client_me.nspace);
        CHECK(strncmp(nspace, prefix, strlen(prefix)) == 0, "Spawn named %s, want %s*", nspace,
              prefix);
    }
    NbWait w = {0, 0};
    PMIX_INFO_DESTRUCT(&info);
    CHECK_RC(PMIx_Spawn_nb(NULL, 0, app, 1, SpawnDone, &w), PMIX_SUCCESS, "Spawn_nb");
    NbWaitFor(&w, want, "Spawn_nb callback");
    PMIX_APP_FREE(app, 1);
    if (want != PMIX_SUCCESS) return;
    app = OneApp("fail");
    CHECK_RC(PMIx_Spawn(NULL, 0, app, 1, nspace), PMIX_ERR_JOB_FAILED_TO_LAUNCH, "Spawn(refused)");
    PMIX_APP_FREE(app, 1);
}

static void Extra(int with_host) {
    pmix_proc_t sets[2], other;
    char name[PMIX_MAX_NSLEN + 1];
    snprintf(name, sizeof name, "%.200s-x", client_me.nspace);
    PMIX_LOAD_PROCID(&sets[0], name, PMIX_RANK_WILDCARD);
    sets[1] = ProcOf(PMIX_RANK_WILDCARD);
    other = sets[0];
    if (!with_host) {
        CHECK_RC(PMIx_Connect(sets, 2, NULL, 0), PMIX_ERR_NOT_SUPPORTED,
                 "Connect(remote, no upcall)");
        return;
    }
    CHECK_RC(PMIx_Connect(sets, 2, NULL, 0), PMIX_SUCCESS, "Connect(with <nspace>-x)");
    pmix_info_t opt;
    bool yes = true;
    PMIX_INFO_LOAD(&opt, PMIX_OPTIONAL, &yes, PMIX_BOOL);
    /* OpenPMIx 4.2.2 brings no job info along with the connect: there the
     * gets go to the server (no PMIX_OPTIONAL). */
    size_t nopt = OnOpenPmix() ? 0 : 1;
    pmix_value_t *v = NULL;
    CHECK_RC(PMIx_Get(&other, PMIX_JOB_SIZE, &opt, nopt, &v), PMIX_SUCCESS,
             "Get(x:*, JOB_SIZE, OPTIONAL)");
    CHECK(v->type == PMIX_UINT32 && v->data.uint32 == 2, "job size of %s: %u", name,
          v->data.uint32);
    PMIX_VALUE_RELEASE(v);
    CHECK_RC(PMIx_Get(&other, "test.extra.str", &opt, nopt, &v), PMIX_SUCCESS,
             "Get(x:*, test.extra.str)");
    CHECK(v->type == PMIX_STRING && strcmp(v->data.string, "extra-job-string") == 0,
          "test.extra.str of %s", name);
    PMIX_VALUE_RELEASE(v);
    PMIX_INFO_DESTRUCT(&opt);
    CHECK_RC(PMIx_Disconnect(sets, 2, NULL, 0), PMIX_SUCCESS, "Disconnect(with <nspace>-x)");
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "basic";
    ClientInit();
    job_size = GetU32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    if (strcmp(mode, "basic") == 0) {
        CheckArguments();
        ConnectDisconnect();
        Timeout();
        Spawns(PMIX_SUCCESS);
    } else if (strcmp(mode, "noupcalls") == 0) {
        ConnectDisconnect();
        Spawns(PMIX_ERR_NOT_SUPPORTED);
    } else if (strcmp(mode, "dead") == 0) {
        pmix_proc_t all = ProcOf(PMIX_RANK_WILDCARD);
        CheckRank1Dies(PMIx_Connect, "Connect", &all, 1, job_size, PMIX_ERR_PROC_TERM_WO_SYNC);
        ClientFinalize(); /* no final fence: rank 1 is gone */
        return 0;
    } else if (strcmp(mode, "extra") == 0 || strcmp(mode, "extra-noupcall") == 0) {
        Extra(strcmp(mode, "extra") == 0);
    } else {
        Fail("unknown mode %s", mode);
    }
    Note("%s ok", mode);
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "final Fence");
    ClientFinalize();
    return 0;
}
