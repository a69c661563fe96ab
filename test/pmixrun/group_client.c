/*
 * Process groups and process sets under pmixrun (public pmix.h API only).
 * Run by test/pmixrun/group.sh; every check prints "PASS [<role> ]<rank>
 * <name>" or "FAIL ...: why".
 *
 *   group_client basic      (pmixrun -n 3 --pset all:0-2 --pset even:0,2)
 *                           the launch-time sets through PMIx_Get and the
 *                           queries; a group over the job with a context
 *                           id through pmixrun's upcall, the group queries;
 *                           more groups get other ids
 *   group_client many       1,000 groups built and destroyed in a row:
 *                           distinct context ids, none left, bounded memory
 *   group_client parent N   (pmixrun -n 1) spawns N one-process jobs, each
 *                           with PMIX_PSET_NAME "kids<i>" (the run-time sets:
 *                           PMIX_PROCESS_SET_DEFINE, then _DELETE when they
 *                           end); parent and children build one group over
 *                           the N+1 namespaces and read each other's job
 *                           info and data
 *   group_client child      what the spawned processes run
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

#define MAX_KIDS 4

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int defines, deletes;
static char defined[MAX_KIDS][PMIX_MAX_NSLEN + 1];

static void OnPset(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                   size_t ninfo, pmix_info_t results[], size_t nresults,
                   pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata) {
    (void)id, (void)source, (void)results, (void)nresults;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < ninfo; ++i) {
        if (status != PMIX_PROCESS_SET_DEFINE || !PMIX_CHECK_KEY(&info[i], PMIX_PSET_MEMBERS))
            continue;
        pmix_proc_t *m = info[i].value.data.darray->array;
        if (defines < MAX_KIDS) snprintf(defined[defines], PMIX_MAX_NSLEN + 1, "%s", m[0].nspace);
    }
    if (status == PMIX_PROCESS_SET_DEFINE) defines++;
    if (status == PMIX_PROCESS_SET_DELETE) deletes++;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    if (cbfunc) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

static bool WaitCount(const int *counter, int want, int seconds) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += seconds;
    pthread_mutex_lock(&lock);
    while (*counter < want)
        if (pthread_cond_timedwait(&cond, &lock, &until) != 0) break;
    bool ok = *counter >= want;
    pthread_mutex_unlock(&lock);
    return ok;
}

/* --- helpers ------------------------------------------------------------------ */

static bool HasString(const pmix_value_t *v, const char *s) {
    if (v == NULL || v->type != PMIX_DATA_ARRAY || v->data.darray->type != PMIX_STRING) return false;
    char **names = v->data.darray->array;
    for (size_t i = 0; i < v->data.darray->size; ++i)
        if (strcmp(names[i], s) == 0) return true;
    return false;
}

static pmix_value_t *GetOf(const pmix_proc_t *p, const char *key, bool optional) {
    pmix_info_t opt;
    PMIX_INFO_LOAD(&opt, PMIX_OPTIONAL, NULL, PMIX_BOOL);
    pmix_value_t *v = NULL;
    pmix_status_t rc = PMIx_Get(p, key, optional ? &opt : NULL, optional ? 1 : 0, &v);
    PMIX_INFO_DESTRUCT(&opt);
    return rc == PMIX_SUCCESS ? v : NULL;
}

/* One query key with at most one string qualifier; the answer or NULL. */
static pmix_info_t *Query(const char *key, const char *qual, const char *qval, size_t *n) {
    pmix_query_t q;
    pmix_status_t rc;
    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_ARGV_APPEND(rc, q.keys, key);
    if (qual != NULL) {
        PMIX_QUERY_QUALIFIERS_CREATE(&q, 1);
        PMIX_INFO_LOAD(&q.qualifiers[0], qual, qval, PMIX_STRING);
    }
    pmix_info_t *res = NULL;
    rc = PMIx_Query_info(&q, 1, &res, n);
    PMIX_QUERY_DESTRUCT(&q);
    return rc == PMIX_SUCCESS ? res : NULL;
}

