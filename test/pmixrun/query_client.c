/*
 * PMIx_Query_info(_nb), PMIx_Resolve_peers/nodes and PMIx_Log(_nb) under
 * pmixrun (public pmix.h API only). Run by test/pmixrun/query.sh as:
 * pmixrun -n N query_client (N >= 3). Every check prints
 * "PASS <rank> <name>" or "FAIL <rank> <name>: why"; the script asserts
 * which PASS lines each rank must print, that there is no FAIL, and that
 * the log lines reached pmixrun's stderr/stdout.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pmix.h>

#include "test/pmixrun/client_util.h"

static uint32_t nprocs;
static char host[PMIX_MAX_NSLEN + 1];

/* --- queries ------------------------------------------------------------------ */

typedef struct {
    pmix_status_t rc;
    pmix_info_t *info;
    size_t ninfo;
} Result;

/* One query of up to three keys, with up to two qualifiers (key NULL: none). */
static Result Ask(const char *k1, const char *k2, const char *k3, pmix_info_t *qual, size_t nqual) {
    char *keys[4] = {(char *)k1, (char *)k2, (char *)k3, NULL};
    pmix_query_t q;
    PMIX_QUERY_CONSTRUCT(&q);
    q.keys = keys;
    q.qualifiers = qual;
    q.nqual = nqual;
    Result r = {PMIX_ERROR, NULL, 0};
    r.rc = PMIx_Query_info(&q, 1, &r.info, &r.ninfo);
    return r;
}

static void Release(Result *r) {
    if (r->info != NULL) PMIX_INFO_FREE(r->info, r->ninfo);
}

static bool KeyIs(const pmix_info_t *i, const char *key) { return strcmp(i->key, key) == 0; }

static void NsQualifier(pmix_info_t *qual, const char *nspace) {
    PMIX_INFO_LOAD(qual, PMIX_NSPACE, nspace, PMIX_STRING);
}

static void CheckBadArgs(void) {
    pmix_info_t *info = NULL;
    size_t n = 0;
    pmix_query_t q;
    PMIX_QUERY_CONSTRUCT(&q);
    bool ok = PMIx_Query_info(NULL, 0, &info, &n) == PMIX_ERR_BAD_PARAM &&
              PMIx_Query_info(&q, 1, &info, &n) == PMIX_ERR_BAD_PARAM &&
              PMIx_Query_info_nb(&q, 1, NULL, NULL) == PMIX_ERR_BAD_PARAM &&
              PMIx_Log(NULL, 0, NULL, 0) == PMIX_ERR_BAD_PARAM;
    Report("bad-args", ok, "NULL queries / no keys / no log data accepted", PMIX_ERR_BAD_PARAM);
}

static void CheckCache(void) {
    Result r = Ask(PMIX_JOB_SIZE, NULL, NULL, NULL, 0);
    Report("cache-job-size",
           r.rc == PMIX_SUCCESS && r.ninfo == 1 && KeyIs(&r.info[0], PMIX_JOB_SIZE) &&
               r.info[0].value.type == PMIX_UINT32 && r.info[0].value.data.uint32 == nprocs,
           "job size", r.rc);
    Release(&r);

    pmix_info_t rf;
    PMIX_INFO_LOAD(&rf, PMIX_QUERY_REFRESH_CACHE, NULL, PMIX_BOOL);
    r = Ask(PMIX_JOB_SIZE, NULL, NULL, &rf, 1);
    Report("refresh-job-size",
           r.rc == PMIX_SUCCESS && r.ninfo == 1 && r.info[0].value.data.uint32 == nprocs,
           "job size from the server", r.rc);
    Release(&r);

    pmix_info_t pq[2];
    NsQualifier(&pq[0], me.nspace);
    pmix_rank_t zero = 0;
    PMIX_INFO_LOAD(&pq[1], PMIX_RANK, &zero, PMIX_PROC_RANK);
    r = Ask(PMIX_HOSTNAME, NULL, NULL, pq, 2);
    Report("proc-hostname",
           r.rc == PMIX_SUCCESS && r.ninfo == 1 && r.info[0].value.type == PMIX_STRING &&
               strcmp(r.info[0].value.data.string, host) == 0,
           "rank 0's hostname", r.rc);
    Release(&r);
    PMIX_INFO_DESTRUCT(&pq[0]);
}

