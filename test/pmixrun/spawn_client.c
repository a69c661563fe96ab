/*
 * PMIx_Spawn, PMIx_Connect and PMIx_Disconnect under pmixrun (public pmix.h
 * API only). Run by test/pmixrun/spawn.sh; every check prints
 * "PASS <who> <name>" or "FAIL <who> <name>: why" (<who> is "parent R" or
 * "child R").
 *
 *   spawn_client parent     (pmixrun -n N, N >= 1) rank 0 checks that
 *                           spawning a missing / a non-executable program
 *                           fails with the right status, then spawns 2
 *                           copies of this program ("child"); the parents
 *                           and children connect, exchange a value with a
 *                           fence over both namespaces, disconnect; rank 0
 *                           waits for the children's PMIX_EVENT_JOB_END.
 *   spawn_client child      the children (started by "parent"): check
 *                           PMIX_SPAWNED, PMIX_PARENT_ID, the job size,
 *                           their namespace, the environment and working
 *                           directory the spawn asked for, then join in.
 *   spawn_client failchild  spawns one "exit 3" child and checks the
 *                           PMIX_EVENT_JOB_END (status, proc, code) and
 *                           PMIX_EVENT_PROC_TERMINATED it asked for.
 *   spawn_client orphan     spawns one "sleep" child, then exits with 5.
 *   spawn_client jobtimeout spawns one "sleep" child with PMIX_JOB_TIMEOUT 1
 *                           and checks its job-end event (canceled).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pmix.h>

#include "test/pmixrun/client_util.h"

#define NCHILDREN 2
#define ENV_NAME "SPAWN_TEST_VAR"
#define ENV_VALUE "from-spawn"
#define CHILD_WDIR "/"


/* --- the job-end event -------------------------------------------------------- */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static bool job_ended;
static char ended_nspace[PMIX_MAX_NSLEN + 1];
static pmix_status_t ended_status = PMIX_ERROR;
static int ended_exit_code = -1;
static pmix_rank_t ended_rank = PMIX_RANK_UNDEF;

static void OnJobEnd(size_t id, pmix_status_t status, const pmix_proc_t *source,
                     pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                     pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata) {
    (void)id, (void)status, (void)source, (void)results, (void)nresults;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < ninfo; ++i) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC))
            PMIX_LOAD_NSPACE(ended_nspace, info[i].value.data.proc->nspace);
        if (PMIX_CHECK_KEY(&info[i], PMIX_JOB_TERM_STATUS)) ended_status = info[i].value.data.status;
        if (PMIX_CHECK_KEY(&info[i], PMIX_EXIT_CODE)) ended_exit_code = info[i].value.data.integer;
        if (PMIX_CHECK_KEY(&info[i], PMIX_PROCID)) ended_rank = info[i].value.data.proc->rank;
    }
    job_ended = true;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    if (cbfunc) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

/* PMIX_EVENT_PROC_TERMINATED about another job's process (the last one). */
static bool proc_ended;
static char proc_ended_nspace[PMIX_MAX_NSLEN + 1];
static int proc_ended_code = -1;

static void OnProcEnd(size_t id, pmix_status_t status, const pmix_proc_t *source,
                      pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                      pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata) {
    (void)id, (void)status, (void)source, (void)results, (void)nresults;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < ninfo; ++i) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC) &&
            !PMIX_CHECK_NSPACE(info[i].value.data.proc->nspace, me.nspace)) {
            PMIX_LOAD_NSPACE(proc_ended_nspace, info[i].value.data.proc->nspace);
            proc_ended = true;
        }
        if (PMIX_CHECK_KEY(&info[i], PMIX_EXIT_CODE)) proc_ended_code = info[i].value.data.integer;
    }
    pthread_mutex_unlock(&lock);
    if (cbfunc) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

static void RegisterJobEnd(void) {
    pmix_status_t code = PMIX_EVENT_JOB_END;
    pmix_status_t rc = PMIx_Register_event_handler(&code, 1, NULL, 0, OnJobEnd, NULL, NULL);
    if (rc < 0) Report("register-job-end", false, "registration failed", rc);
}

/* Waits (15 s at most) for the job-end event of `nspace`. */
static bool WaitJobEnd(const char *nspace) {
    pthread_mutex_lock(&lock);
    bool ok = WaitFlagLocked(&lock, &cond, &job_ended, 15) &&
              PMIX_CHECK_NSPACE(ended_nspace, nspace);
    pthread_mutex_unlock(&lock);
    return ok;
}

/* --- spawning ----------------------------------------------------------------- */