static size_t QuerySize(const char *key) {
    size_t n = 0, out = SIZE_MAX;
    pmix_info_t *res = Query(key, NULL, NULL, &n);
    pmix_status_t rc = PMIX_ERROR;
    if (res != NULL && n > 0) PMIX_VALUE_GET_NUMBER(rc, &res[0].value, out, size_t);
    if (res != NULL) PMIX_INFO_FREE(res, n);
    return rc == PMIX_SUCCESS ? out : SIZE_MAX;
}

/* Builds group `grp` over procs with a context id; the id, or SIZE_MAX. */
static size_t Construct(const char *grp, const pmix_proc_t *procs, size_t nprocs,
                        pmix_status_t *rc) {
    pmix_info_t dir;
    PMIX_INFO_LOAD(&dir, PMIX_GROUP_ASSIGN_CONTEXT_ID, NULL, PMIX_BOOL);
    pmix_info_t *res = NULL;
    size_t n = 0, id = SIZE_MAX;
    *rc = PMIx_Group_construct(grp, procs, nprocs, &dir, 1, &res, &n);
    PMIX_INFO_DESTRUCT(&dir);
    if (*rc == PMIX_SUCCESS && n > 0 && PMIX_CHECK_KEY(&res[0], PMIX_GROUP_CONTEXT_ID)) {
        pmix_status_t got;
        PMIX_VALUE_GET_NUMBER(got, &res[0].value, id, size_t);
        if (got != PMIX_SUCCESS) id = SIZE_MAX;
    }
    if (res != NULL) PMIX_INFO_FREE(res, n);
    return id;
}

static long RssKb(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, rss = 0;
    if (f == NULL) return -1;
    if (fscanf(f, "%ld %ld", &pages, &rss) != 2) rss = -1;
    fclose(f);
    return rss < 0 ? -1 : rss * (sysconf(_SC_PAGESIZE) / 1024);
}

static void PutString(const char *key, const char *s) {
    pmix_value_t v;
    PMIX_VALUE_LOAD(&v, s, PMIX_STRING);
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, key, &v);
    PMIX_VALUE_DESTRUCT(&v);
    if (rc != PMIX_SUCCESS) Report("put", false, "PMIx_Put failed", rc);
}

/* --- modes -------------------------------------------------------------------- */

static void Basic(uint32_t nprocs) {
    pmix_value_t *v = GetOf(&me, PMIX_PSET_NAMES, false);
    bool even = me.rank % 2 == 0;
    Report("pset-names", HasString(v, "all") && HasString(v, "even") == even,
           "PMIX_PSET_NAMES does not list the right sets", PMIX_ERROR);
    if (v != NULL) PMIX_VALUE_RELEASE(v);
    size_t n = 0;
    pmix_info_t *res = Query(PMIX_QUERY_PSET_MEMBERSHIP, PMIX_PSET_NAME, "even", &n);
    bool members_ok = res != NULL && n == 1 && res[0].value.type == PMIX_DATA_ARRAY &&
                      res[0].value.data.darray->size == (nprocs + 1) / 2;
    if (res != NULL) PMIX_INFO_FREE(res, n);
    Report("pset-query", members_ok && QuerySize(PMIX_QUERY_NUM_PSETS) == 2,
           "the pset queries answered wrong", PMIX_ERROR);
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, me.nspace, PMIX_RANK_WILDCARD);
    pmix_status_t rc;
    size_t id1 = Construct("pg-one", &all, 1, &rc);
    Report("construct", rc == PMIX_SUCCESS && id1 != SIZE_MAX, "construct failed", rc);
    Report("group-query", QuerySize(PMIX_QUERY_NUM_GROUPS) == 1, "PMIX_QUERY_NUM_GROUPS", PMIX_ERROR);
    size_t id2 = Construct("pg-two", &all, 1, &rc);
    size_t id3 = Construct("pg-three", &all, 1, &rc);
    Report("context-ids", id1 != id2 && id2 != id3 && id1 != id3 && id3 != SIZE_MAX,
           "context ids repeat", rc);
    rc = PMIx_Group_destruct("pg-one", NULL, 0);
    if (rc == PMIX_SUCCESS) rc = PMIx_Group_destruct("pg-two", NULL, 0);
    if (rc == PMIX_SUCCESS) rc = PMIx_Group_destruct("pg-three", NULL, 0);
    Report("destruct", rc == PMIX_SUCCESS && QuerySize(PMIX_QUERY_NUM_GROUPS) == 0,
           "destruct failed or groups left", rc);
}