static void CheckServer(void) {
    Result r = Ask(PMIX_QUERY_NAMESPACES, NULL, NULL, NULL, 0);
    Report("server-namespaces",
           r.rc == PMIX_SUCCESS && r.ninfo == 1 && r.info[0].value.type == PMIX_STRING &&
               strstr(r.info[0].value.data.string, me.nspace) != NULL,
           "own namespace listed", r.rc);
    Release(&r);

    r = Ask(PMIX_QUERY_NAMESPACE_INFO, NULL, NULL, NULL, 0);
    bool found = false;
    if (r.rc == PMIX_SUCCESS && r.ninfo == 1 && r.info[0].value.type == PMIX_DATA_ARRAY) {
        pmix_data_array_t *outer = r.info[0].value.data.darray;
        pmix_info_t *jobs = outer->array;
        for (size_t i = 0; outer->type == PMIX_INFO && i < outer->size; ++i) {
            pmix_data_array_t *inner = jobs[i].value.data.darray;
            pmix_info_t *kv = inner != NULL ? inner->array : NULL;
            if (kv != NULL && KeyIs(&kv[0], PMIX_NSPACE) &&
                strcmp(kv[0].value.data.string, me.nspace) == 0)
                found = true;
        }
    }
    Report("server-nsinfo", found, "own namespace in the namespace info", r.rc);
    Release(&r);

    r = Ask(PMIX_QUERY_AVAIL_SERVERS, NULL, NULL, NULL, 0);
    Report("server-avail",
           r.rc == PMIX_SUCCESS && r.ninfo == 1 && r.info[0].value.type == PMIX_DATA_ARRAY &&
               r.info[0].value.data.darray->size == 1,
           "this server listed", r.rc);
    Release(&r);

    r = Ask(PMIX_QUERY_STABLE_ABI_VERSION, NULL, NULL, NULL, 0);
    Report("abi-version",
           r.rc == PMIX_SUCCESS && r.ninfo == 1 && r.info[0].value.type == PMIX_STRING,
           "ABI version", r.rc);
    Release(&r);
}

static void CheckProcTables(void) {
    pmix_info_t qual;
    NsQualifier(&qual, me.nspace);
    const char *keys[2] = {PMIX_QUERY_PROC_TABLE, PMIX_QUERY_LOCAL_PROC_TABLE};
    const char *names[2] = {"server-proc-table", "server-local-proc-table"};
    for (int t = 0; t < 2; ++t) {
        Result r = Ask(keys[t], NULL, NULL, &qual, 1);
        bool ok = r.rc == PMIX_SUCCESS && r.ninfo == 1 && r.info[0].value.type == PMIX_DATA_ARRAY;
        pmix_data_array_t *a = ok ? r.info[0].value.data.darray : NULL;
        ok = ok && a->type == PMIX_PROC_INFO && a->size == nprocs;
        for (size_t i = 0; ok && i < a->size; ++i) {
            pmix_proc_info_t *p = &((pmix_proc_info_t *)a->array)[i];
            ok = p->proc.rank == i && strcmp(p->proc.nspace, me.nspace) == 0 &&
                 p->hostname != NULL && strcmp(p->hostname, host) == 0;
            if (ok && i == me.rank)
                ok = p->pid == getpid() && p->state == PMIX_PROC_STATE_CONNECTED;
        }
        Report(names[t], ok, "one entry per rank, in order, mine with my pid", r.rc);
        Release(&r);
    }
    PMIX_INFO_DESTRUCT(&qual);
}