/* Spawns `nprocs` copies of `cmd` with argv {cmd, arg} (arg may be NULL). */
static pmix_status_t Spawn(const char *cmd, const char *arg, int nprocs, pmix_info_t *job_info,
                           size_t ninfo, pmix_nspace_t nspace) {
    pmix_app_t app;
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup(cmd);
    app.argv = calloc(3, sizeof(char *));
    app.argv[0] = strdup(cmd);
    if (arg != NULL) app.argv[1] = strdup(arg);
    app.maxprocs = nprocs;
    pmix_status_t rc = PMIx_Spawn(job_info, ninfo, &app, 1, nspace);
    PMIX_APP_DESTRUCT(&app);
    return rc;
}

static void CheckSpawnFails(const char *name, const char *cmd, pmix_status_t want) {
    pmix_nspace_t ns;
    pmix_status_t rc = Spawn(cmd, NULL, 1, NULL, 0, ns);
    Report(name, rc == want, "unexpected status", rc);
}

/* Spawns the children: notify completion, an env var, a working directory. */
static pmix_status_t SpawnChildren(const char *self, pmix_nspace_t child) {
    pmix_info_t info[3];
    bool yes = true;
    pmix_envar_t var = {ENV_NAME, ENV_VALUE, ':'};
    PMIX_INFO_LOAD(&info[0], PMIX_NOTIFY_COMPLETION, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_SET_ENVAR, &var, PMIX_ENVAR);
    PMIX_INFO_LOAD(&info[2], PMIX_WDIR, CHILD_WDIR, PMIX_STRING);
    pmix_status_t rc = Spawn(self, "child", NCHILDREN, info, 3, child);
    for (int i = 0; i < 3; i++) PMIX_INFO_DESTRUCT(&info[i]);
    return rc;
}

/* --- what parents and children do together ------------------------------------ */

static void PutWho(void) {
    char who[64];
    pmix_value_t val;
    snprintf(who, sizeof who, "%s %u", role, me.rank);
    PMIX_VALUE_LOAD(&val, who, PMIX_STRING);
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, "who", &val);
    PMIX_VALUE_DESTRUCT(&val);
    if (rc == PMIX_SUCCESS) rc = PMIx_Commit();
    if (rc != PMIX_SUCCESS) Report("put", false, "put/commit failed", rc);
}

static bool GetWho(const char *nspace, pmix_rank_t rank, const char *want) {
    pmix_proc_t proc;
    pmix_value_t *val = NULL;
    PMIX_LOAD_PROCID(&proc, nspace, rank);
    pmix_status_t rc = PMIx_Get(&proc, "who", NULL, 0, &val);
    bool ok = rc == PMIX_SUCCESS && val->type == PMIX_STRING && strcmp(val->data.string, want) == 0;
    if (!ok) printf("  get %s:%u who: %s\n", nspace, rank, PMIx_Error_string(rc));
    if (val) PMIX_VALUE_RELEASE(val);
    return ok;
}

/* Whether every parent and child's "who" value reads right. */
static bool GetEveryWho(const char *parent_ns, const char *child_ns, uint32_t nparents) {
    bool ok = true;
    char want[64];
    for (pmix_rank_t r = 0; r < nparents; ++r) {
        snprintf(want, sizeof want, "parent %u", r);
        ok = GetWho(parent_ns, r, want) && ok;
    }
    for (pmix_rank_t r = 0; r < NCHILDREN; ++r) {
        snprintf(want, sizeof want, "child %u", r);
        ok = GetWho(child_ns, r, want) && ok;
    }
    return ok;
}

/* Connect, a fence with data over both jobs, reading the other job's
 * values, disconnect: the same sequence in every parent and child. */
static void TogetherWith(const char *parent_ns, const char *child_ns, uint32_t nparents) {
    pmix_proc_t procs[2];
    PMIX_LOAD_PROCID(&procs[0], parent_ns, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&procs[1], child_ns, PMIX_RANK_WILDCARD);
    PutWho();
    pmix_status_t rc = PMIx_Connect(procs, 2, NULL, 0);
    Report("connect", rc == PMIX_SUCCESS, "connect failed", rc);
    /* Everyone committed before connecting: the other job's values come
     * from the server without a fence (direct modex across namespaces). */
    Report("get-connected", GetEveryWho(parent_ns, child_ns, nparents),
           "values of the other job after connect", PMIX_ERR_NOT_FOUND);
    pmix_info_t collect;
    bool yes = true;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    rc = PMIx_Fence(procs, 2, &collect, 1);
    PMIX_INFO_DESTRUCT(&collect);
    Report("fence-both", rc == PMIX_SUCCESS, "fence over both jobs failed", rc);
    Report("get-across", GetEveryWho(parent_ns, child_ns, nparents), "values of the other job",
           PMIX_ERR_NOT_FOUND);
    rc = PMIx_Disconnect(procs, 2, NULL, 0);
    Report("disconnect", rc == PMIX_SUCCESS, "disconnect failed", rc);
}