/* Under AddressSanitizer freed memory waits in its quarantine (up to
 * 256 MB), so the RSS bound says nothing there; its leak checker (LSan, at
 * exit) stands in for it. */
#if defined(__SANITIZE_ADDRESS__)
#define GROUP_CLIENT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GROUP_CLIENT_ASAN 1
#endif
#endif
#ifdef GROUP_CLIENT_ASAN
static const bool kRssMeaningful = false;
#else
static const bool kRssMeaningful = true;
#endif

static void Many(void) {
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, me.nspace, PMIX_RANK_WILDCARD);
    pmix_status_t rc = PMIX_SUCCESS;
    size_t last = 0;
    bool ids_ok = true;
    long rss_start = 0;
    char grp[64];
    for (int i = 0; i < 1000 && rc == PMIX_SUCCESS; ++i) {
        if (i == 100) rss_start = RssKb();  /* after the first allocations settled */
        snprintf(grp, sizeof grp, "many-%d", i);
        size_t id = Construct(grp, &all, 1, &rc);
        ids_ok = ids_ok && id != SIZE_MAX && (i == 0 || id > last);
        last = id;
        if (rc == PMIX_SUCCESS) rc = PMIx_Group_destruct(grp, NULL, 0);
    }
    long grown = RssKb() - rss_start;
    Report("many", rc == PMIX_SUCCESS, "a construct or destruct failed", rc);
    Report("many-context-ids", ids_ok, "context ids not distinct and increasing", PMIX_ERROR);
    Report("many-none-left", QuerySize(PMIX_QUERY_NUM_GROUPS) == 0, "groups left", PMIX_ERROR);
    printf("NOTE %u rss grew %ld kB over 900 groups\n", me.rank, grown);
    Report("many-memory", rss_start > 0 && (grown < 4096 || !kRssMeaningful),
           "memory grows with every group", PMIX_ERROR);
}

/* The group of parent and children: [parent job, child jobs...]. */
static void Family(const char *names, bool parent) {
    pmix_proc_t procs[MAX_KIDS + 1];
    size_t n = 0;
    char copy[512];
    snprintf(copy, sizeof copy, "%s", names);
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok && n <= MAX_KIDS;
         tok = strtok_r(NULL, ",", &save))
        PMIX_LOAD_PROCID(&procs[n++], tok, PMIX_RANK_WILDCARD);
    PutString("who", parent ? "parent" : "child");
    pmix_status_t rc;
    size_t id = Construct("family", procs, n, &rc);
    char check[32];
    snprintf(check, sizeof check, "construct-%zu", n);
    Report(check, rc == PMIX_SUCCESS && id != SIZE_MAX, "construct over the jobs failed", rc);
    bool info_ok = true, data_ok = true;
    for (size_t i = 0; i < n; ++i) {
        if (PMIx_Check_nspace(procs[i].nspace, me.nspace)) continue;
        pmix_value_t *v = GetOf(&procs[i], PMIX_JOB_SIZE, true);  /* came with the group */
        info_ok = info_ok && v != NULL;
        if (v != NULL) PMIX_VALUE_RELEASE(v);
        pmix_proc_t first;
        PMIX_LOAD_PROCID(&first, procs[i].nspace, 0);
        v = GetOf(&first, "who", true);
        data_ok = data_ok && v != NULL && v->type == PMIX_STRING &&
                  strcmp(v->data.string, i == 0 ? "parent" : "child") == 0;
        if (v != NULL) PMIX_VALUE_RELEASE(v);
    }
    Report("job-info", info_ok, "another job's info is not local", PMIX_ERR_NOT_FOUND);
    Report("member-data", data_ok, "a member's data is not local", PMIX_ERR_NOT_FOUND);
    rc = PMIx_Group_destruct("family", NULL, 0);
    Report("destruct", rc == PMIX_SUCCESS, "destruct failed", rc);
}

