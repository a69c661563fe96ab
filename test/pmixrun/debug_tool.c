/*
 * debug_tool PROG NPROCS DAEMON: a debugger front end for debugger.sh,
 * attached to a running pmixrun (PMIXX_TEST_SERVER_PID). It
 *   - asks for PMIX_QUERY_DEBUG_SUPPORT (must list the stop directives),
 *   - spawns NPROCS of PROG with PMIX_DEBUG_STOP_IN_INIT and
 *     PMIX_NOTIFY_COMPLETION, and hears PMIX_LAUNCH_COMPLETE for it,
 *   - hears pmixrun's PMIX_READY_FOR_DEBUG for the job, once: PMIX_NSPACE
 *     the job, PMIX_EVENT_AFFECTED_PROCS all NPROCS processes, breakpoint
 *     "pmix-init",
 *   - with PMIXX_TEST_GATE=FILE, waits (60 s at most) for FILE to exist,
 *   - spawns its daemons, DAEMON, with PMIX_DEBUGGER_DAEMONS,
 *     PMIX_DEBUG_TARGET (the job) and PMIX_DEBUG_DAEMONS_PER_NODE 1, which
 *     release the job (debug_daemon.c),
 *   - hears PMIX_EVENT_JOB_END of both jobs.
 * PMIXX_TEST_STOP=exec: PMIX_DEBUG_STOP_ON_EXEC instead (no breakpoint in
 * the event); =app: PMIX_DEBUG_STOP_IN_APP (the processes announce
 * breakpoint "app-wait", debug_client.c).
 * PMIXX_TEST_COSPAWN=1 (non-empty): the daemons are co-spawned in the job's own request
 * (PMIX_COSPAWN_APP, no target): each is a job of its own, the job's size
 * is NPROCS (PMIX_JOB_SIZE as the tool reads it).
 * PMIXX_TEST_LISTEN=NSPACE: only hears PMIX_READY_FOR_DEBUG for the job
 * NSPACE of NPROCS processes (pmixrun's primary job; no breakpoint: stopped
 * on exec) and ends.
 * Prints "PASS tool 0 <check>" / "FAIL ..." lines (client_util.h) and
 * "JOB <nspace>" for the job it spawned. Every wait is bounded (60 s).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pmix_tool.h>

#include "client_util.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static char app_ns[PMIX_MAX_NSLEN + 1], daemon_ns[PMIX_MAX_NSLEN + 1];
static bool registered;
/* The PMIX_READY_FOR_DEBUG events heard. */
typedef struct {
    char ns[PMIX_MAX_NSLEN + 1];
    char breakpoint[64];
    bool has_breakpoint;
    int nprocs;  /* of the affected processes, those of ns */
} Ready;
static struct {
    Ready r[8];
    int n;
} readies;
/* The namespaces named by PMIX_LAUNCH_COMPLETE and PMIX_EVENT_JOB_END so far
 * (they may come before PMIx_Spawn returns the namespace). */
#define MAX_JOBS 8
typedef struct {
    char ns[MAX_JOBS][PMIX_MAX_NSLEN + 1];
    int n;
} JobList;
static JobList launched, ended;
static int nprocs;
static const char *want_breakpoint = "pmix-init";  /* NULL: none */

static const char *NspaceIn(const pmix_info_t info[], size_t ninfo) {
    for (size_t i = 0; i < ninfo; ++i)
        if (PMIX_CHECK_KEY(&info[i], PMIX_NSPACE) && info[i].value.type == PMIX_STRING)
            return info[i].value.data.string;
    return "";
}