static uint32_t GetU32(const char *nspace, pmix_rank_t rank, const char *key) {
    pmix_proc_t proc;
    pmix_value_t *val = NULL;
    uint32_t out = 0;
    PMIX_LOAD_PROCID(&proc, nspace, rank);
    if (PMIx_Get(&proc, key, NULL, 0, &val) == PMIX_SUCCESS && val->type == PMIX_UINT32)
        out = val->data.uint32;
    if (val) PMIX_VALUE_RELEASE(val);
    return out;
}

/* --- the roles ---------------------------------------------------------------- */

/* Rank 0 spawns and hands the children's namespace to the other parents. */
static void ShareChildNspace(pmix_nspace_t child) {
    pmix_proc_t rank0;
    pmix_value_t val, *got = NULL;
    if (me.rank == 0) {
        PMIX_VALUE_LOAD(&val, child, PMIX_STRING);
        (void)PMIx_Put(PMIX_LOCAL, "child-ns", &val);
        PMIX_VALUE_DESTRUCT(&val);
        (void)PMIx_Commit();
    }
    pmix_status_t rc = PMIx_Fence(NULL, 0, NULL, 0);
    if (me.rank == 0) return;
    PMIX_LOAD_PROCID(&rank0, me.nspace, 0);
    if (rc == PMIX_SUCCESS) rc = PMIx_Get(&rank0, "child-ns", NULL, 0, &got);
    if (rc == PMIX_SUCCESS && got->type == PMIX_STRING) PMIX_LOAD_NSPACE(child, got->data.string);
    if (got) PMIX_VALUE_RELEASE(got);
    Report("child-ns", rc == PMIX_SUCCESS, "rank 0's child namespace", rc);
}