static void CheckHostAndMerge(void) {
    pmix_info_t qual;
    NsQualifier(&qual, me.nspace);
    Result r = Ask(PMIX_QUERY_JOB_STATUS, NULL, NULL, &qual, 1);
    Report("host-job-status",
           r.rc == PMIX_SUCCESS && r.ninfo == 1 && r.info[0].value.type == PMIX_STATUS &&
               r.info[0].value.data.status == PMIX_SUCCESS,
           "pmixrun's job status", r.rc);
    Release(&r);

    r = Ask(PMIX_JOB_SIZE, PMIX_QUERY_NAMESPACES, PMIX_QUERY_JOB_STATUS, &qual, 1);
    Report("merged",
           r.rc == PMIX_SUCCESS && r.ninfo == 3 && KeyIs(&r.info[0], PMIX_JOB_SIZE) &&
               KeyIs(&r.info[1], PMIX_QUERY_NAMESPACES) && KeyIs(&r.info[2], PMIX_QUERY_JOB_STATUS),
           "cache + server + host answers in key order", r.rc);
    Release(&r);
    PMIX_INFO_DESTRUCT(&qual);

    r = Ask(PMIX_JOB_SIZE, "test.no.such.key", NULL, NULL, 0);
    Report("partial",
           r.rc == PMIX_ERR_PARTIAL_SUCCESS && r.ninfo == 1 && KeyIs(&r.info[0], PMIX_JOB_SIZE),
           "one of two keys", r.rc);
    Release(&r);

    r = Ask("test.no.such.key", NULL, NULL, NULL, 0);
    Report("not-found", r.rc == PMIX_ERR_NOT_FOUND && r.info == NULL && r.ninfo == 0,
           "unknown key", r.rc);
    Release(&r);

    NsQualifier(&qual, "no-such-namespace");
    r = Ask(PMIX_QUERY_PROC_TABLE, PMIX_QUERY_JOB_STATUS, NULL, &qual, 1);
    Report("unknown-nspace", r.rc == PMIX_ERR_NOT_FOUND && r.ninfo == 0, "unknown namespace", r.rc);
    Release(&r);
    PMIX_INFO_DESTRUCT(&qual);
}

typedef struct {
    int done;  /* __atomic: set last by the callback, read by WaitNb */
    pmix_status_t status;
    size_t ninfo;
} NbWait;

static void QueryDone(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                      pmix_release_cbfunc_t release_fn, void *release_cbdata) {
    NbWait *w = cbdata;
    (void)info;
    w->status = status;
    w->ninfo = ninfo;
    if (release_fn != NULL) release_fn(release_cbdata);
    __atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
}

static void OpDone(pmix_status_t status, void *cbdata) {
    NbWait *w = cbdata;
    w->status = status;
    __atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
}

/* Waits at most 10 s for w->done. */
static bool WaitNb(NbWait *w) {
    const struct timespec tick = {0, 5000000L};
    for (int i = 0; i < 2000; ++i) {
        if (__atomic_load_n(&w->done, __ATOMIC_ACQUIRE)) return true;
        nanosleep(&tick, NULL);
    }
    return false;
}

static void CheckQueryNb(void) {
    char *keys[] = {PMIX_QUERY_NAMESPACES, PMIX_JOB_SIZE, NULL};
    pmix_query_t q;
    PMIX_QUERY_CONSTRUCT(&q);
    q.keys = keys;
    NbWait w = {0, PMIX_ERROR, 0};
    pmix_status_t rc = PMIx_Query_info_nb(&q, 1, QueryDone, &w);
    bool ok = rc == PMIX_SUCCESS && WaitNb(&w) && w.status == PMIX_SUCCESS && w.ninfo == 2;
    Report("query-nb", ok, "non-blocking query", rc == PMIX_SUCCESS ? w.status : rc);
}

/* --- resolve -------------------------------------------------------------------- */

static bool AllRanks(const pmix_proc_t *procs, size_t n, uint32_t want) {
    if (n != want || procs == NULL) return false;
    for (size_t i = 0; i < n; ++i)
        if (procs[i].rank != i || strcmp(procs[i].nspace, me.nspace) != 0) return false;
    return true;
}

static void CheckResolve(void) {
    pmix_nspace_t unknown;
    PMIX_LOAD_NSPACE(unknown, "no-such-namespace");
    pmix_proc_t *procs = NULL;
    size_t n = 0;
    pmix_status_t rc = PMIx_Resolve_peers(host, me.nspace, &procs, &n);
    Report("resolve-peers", rc == PMIX_SUCCESS && AllRanks(procs, n, nprocs), "peers on my node",
           rc);
    if (procs != NULL) PMIX_PROC_FREE(procs, n);
    rc = PMIx_Resolve_peers(NULL, me.nspace, &procs, &n);
    Report("resolve-peers-local", rc == PMIX_SUCCESS && AllRanks(procs, n, nprocs), "NULL node",
           rc);
    if (procs != NULL) PMIX_PROC_FREE(procs, n);
    rc = PMIx_Resolve_peers(NULL, NULL, &procs, &n);
    Report("resolve-peers-all", rc == PMIX_SUCCESS && n >= nprocs, "NULL namespace", rc);
    if (procs != NULL) PMIX_PROC_FREE(procs, n);
    procs = (pmix_proc_t *)&me;  /* must be reset */
    rc = PMIx_Resolve_peers("no-such-node", me.nspace, &procs, &n);
    Report("resolve-peers-other-node", rc == PMIX_SUCCESS && procs == NULL && n == 0,
           "a node without the job", rc);
    rc = PMIx_Resolve_peers(host, unknown, &procs, &n);
    Report("resolve-peers-unknown", rc == PMIX_ERR_NOT_FOUND && procs == NULL && n == 0,
           "unknown namespace", rc);

    char *nodes = NULL;
    rc = PMIx_Resolve_nodes(me.nspace, &nodes);
    Report("resolve-nodes", rc == PMIX_SUCCESS && nodes != NULL && strcmp(nodes, host) == 0,
           "my node", rc);
    free(nodes);
    nodes = NULL;
    rc = PMIx_Resolve_nodes(unknown, &nodes);
    Report("resolve-nodes-unknown", rc == PMIX_ERR_NOT_FOUND && nodes == NULL,
           "unknown namespace", rc);
}