static void OnEvent(size_t id, pmix_status_t status, const pmix_proc_t *source,
                    pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                    pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata) {
    (void)id, (void)source, (void)results, (void)nresults;
    pthread_mutex_lock(&lock);
    if (status == PMIX_LAUNCH_COMPLETE && launched.n < MAX_JOBS)
        PMIX_LOAD_NSPACE(launched.ns[launched.n++], NspaceIn(info, ninfo));
    if (status == PMIX_READY_FOR_DEBUG && readies.n < MAX_JOBS) {
        Ready *r = &readies.r[readies.n++];
        PMIX_LOAD_NSPACE(r->ns, NspaceIn(info, ninfo));
        r->breakpoint[0] = '\0';
        r->has_breakpoint = false;
        r->nprocs = 0;
        for (size_t i = 0; i < ninfo; ++i) {
            if (PMIX_CHECK_KEY(&info[i], PMIX_BREAKPOINT) && info[i].value.type == PMIX_STRING) {
                r->has_breakpoint = true;
                snprintf(r->breakpoint, sizeof r->breakpoint, "%s", info[i].value.data.string);
            }
            if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROCS) &&
                info[i].value.type == PMIX_DATA_ARRAY && info[i].value.data.darray != NULL &&
                info[i].value.data.darray->type == PMIX_PROC) {
                const pmix_proc_t *procs = info[i].value.data.darray->array;
                for (size_t p = 0; p < info[i].value.data.darray->size; ++p)
                    if (PMIX_CHECK_NSPACE(procs[p].nspace, r->ns)) r->nprocs++;
            }
        }
    }
    if (status == PMIX_EVENT_JOB_END && ended.n < MAX_JOBS)
        PMIX_LOAD_NSPACE(ended.ns[ended.n++], NspaceIn(info, ninfo));
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    if (cbfunc) cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

static void OnRegistered(pmix_status_t status, size_t ref, void *cbdata) {
    (void)ref, (void)cbdata;
    pthread_mutex_lock(&lock);
    registered = status == PMIX_SUCCESS;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
}

/* The first namespace of `list` that is not `other` (lock held), or NULL. */
static const char *OtherIn(const JobList *list, const char *other) {
    for (int i = 0; i < list->n; ++i)
        if (!PMIX_CHECK_NSPACE(list->ns[i], other)) return list->ns[i];
    return NULL;
}

static bool InList(const JobList *list, const char *ns) {
    for (int i = 0; i < list->n; ++i)
        if (PMIX_CHECK_NSPACE(list->ns[i], ns)) return true;
    return false;
}

/* Waits (60 s at most) until `list` names `ns`. */
static bool WaitIn(const JobList *list, const char *ns) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 60;
    pthread_mutex_lock(&lock);
    while (!InList(list, ns))
        if (pthread_cond_timedwait(&cond, &lock, &until) != 0) break;
    bool ok = InList(list, ns);
    pthread_mutex_unlock(&lock);
    return ok;
}

static bool WaitFor(const bool *flag) {
    pthread_mutex_lock(&lock);
    bool ok = WaitFlagLocked(&lock, &cond, flag, 60);
    pthread_mutex_unlock(&lock);
    return ok;
}

static bool AnyReady(void) {
    for (int i = 0; i < readies.n; ++i)
        if (PMIX_CHECK_NSPACE(readies.r[i].ns, app_ns)) return true;
    return false;
}

/* One PMIX_READY_FOR_DEBUG for the job, naming its nprocs processes. */
static void CheckReady(void) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 60;
    pthread_mutex_lock(&lock);
    while (!AnyReady())
        if (pthread_cond_timedwait(&cond, &lock, &until) != 0) break;
    const bool heard = AnyReady();
    pthread_mutex_unlock(&lock);
    Report("ready_for_debug", heard, "no PMIX_READY_FOR_DEBUG", PMIX_ERR_TIMEOUT);
    sleep(1); /* a second announcement would have come by now */
    int events = 0, bad = 0, procs = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < readies.n; ++i) {
        const Ready *r = &readies.r[i];
        if (!PMIX_CHECK_NSPACE(r->ns, app_ns)) continue;
        events++;
        procs = r->nprocs;
        if (want_breakpoint == NULL ? r->has_breakpoint
                                    : !r->has_breakpoint || strcmp(r->breakpoint, want_breakpoint) != 0)
            bad++;
    }
    pthread_mutex_unlock(&lock);
    Report("ready_once", events == 1, "not exactly one PMIX_READY_FOR_DEBUG", PMIX_ERROR);
    Report("ready_procs", procs == nprocs, "the event does not name every process", PMIX_ERROR);
    Report("breakpoint", bad == 0, "the wrong breakpoint", PMIX_ERROR);
}