static void Parent(const char *self, int nkids) {
    pmix_status_t codes[] = {PMIX_PROCESS_SET_DEFINE, PMIX_PROCESS_SET_DELETE};
    PMIx_Register_event_handler(codes, 2, NULL, 0, OnPset, NULL, NULL);
    char names[512];
    snprintf(names, sizeof names, "%s", me.nspace);
    for (int i = 0; i < nkids; ++i) {
        pmix_app_t app;
        PMIX_APP_CONSTRUCT(&app);
        app.cmd = strdup(self);
        app.argv = calloc(3, sizeof(char *));
        app.argv[0] = strdup(self);
        app.argv[1] = strdup("child");
        app.maxprocs = 1;
        pmix_info_t info;
        char pset[32];
        snprintf(pset, sizeof pset, "kids%d", i);
        PMIX_INFO_LOAD(&info, PMIX_PSET_NAME, pset, PMIX_STRING);
        pmix_nspace_t ns;
        pmix_status_t rc = PMIx_Spawn(&info, 1, &app, 1, ns);
        PMIX_INFO_DESTRUCT(&info);
        PMIX_APP_DESTRUCT(&app);
        Report("spawn", rc == PMIX_SUCCESS, "spawn failed", rc);
        if (rc != PMIX_SUCCESS) return;
        strncat(names, ",", sizeof names - strlen(names) - 1);
        strncat(names, ns, sizeof names - strlen(names) - 1);
        pmix_proc_t kid;
        PMIX_LOAD_PROCID(&kid, ns, 0);
        pmix_value_t *v = GetOf(&kid, PMIX_PSET_NAMES, false);
        Report("pset-child", HasString(v, pset), "the child's PMIX_PSET_NAMES", PMIX_ERROR);
        if (v != NULL) PMIX_VALUE_RELEASE(v);
    }
    bool defined_ok = WaitCount(&defines, nkids, 20);
    Report("pset-define", defined_ok && strstr(names, defined[nkids - 1]) != NULL,
           "PMIX_PROCESS_SET_DEFINE missing or wrong", PMIX_ERROR);
    PutString("kids", names);
    pmix_status_t rc = PMIx_Commit();
    if (rc != PMIX_SUCCESS) Report("commit", false, "commit failed", rc);
    Family(names, true);
    Report("pset-delete", WaitCount(&deletes, nkids, 30), "PMIX_PROCESS_SET_DELETE missing",
           PMIX_ERROR);
}

static void Child(void) {
    pmix_value_t *v = GetOf(&me, PMIX_PARENT_ID, false);
    if (v == NULL || v->type != PMIX_PROC) {
        Report("parent-id", false, "no PMIX_PARENT_ID", PMIX_ERR_NOT_FOUND);
        return;
    }
    pmix_proc_t parent = *v->data.proc;
    PMIX_VALUE_RELEASE(v);
    pmix_info_t wait;
    int sec = 30;
    PMIX_INFO_LOAD(&wait, PMIX_TIMEOUT, &sec, PMIX_INT);
    pmix_status_t rc = PMIx_Get(&parent, "kids", &wait, 1, &v);
    PMIX_INFO_DESTRUCT(&wait);
    if (rc != PMIX_SUCCESS || v->type != PMIX_STRING) {
        Report("names", false, "the parent's list of jobs", rc);
        return;
    }
    Family(v->data.string, false);
    PMIX_VALUE_RELEASE(v);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "basic";
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("FAIL ? init: PMIx_Init (%s)\n", PMIx_Error_string(rc));
        return 1;
    }
    if (strcmp(mode, "child") == 0) role = "child";
    if (strcmp(mode, "parent") == 0) role = "parent";
    pmix_proc_t wild;
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    pmix_value_t *v = GetOf(&wild, PMIX_JOB_SIZE, false);
    uint32_t nprocs = v != NULL ? v->data.uint32 : 0;
    if (v != NULL) PMIX_VALUE_RELEASE(v);
    if (strcmp(mode, "basic") == 0) Basic(nprocs);
    else if (strcmp(mode, "many") == 0) Many();
    else if (strcmp(mode, "parent") == 0) Parent(argv[0], argc > 2 ? atoi(argv[2]) : 1);
    else if (strcmp(mode, "child") == 0) Child();
    else Report("mode", false, "unknown mode", PMIX_ERR_BAD_PARAM);
    rc = PMIx_Finalize(NULL, 0);
    Report("finalize", rc == PMIX_SUCCESS, "PMIx_Finalize", rc);
    return failures == 0 ? 0 : 1;
}