/* --- log ------------------------------------------------------------------------ */

static pmix_status_t LogString(const char *channel, const char *text, bool once) {
    pmix_info_t data[2], dir;
    size_t n = 0;
    if (once) PMIX_INFO_LOAD(&data[n++], "test.no.such.channel", "never", PMIX_STRING);
    PMIX_INFO_LOAD(&data[n++], channel, text, PMIX_STRING);
    PMIX_INFO_LOAD(&dir, PMIX_LOG_ONCE, NULL, PMIX_BOOL);
    pmix_status_t rc = PMIx_Log(data, n, &dir, once ? 1 : 0);
    for (size_t i = 0; i < n; ++i) PMIX_INFO_DESTRUCT(&data[i]);
    return rc;
}

static void CheckLog(void) {
    char text[128];
    pmix_status_t rc;
    if (me.rank == 0) {
        snprintf(text, sizeof text, "query-client stderr from rank %u", me.rank);
        rc = LogString(PMIX_LOG_STDERR, text, false);
        Report("log-stderr", rc == PMIX_SUCCESS, "log to stderr", rc);
        rc = LogString(PMIX_LOG_STDERR, "query-client once", true);
        Report("log-once", rc == PMIX_SUCCESS, "log once", rc);
    }
    if (me.rank == 1) {
        snprintf(text, sizeof text, "query-client stdout from rank %u", me.rank);
        rc = LogString(PMIX_LOG_STDOUT, text, false);
        Report("log-stdout", rc == PMIX_SUCCESS, "log to stdout", rc);
    }
    if (me.rank == 2) {
        pmix_info_t data;
        PMIX_INFO_LOAD(&data, PMIX_LOG_STDERR, "query-client log-nb", PMIX_STRING);
        NbWait w = {0, PMIX_ERROR, 0};
        rc = PMIx_Log_nb(&data, 1, NULL, 0, OpDone, &w);
        Report("log-nb", rc == PMIX_SUCCESS && WaitNb(&w) && w.status == PMIX_SUCCESS, "Log_nb",
               rc == PMIX_SUCCESS ? w.status : rc);
        PMIX_INFO_DESTRUCT(&data);
    }
    rc = LogString(PMIX_LOG_GLOBAL_SYSLOG, "nobody serves this", false);
    Report("log-unsupported", rc == PMIX_ERR_NOT_SUPPORTED, "a channel nobody serves", rc);
}

int main(void) {
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 2;
    }
    pmix_proc_t job = me;
    job.rank = PMIX_RANK_WILDCARD;
    pmix_value_t *v = NULL;
    if (PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &v) == PMIX_SUCCESS) {
        nprocs = v->data.uint32;
        PMIX_VALUE_RELEASE(v);
    }
    if (PMIx_Get(&me, PMIX_HOSTNAME, NULL, 0, &v) == PMIX_SUCCESS) {
        snprintf(host, sizeof host, "%s", v->data.string);
        PMIX_VALUE_RELEASE(v);
    }
    CheckBadArgs();
    CheckCache();
    CheckServer();
    CheckProcTables();
    CheckHostAndMerge();
    CheckQueryNb();
    CheckResolve();
    CheckLog();
    rc = PMIx_Fence(NULL, 0, NULL, 0);  /* everyone stays connected until all checked */
    if (rc != PMIX_SUCCESS) Report("fence", false, "fence", rc);
    printf("DONE %u failures %d\n", me.rank, failures);
    fflush(stdout);
    PMIx_Finalize(NULL, 0);
    return failures == 0 ? 0 : 1;
}