/* PMIX_JOB_SIZE of `ns`, as this tool reads it (-1: none). */
/* PMIX_JOB_SIZE of ns, -1 when the Get fails (*rc says why) or answers
 * another type (-2). */
static int JobSize(const char *ns, pmix_status_t *rc) {
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, ns, PMIX_RANK_WILDCARD);
    pmix_value_t *val = NULL;
    int size = -1;
    *rc = PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &val);
    if (*rc == PMIX_SUCCESS && val != NULL)
        size = val->type == PMIX_UINT32 ? (int)val->data.uint32 : -2;
    if (val != NULL) PMIX_VALUE_RELEASE(val);
    return size;
}

static bool WaitForFile(const char *path) {
    for (int i = 0; i < 600; ++i) {
        if (access(path, F_OK) == 0) return true;
        struct timespec tenth = {0, 100000000};
        nanosleep(&tenth, NULL);
    }
    return false;
}

static void CheckDebugSupport(void) {
    pmix_query_t query;
    PMIX_QUERY_CONSTRUCT(&query);
    (void)PMIx_Argv_append_nosize(&query.keys, PMIX_QUERY_DEBUG_SUPPORT);
    pmix_info_t *results = NULL;
    size_t n = 0;
    pmix_status_t rc = PMIx_Query_info(&query, 1, &results, &n);
    PMIX_QUERY_DESTRUCT(&query);
    const char *list = rc == PMIX_SUCCESS && n == 1 && results[0].value.type == PMIX_STRING
                           ? results[0].value.data.string
                           : "";
    bool ok = strstr(list, PMIX_DEBUG_STOP_IN_INIT) != NULL &&
              strstr(list, PMIX_DEBUG_STOP_ON_EXEC) != NULL &&
              strstr(list, PMIX_DEBUG_STOP_IN_APP) != NULL &&
              strstr(list, PMIX_DEBUG_TARGET) != NULL;
    Report("debug_support", ok, list, rc);
    if (results != NULL) PMIX_INFO_FREE(results, n);
}

/* One request: NPROCS of PROG and, co-spawned (PMIX_COSPAWN_APP), the
 * debugger's daemons (PMIX_DEBUGGER_DAEMONS, one per node, no target: the
 * launcher gives them the job of the request). */
static pmix_status_t SpawnWithDaemons(const char *prog, int procs, const char *daemon,
                                      pmix_info_t *info, size_t ninfo, char *nspace) {
    pmix_app_t apps[2];
    PMIX_APP_CONSTRUCT(&apps[0]);
    PMIX_APP_CONSTRUCT(&apps[1]);
    apps[0].cmd = strdup(prog);
    (void)PMIx_Argv_append_nosize(&apps[0].argv, prog);
    apps[0].maxprocs = procs;
    apps[1].cmd = strdup(daemon);
    (void)PMIx_Argv_append_nosize(&apps[1].argv, daemon);
    apps[1].maxprocs = 0; /* the launcher's choice: one per node */
    uint16_t one = 1;
    PMIX_INFO_CREATE(apps[1].info, 3);
    apps[1].ninfo = 3;
    PMIX_INFO_LOAD(&apps[1].info[0], PMIX_COSPAWN_APP, NULL, PMIX_BOOL);
    PMIX_INFO_LOAD(&apps[1].info[1], PMIX_DEBUGGER_DAEMONS, NULL, PMIX_BOOL);
    PMIX_INFO_LOAD(&apps[1].info[2], PMIX_DEBUG_DAEMONS_PER_NODE, &one, PMIX_UINT16);
    pmix_nspace_t ns;
    pmix_status_t rc = PMIx_Spawn(info, ninfo, apps, 2, ns);
    PMIX_APP_DESTRUCT(&apps[0]);
    PMIX_APP_DESTRUCT(&apps[1]);
    pthread_mutex_lock(&lock);
    if (rc == PMIX_SUCCESS) PMIX_LOAD_NSPACE(nspace, ns);
    pthread_mutex_unlock(&lock);
    return rc;
}