static void Parent(const char *self) {
    pmix_nspace_t child;
    memset(child, 0, sizeof child);
    uint32_t nparents = GetU32(me.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    if (me.rank == 0) {
        RegisterJobEnd();
        CheckSpawnFails("spawn-missing", "/nonexistent/pmixrun-spawn-missing",
                        PMIX_ERR_JOB_EXE_NOT_FOUND);
        CheckSpawnFails("spawn-not-executable", "/", PMIX_ERR_JOB_APP_NOT_EXECUTABLE);
        pmix_status_t rc = SpawnChildren(self, child);
        Report("spawn", rc == PMIX_SUCCESS && child[0] != '\0', "spawn failed", rc);
        printf("parent spawned %s\n", child);
    }
    ShareChildNspace(child);
    TogetherWith(me.nspace, child, nparents);
    if (me.rank != 0) return;
    bool ended = WaitJobEnd(child);
    Report("job-end", ended && ended_status == PMIX_SUCCESS, "no job-end event, or not a success",
           ended_status);
}

static void Child(void) {
    pmix_proc_t proc;
    pmix_value_t *val = NULL;
    PMIX_LOAD_PROCID(&proc, me.nspace, me.rank);
    pmix_status_t rc = PMIx_Get(&proc, PMIX_SPAWNED, NULL, 0, &val);
    Report("spawned", rc == PMIX_SUCCESS && val->type == PMIX_BOOL && val->data.flag,
           "PMIX_SPAWNED", rc);
    if (val) PMIX_VALUE_RELEASE(val);
    val = NULL;
    pmix_proc_t parent = {{0}, PMIX_RANK_UNDEF};
    rc = PMIx_Get(&proc, PMIX_PARENT_ID, NULL, 0, &val);
    if (rc == PMIX_SUCCESS && val->type == PMIX_PROC) parent = *val->data.proc;
    if (val) PMIX_VALUE_RELEASE(val);
    /* pmixrun names jobs <base>@<n>: the child shares the parent's base. */
    const char *at = strrchr(parent.nspace, '@');
    size_t plen = at != NULL ? (size_t)(at - parent.nspace) + 1 : 0;
    bool nested = plen > 0 && strncmp(me.nspace, parent.nspace, plen) == 0 &&
                  strcmp(me.nspace, parent.nspace) != 0;
    Report("parent-id", rc == PMIX_SUCCESS && parent.rank == 0 && nested, "PMIX_PARENT_ID", rc);
    uint32_t size = GetU32(me.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    Report("job-size", size == NCHILDREN, "PMIX_JOB_SIZE", PMIX_ERR_BAD_PARAM);
    const char *var = getenv(ENV_NAME);
    Report("env", var != NULL && strcmp(var, ENV_VALUE) == 0, "PMIX_SET_ENVAR", PMIX_ERR_NOT_FOUND);
    char cwd[4096];
    bool in_wdir = getcwd(cwd, sizeof cwd) != NULL && strcmp(cwd, CHILD_WDIR) == 0;
    Report("wdir", in_wdir, "PMIX_WDIR", PMIX_ERR_NOT_FOUND);
    uint32_t nparents = GetU32(parent.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    Report("parent-job-size", nparents > 0, "the parent job's size", PMIX_ERR_NOT_FOUND);
    TogetherWith(parent.nspace, me.nspace, nparents);
}

/* Spawns one child (argv[1] `arg`) asking for its job-end event, and with
 * the job attribute `extra` (destructed here); reports "spawn" and returns
 * whether the child's job-end event came. */
static bool SpawnOneUntilEnd(const char *self, const char *arg, pmix_info_t *extra,
                             pmix_nspace_t child) {
    pmix_info_t info[2];
    bool yes = true;
    RegisterJobEnd();
    PMIX_INFO_LOAD(&info[0], PMIX_NOTIFY_COMPLETION, &yes, PMIX_BOOL);
    info[1] = *extra;
    pmix_status_t rc = Spawn(self, arg, 1, info, 2, child);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    Report("spawn", rc == PMIX_SUCCESS, "spawn failed", rc);
    return rc == PMIX_SUCCESS && WaitJobEnd(child);
}

/* One "exit 3" child; its job-end event names it. */
static void FailChild(const char *self) {
    pmix_nspace_t child;
    pmix_status_t code = PMIX_EVENT_PROC_TERMINATED;
    if (PMIx_Register_event_handler(&code, 1, NULL, 0, OnProcEnd, NULL, NULL) < 0)
        Report("register-proc-end", false, "registration failed", PMIX_ERROR);
    pmix_info_t abnormal;
    bool yes = true;
    PMIX_INFO_LOAD(&abnormal, PMIX_NOTIFY_PROC_ABNORMAL_TERMINATION, &yes, PMIX_BOOL);
    bool ended = SpawnOneUntilEnd(self, "exit3", &abnormal, child);
    Report("job-end-failed",
           ended && ended_status == PMIX_ERR_JOB_NON_ZERO_TERM && ended_exit_code == 3 &&
               ended_rank == 0,
           "job-end event of the failed child", ended_status);
    pthread_mutex_lock(&lock); /* the process event comes before the job's */
    bool proc_ok = proc_ended && PMIX_CHECK_NSPACE(proc_ended_nspace, child) && proc_ended_code == 3;
    pthread_mutex_unlock(&lock);
    Report("proc-end-abnormal", proc_ok, "PMIX_EVENT_PROC_TERMINATED of the failed child",
           PMIX_ERR_NOT_FOUND);
}

/* One child that sleeps; this parent then exits with 5 (pmixrun must end the
 * child too). */
static void Orphan(const char *self) {
    pmix_nspace_t child;
    pmix_status_t rc = Spawn(self, "sleep", 1, NULL, 0, child);
    Report("spawn", rc == PMIX_SUCCESS, "spawn failed", rc);
}

/* One "sleep" child under PMIX_JOB_TIMEOUT 1: its job ends, canceled. */
static void JobTimeout(const char *self) {
    pmix_nspace_t child;
    pmix_info_t job_timeout;
    int seconds = 1;
    PMIX_INFO_LOAD(&job_timeout, PMIX_JOB_TIMEOUT, &seconds, PMIX_INT);
    bool ended = SpawnOneUntilEnd(self, "sleep", &job_timeout, child);
    Report("job-end-timeout", ended && ended_status == PMIX_ERR_JOB_CANCELED,
           "job-end event of the timed-out child", ended_status);
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    role = "parent";
    if (strcmp(argv[1], "parent") != 0 && strcmp(argv[1], "failchild") != 0 &&
        strcmp(argv[1], "orphan") != 0 && strcmp(argv[1], "jobtimeout") != 0)
        role = "child";
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) return fprintf(stderr, "init: %s\n", PMIx_Error_string(rc)), 2;
    if (strcmp(argv[1], "parent") == 0) Parent(argv[0]);
    else if (strcmp(argv[1], "child") == 0) Child();
    else if (strcmp(argv[1], "failchild") == 0) FailChild(argv[0]);
    else if (strcmp(argv[1], "orphan") == 0) Orphan(argv[0]);
    else if (strcmp(argv[1], "jobtimeout") == 0) JobTimeout(argv[0]);
    else if (strcmp(argv[1], "sleep") == 0) sleep(30); /* pmixrun must kill it */
    PMIx_Finalize(NULL, 0);
    if (strcmp(argv[1], "exit3") == 0) return 3;
    if (strcmp(argv[1], "orphan") == 0) return 5;
    return failures == 0 ? 0 : 1;
}