static pmix_status_t SpawnOne(const char *prog, int procs, pmix_info_t *info, size_t ninfo,
                              char *nspace) {
    pmix_app_t app;
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup(prog);
    (void)PMIx_Argv_append_nosize(&app.argv, prog);
    app.maxprocs = procs;
    pmix_nspace_t ns;
    pmix_status_t rc = PMIx_Spawn(info, ninfo, &app, 1, ns);
    PMIX_APP_DESTRUCT(&app);
    pthread_mutex_lock(&lock);
    if (rc == PMIX_SUCCESS) PMIX_LOAD_NSPACE(nspace, ns);
    pthread_mutex_unlock(&lock);
    return rc;
}

int main(int argc, char **argv) {
    role = "tool";
    if (argc != 4) {
        fprintf(stderr, "usage: debug_tool PROG NPROCS DAEMON\n");
        return 2;
    }
    nprocs = atoi(argv[2]);
    const char *pid_text = getenv("PMIXX_TEST_SERVER_PID");
    pid_t server = pid_text != NULL ? (pid_t)atol(pid_text) : 0;
    pmix_info_t init;
    PMIX_INFO_LOAD(&init, PMIX_SERVER_PIDINFO, &server, PMIX_PID);
    pmix_status_t rc = PMIx_tool_init(&me, &init, 1);
    PMIX_INFO_DESTRUCT(&init);
    if (rc != PMIX_SUCCESS) {
        printf("FAIL tool ? tool_init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    CheckDebugSupport();
    const char *listen = getenv("PMIXX_TEST_LISTEN");
    if (listen != NULL) {  /* set before the handler hears the cached event */
        PMIX_LOAD_NSPACE(app_ns, listen);
        want_breakpoint = NULL;
    }
    pmix_status_t codes[] = {PMIX_LAUNCH_COMPLETE, PMIX_READY_FOR_DEBUG, PMIX_EVENT_JOB_END};
    PMIx_Register_event_handler(codes, 3, NULL, 0, OnEvent, OnRegistered, NULL);
    Report("registered", WaitFor(&registered), "event registration", PMIX_ERR_TIMEOUT);

    if (listen != NULL) {  /* the primary job's announcement */
        CheckReady();
        rc = PMIx_tool_finalize();
        Report("finalize", rc == PMIX_SUCCESS, "PMIx_tool_finalize", rc);
        return failures == 0 ? 0 : 1;
    }
    const char *stop = getenv("PMIXX_TEST_STOP");
    const bool in_app = stop != NULL && strcmp(stop, "app") == 0;
    const bool on_exec = stop != NULL && strcmp(stop, "exec") == 0;
    want_breakpoint = in_app ? "app-wait" : on_exec ? NULL : "pmix-init";
    pmix_info_t job[2];
    PMIX_INFO_LOAD(&job[0],
                   in_app    ? PMIX_DEBUG_STOP_IN_APP
                   : on_exec ? PMIX_DEBUG_STOP_ON_EXEC
                             : PMIX_DEBUG_STOP_IN_INIT,
                   NULL, PMIX_BOOL);
    PMIX_INFO_LOAD(&job[1], PMIX_NOTIFY_COMPLETION, NULL, PMIX_BOOL);
    const char *co = getenv("PMIXX_TEST_COSPAWN");
    const bool cospawn = co != NULL && co[0] != '\0';
    rc = cospawn ? SpawnWithDaemons(argv[1], nprocs, argv[3], job, 2, app_ns)
                 : SpawnOne(argv[1], nprocs, job, 2, app_ns);
    PMIX_INFO_DESTRUCT(&job[0]);
    PMIX_INFO_DESTRUCT(&job[1]);
    Report("spawn_app", rc == PMIX_SUCCESS, "PMIx_Spawn", rc);
    if (rc == PMIX_SUCCESS) {
        printf("JOB %s\n", app_ns);
        fflush(stdout);
        Report("launch_complete", WaitIn(&launched, app_ns), "no PMIX_LAUNCH_COMPLETE",
               PMIX_ERR_TIMEOUT);
        if (cospawn) {
            /* the daemons' job: launched too, a job of its own */
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_sec += 60;
            pthread_mutex_lock(&lock);
            while (OtherIn(&launched, app_ns) == NULL)
                if (pthread_cond_timedwait(&cond, &lock, &until) != 0) break;
            const char *other = OtherIn(&launched, app_ns);
            if (other != NULL) PMIX_LOAD_NSPACE(daemon_ns, other);
            pthread_mutex_unlock(&lock);
            Report("cospawn_launched", other != NULL, "no PMIX_LAUNCH_COMPLETE for the daemons",
                   PMIX_ERR_NOT_FOUND);
            pmix_status_t app_rc, daemon_rc;
            int app_size = JobSize(app_ns, &app_rc), daemon_size = JobSize(daemon_ns, &daemon_rc);
            char why[2 * PMIX_MAX_NSLEN + 200];
            snprintf(why, sizeof why,
                     "the co-spawned app counts in the job's size: %s has %d (%s), want %d; "
                     "%s has %d (%s), want 1",
                     app_ns, app_size, PMIx_Error_string(app_rc), nprocs, daemon_ns, daemon_size,
                     PMIx_Error_string(daemon_rc));
            Report("job_sizes", app_size == nprocs && daemon_size == 1, why, PMIX_ERROR);
        }
        CheckReady();
        const char *gate = getenv("PMIXX_TEST_GATE");
        if (gate != NULL) Report("gate", WaitForFile(gate), gate, PMIX_ERR_TIMEOUT);
        if (!cospawn) {
            pmix_info_t dmn[4];
            pmix_proc_t target;
            uint16_t one = 1;
            PMIX_LOAD_PROCID(&target, app_ns, PMIX_RANK_WILDCARD);
            PMIX_INFO_LOAD(&dmn[0], PMIX_DEBUGGER_DAEMONS, NULL, PMIX_BOOL);
            PMIX_INFO_LOAD(&dmn[1], PMIX_DEBUG_TARGET, &target, PMIX_PROC);
            PMIX_INFO_LOAD(&dmn[2], PMIX_DEBUG_DAEMONS_PER_NODE, &one, PMIX_UINT16);
            PMIX_INFO_LOAD(&dmn[3], PMIX_NOTIFY_COMPLETION, NULL, PMIX_BOOL);
            rc = SpawnOne(argv[3], 5, dmn, 4, daemon_ns); /* per node 1 wins over 5 */
            for (int i = 0; i < 4; ++i) PMIX_INFO_DESTRUCT(&dmn[i]);
            Report("spawn_daemons", rc == PMIX_SUCCESS, "PMIx_Spawn", rc);
        }
        Report("app_ended", WaitIn(&ended, app_ns), "the job did not end", PMIX_ERR_TIMEOUT);
        if (rc == PMIX_SUCCESS)
            Report("daemons_ended", WaitIn(&ended, daemon_ns), "the daemons did not end",
                   PMIX_ERR_TIMEOUT);
    }
    rc = PMIx_tool_finalize();
    Report("finalize", rc == PMIX_SUCCESS, "PMIx_tool_finalize", rc);
    return failures == 0 ? 0 : 1;
}
