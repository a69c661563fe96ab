/*
 * A PMIx client for pmixrun's tests (public pmix.h API only).
 *
 *   pmixrun_client abort S      rank 1 calls PMIx_Abort(S) after a fence; the
 *                               others wait in a second fence (killed)
 *   pmixrun_client terminated   every rank but 0 exits with status 0 after a
 *                               fence; rank 0 waits (10 s at most) for their
 *                               PMIX_EVENT_PROC_TERMINATED events and prints
 *                               "terminated: <rank> exit <code>" for each,
 *                               then "default handler saw N": how many of
 *                               them its default handler was given too (the
 *                               handler for the code passes them on)
 *   pmixrun_client env VAR      prints "rank R VAR=value"
 *   pmixrun_client proctable    every rank puts its pid; ranks but 0 then
 *                               finalize and exit 0; rank 0 waits for their
 *                               termination events and checks the proc
 *                               table (PMIX_QUERY_PROC_TABLE): their real
 *                               pids and exit code 0, "proctable ok"
 *   pmixrun_client serverkeys F the server keys in the job info, read with
 *                               the job's wildcard rank and the process's
 *                               own (the same values): PMIX_SERVER_URI is
 *                               the URI the server reported in file F, it
 *                               names PMIX_SERVER_NSPACE.PMIX_SERVER_RANK,
 *                               PMIX_SERVER_HOSTNAME is the process's host;
 *                               prints "serverkeys ok <uri>"
 *   pmixrun_client nskey        puts "<nspace>-<rank>-local" (a key made
 *                               from the namespace, as OpenPMIx's dmodex
 *                               example does), commits, fences, reads the
 *                               next rank's, prints "nskey ok <nspace>"
 *   pmixrun_client jctrl        every rank declares itself preemptible and
 *                               its checkpoint method (the event
 *                               PMIX_JCTRL_CHECKPOINT, as OpenPMIx's jctrl
 *                               example does) with PMIx_Job_control; after
 *                               a fence rank 0 asks its job to checkpoint
 *                               as "ck1"; every rank waits (10 s at most)
 *                               for the event naming "ck1", prints
 *                               "jctrl ok <rank>"
 *   pmixrun_client dereg DIR    ranks but 0 never call PMIx_Init: they exit
 *                               0 once rank 0 created DIR/ready; rank 0
 *                               waits (10 s at most) for their
 *                               PMIX_EVENT_PROC_TERMINATED events, then
 *                               checks that the server is done with them
 *                               (pmixrun deregistered each at its reap,
 *                               before that event): a Get of a key they
 *                               never put fails at once with NOT_FOUND
 *                               (registered, it would wait for their
 *                               commit until PMIX_TIMEOUT) and the proc
 *                               table says TERMINATED (not PREPPED);
 *                               prints "dereg ok"
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

static pmix_proc_t me;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int terminated_seen;
static char seen_text[4096];

static void OnTerminated(size_t id, pmix_status_t status, const pmix_proc_t *source,
                         pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                         pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata) {
    (void)id, (void)status, (void)source, (void)results, (void)nresults;
    pmix_rank_t who = PMIX_RANK_UNDEF;
    int code = -1;
    for (size_t i = 0; i < ninfo; ++i) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC)) who = info[i].value.data.proc->rank;
        if (PMIX_CHECK_KEY(&info[i], PMIX_EXIT_CODE)) code = info[i].value.data.integer;
    }
    pthread_mutex_lock(&lock);
    size_t used = strlen(seen_text);
    snprintf(seen_text + used, sizeof seen_text - used, "terminated: %u exit %d\n", who, code);
    terminated_seen++;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    /* not ACTION_COMPLETE: the rest of the chain (a default handler) may run */
    if (cbfunc) cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

/* A default handler (no codes): counts the termination events it is given
 * and notes the end of the flush below. */
static int default_terminated;
static int flushed;
#define FLUSH_CODE (PMIX_EXTERNAL_ERR_BASE - 41)

static void OnAnyEvent(size_t id, pmix_status_t status, const pmix_proc_t *source,
                       pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                       pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata) {
    (void)id, (void)source, (void)info, (void)ninfo, (void)results, (void)nresults;
    pthread_mutex_lock(&lock);
    if (status == PMIX_EVENT_PROC_TERMINATED) default_terminated++;
    if (status == FLUSH_CODE) flushed = 1;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    if (cbfunc) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

/* With `lock` held: waits on `cond` (10 s at most) until *count, which the
 * event handlers raise under `lock`, reaches `want`; whether it did. */
static bool WaitCountLocked(const int *count, int want) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    while (*count < want)
        if (pthread_cond_timedwait(&cond, &lock, &until) != 0) break;
    return *count >= want;
}

/* Events reach a process's handlers in order: once a later local event has
 * reached the default handler, the earlier ones have been through the
 * chain. Prints "default handler saw N". */
static int ReportDefaultHandler(void) {
    if (PMIx_Notify_event(FLUSH_CODE, &me, PMIX_RANGE_PROC_LOCAL, NULL, 0, NULL, NULL) < 0) return 1;
    pthread_mutex_lock(&lock);
    bool done = WaitCountLocked(&flushed, 1);
    int seen = default_terminated;
    pthread_mutex_unlock(&lock);
    if (!done) return fprintf(stderr, "the flush event never reached the default handler\n"), 1;
    printf("default handler saw %d\n", seen);
    return 0;
}

static int Fence(void) {
    pmix_status_t rc = PMIx_Fence(NULL, 0, NULL, 0);
    if (rc != PMIX_SUCCESS) fprintf(stderr, "rank %u: fence: %s\n", me.rank, PMIx_Error_string(rc));
    return rc == PMIX_SUCCESS ? 0 : 1;
}

static int WaitTerminated(int want) {
    pthread_mutex_lock(&lock);
    bool got = WaitCountLocked(&terminated_seen, want);
    printf("%s", seen_text);
    pthread_mutex_unlock(&lock);
    return got ? 0 : 1;
}

static int Terminated(uint32_t size) {
    pmix_status_t code = PMIX_EVENT_PROC_TERMINATED;
    pmix_status_t rc = PMIx_Register_event_handler(&code, 1, NULL, 0, OnTerminated, NULL, NULL);
    if (rc < 0) return fprintf(stderr, "register: %s\n", PMIx_Error_string(rc)), 1;
    rc = PMIx_Register_event_handler(NULL, 0, NULL, 0, OnAnyEvent, NULL, NULL);
    if (rc < 0) return fprintf(stderr, "register default: %s\n", PMIx_Error_string(rc)), 1;
    if (Fence()) return 1;
    if (me.rank != 0) return 0;
    return WaitTerminated((int)size - 1) || ReportDefaultHandler();
}

static uint32_t JobSize(void) {
    pmix_proc_t job;
    pmix_value_t *val = NULL;
    PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
    if (PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &val) != PMIX_SUCCESS) return 0;
    uint32_t size = val->data.uint32;
    PMIX_VALUE_RELEASE(val);
    return size;
}

/* A key built from the namespace must not be a reserved ("pmix...") one. */
static int NamespaceKey(void) {
    char key[PMIX_MAX_KEYLEN + 1];
    snprintf(key, sizeof key, "%.200s-%u-local", me.nspace, me.rank);
    pmix_value_t v;
    PMIX_VALUE_LOAD(&v, &me.rank, PMIX_UINT32);
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, key, &v);
    PMIX_VALUE_DESTRUCT(&v);
    if (rc != PMIX_SUCCESS) return fprintf(stderr, "put %s: %s\n", key, PMIx_Error_string(rc)), 1;
    if (PMIx_Commit() != PMIX_SUCCESS || Fence() != 0) return 1;
    pmix_proc_t peer = me;
    peer.rank = (me.rank + 1) % JobSize();
    snprintf(key, sizeof key, "%.200s-%u-local", me.nspace, peer.rank);
    pmix_value_t *got = NULL;
    rc = PMIx_Get(&peer, key, NULL, 0, &got);
    if (rc != PMIX_SUCCESS) return fprintf(stderr, "get %s: %s\n", key, PMIx_Error_string(rc)), 1;
    int bad = got->type != PMIX_UINT32 || got->data.uint32 != peer.rank;
    PMIX_VALUE_RELEASE(got);
    if (!bad) printf("nskey ok %s\n", me.nspace);
    return bad;
}

/* key's string value about proc, malloc'd; NULL (and a message) if none. */
static char *GetString(const pmix_proc_t *proc, const char *key) {
    pmix_value_t *val = NULL;
    pmix_status_t rc = PMIx_Get(proc, key, NULL, 0, &val);
    if (rc != PMIX_SUCCESS || val->type != PMIX_STRING || val->data.string == NULL) {
        fprintf(stderr, "rank %u: get %s of %s:%u: %s\n", me.rank, key, proc->nspace, proc->rank,
                rc == PMIX_SUCCESS ? "not a string" : PMIx_Error_string(rc));
        if (val != NULL) PMIX_VALUE_RELEASE(val);
        return NULL;
    }
    char *out = strdup(val->data.string);
    PMIX_VALUE_RELEASE(val);
    return out;
}

static int ServerKeys(const char *urifile) {
    char want[1024] = "";
    FILE *f = fopen(urifile, "r");
    if (f == NULL || fgets(want, sizeof want, f) == NULL) return fprintf(stderr, "no URI in %s\n", urifile), 1;
    fclose(f);
    want[strcspn(want, "\r\n")] = '\0';
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
    char *uri = GetString(&job, PMIX_SERVER_URI);
    char *nspace = GetString(&job, PMIX_SERVER_NSPACE), *host = GetString(&job, PMIX_SERVER_HOSTNAME);
    char *myhost = GetString(&me, PMIX_HOSTNAME);
    pmix_value_t *rank = NULL;
    pmix_status_t rc = PMIx_Get(&job, PMIX_SERVER_RANK, NULL, 0, &rank);
    int bad = !uri || !nspace || !host || !myhost || rc != PMIX_SUCCESS;
    if (!bad && rank->type != PMIX_PROC_RANK) bad = fprintf(stderr, "PMIX_SERVER_RANK type %d\n", rank->type);
    if (!bad && strcmp(uri, want) != 0) bad = fprintf(stderr, "PMIX_SERVER_URI %s, reported %s\n", uri, want);
    char prefix[PMIX_MAX_NSLEN + 32] = "";
    if (!bad) snprintf(prefix, sizeof prefix, "%s.%u;", nspace, rank->data.rank);
    if (!bad && strncmp(uri, prefix, strlen(prefix)) != 0)
        bad = fprintf(stderr, "PMIX_SERVER_URI %s does not name %s\n", uri, prefix);
    if (!bad && strcmp(host, myhost) != 0) bad = fprintf(stderr, "PMIX_SERVER_HOSTNAME %s, not %s\n", host, myhost);
    /* OpenPMIx 4.2.2's clients also hold the server's identity as their own
     * data: PMIx_Get(&me, PMIX_SERVER_URI/_NSPACE/_RANK) answers the same. */
    char *myuri = bad ? NULL : GetString(&me, PMIX_SERVER_URI);
    char *mynspace = bad ? NULL : GetString(&me, PMIX_SERVER_NSPACE);
    pmix_value_t *myrank = NULL;
    if (!bad && (myuri == NULL || strcmp(myuri, uri) != 0))
        bad = fprintf(stderr, "PMIx_Get(me, PMIX_SERVER_URI) %s, job's %s\n", myuri ? myuri : "-", uri);
    if (!bad && (mynspace == NULL || strcmp(mynspace, nspace) != 0))
        bad = fprintf(stderr, "PMIx_Get(me, PMIX_SERVER_NSPACE) %s, job's %s\n", mynspace ? mynspace : "-", nspace);
    if (!bad && (PMIx_Get(&me, PMIX_SERVER_RANK, NULL, 0, &myrank) != PMIX_SUCCESS ||
                 myrank->type != PMIX_PROC_RANK || myrank->data.rank != rank->data.rank))
        bad = fprintf(stderr, "PMIx_Get(me, PMIX_SERVER_RANK) differs from the job's\n");
    if (!bad) printf("serverkeys ok %s\n", uri);
    if (myrank != NULL) PMIX_VALUE_RELEASE(myrank);
    free(myuri), free(mynspace);
    if (rank != NULL) PMIX_VALUE_RELEASE(rank);
    free(uri), free(nspace), free(host), free(myhost);
    return bad != 0;
}

/* The job's proc table (PMIX_QUERY_PROC_TABLE) as *procs, `size` entries;
 * the query's results to free with PMIX_INFO_FREE, or NULL (said why). */
static pmix_info_t *QueryProcTable(uint32_t size, size_t *nresults, pmix_proc_info_t **procs) {
    pmix_query_t *q;
    PMIX_QUERY_CREATE(q, 1);
    pmix_status_t rc;
    PMIX_ARGV_APPEND(rc, q[0].keys, PMIX_QUERY_PROC_TABLE);
    pmix_info_t *results = NULL;
    if (rc == PMIX_SUCCESS) rc = PMIx_Query_info(q, 1, &results, nresults);
    PMIX_QUERY_FREE(q, 1);
    if (rc != PMIX_SUCCESS || *nresults < 1 || results[0].value.type != PMIX_DATA_ARRAY) {
        fprintf(stderr, "proc table query: %s\n", PMIx_Error_string(rc));
        if (results != NULL) PMIX_INFO_FREE(results, *nresults);
        return NULL;
    }
    pmix_data_array_t *table = results[0].value.data.darray;
    if (table->type != PMIX_PROC_INFO || table->size != size) {
        fprintf(stderr, "proc table: type %d, %zu entries, want %u\n", (int)table->type,
                table->size, size);
        PMIX_INFO_FREE(results, *nresults);
        return NULL;
    }
    *procs = (pmix_proc_info_t *)table->array;
    return results;
}

/* Rank 0's check of the proc table after the others left. */
static int ProcTable(uint32_t size) {
    pmix_status_t code = PMIX_EVENT_PROC_TERMINATED;
    if (PMIx_Register_event_handler(&code, 1, NULL, 0, OnTerminated, NULL, NULL) < 0) return 1;
    pmix_value_t v;
    pid_t pid = getpid();
    PMIX_VALUE_LOAD(&v, &pid, PMIX_PID);
    if (PMIx_Put(PMIX_GLOBAL, "test.pid", &v) != PMIX_SUCCESS || PMIx_Commit() != PMIX_SUCCESS) return 1;
    pmix_info_t collect;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, NULL, PMIX_BOOL);
    if (PMIx_Fence(NULL, 0, &collect, 1) != PMIX_SUCCESS) return 1;
    if (me.rank != 0) return 0;
    if (WaitTerminated((int)size - 1) != 0) return 1;
    size_t nresults = 0;
    pmix_proc_info_t *procs = NULL;
    pmix_info_t *results = QueryProcTable(size, &nresults, &procs);
    if (results == NULL) return 1;
    int bad = 0;
    for (size_t i = 0; !bad && i < size; ++i) {
        pmix_value_t *got = NULL;
        pmix_proc_t who = procs[i].proc;
        if (PMIx_Get(&who, "test.pid", NULL, 0, &got) != PMIX_SUCCESS) return 1;
        if (procs[i].pid != got->data.pid || procs[i].exit_code != 0) {
            fprintf(stderr, "proc table: rank %u pid %d exit %d, want pid %d exit 0\n", who.rank,
                    (int)procs[i].pid, procs[i].exit_code, (int)got->data.pid);
            bad = 1;
        }
        PMIX_VALUE_RELEASE(got);
    }
    PMIX_INFO_FREE(results, nresults);
    if (!bad) printf("proctable ok\n");
    return bad;
}

static int checkpoint_seen;  /* under lock */

static void OnCheckpoint(size_t id, pmix_status_t status, const pmix_proc_t *source,
                         pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                         pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata) {
    (void)id, (void)status, (void)source, (void)results, (void)nresults;
    for (size_t i = 0; i < ninfo; ++i)
        if (strcmp(info[i].key, PMIX_JOB_CTRL_CHECKPOINT) == 0 && info[i].value.type == PMIX_STRING &&
            strcmp(info[i].value.data.string, "ck1") == 0) {
            pthread_mutex_lock(&lock);
            checkpoint_seen = 1;
            pthread_cond_broadcast(&cond);
            pthread_mutex_unlock(&lock);
        }
    if (cbfunc != NULL) cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

static int JobControl(void) {
    pmix_status_t code = PMIX_JCTRL_CHECKPOINT;
    if (PMIx_Register_event_handler(&code, 1, NULL, 0, OnCheckpoint, NULL, NULL) < 0) return 1;
    pmix_info_t dirs[2];
    bool yes = true;
    PMIX_INFO_LOAD(&dirs[0], PMIX_JOB_CTRL_PREEMPTIBLE, &yes, PMIX_BOOL);
    pmix_info_t *method;
    PMIX_INFO_CREATE(method, 1);
    code = PMIX_JCTRL_CHECKPOINT;
    PMIX_INFO_LOAD(&method[0], PMIX_JOB_CTRL_CHECKPOINT_EVENT, &code, PMIX_STATUS);
    pmix_data_array_t array = {PMIX_INFO, 1, method};
    PMIX_INFO_LOAD(&dirs[1], PMIX_JOB_CTRL_CHECKPOINT_METHOD, &array, PMIX_DATA_ARRAY);
    PMIX_INFO_FREE(method, 1);
    pmix_status_t rc = PMIx_Job_control(NULL, 0, dirs, 2, NULL, NULL);
    PMIX_INFO_DESTRUCT(&dirs[0]);
    PMIX_INFO_DESTRUCT(&dirs[1]);
    if (rc != PMIX_SUCCESS) return fprintf(stderr, "declare: %s\n", PMIx_Error_string(rc)), 1;
    if (Fence() != 0) return 1;
    if (me.rank == 0) {
        pmix_info_t ck;
        PMIX_INFO_LOAD(&ck, PMIX_JOB_CTRL_CHECKPOINT, "ck1", PMIX_STRING);
        rc = PMIx_Job_control(NULL, 0, &ck, 1, NULL, NULL);
        PMIX_INFO_DESTRUCT(&ck);
        if (rc != PMIX_SUCCESS) return fprintf(stderr, "checkpoint: %s\n", PMIx_Error_string(rc)), 1;
    }
    pthread_mutex_lock(&lock);
    bool seen = WaitCountLocked(&checkpoint_seen, 1);
    pthread_mutex_unlock(&lock);
    if (!seen) return fprintf(stderr, "rank %u: no checkpoint event\n", me.rank), 1;
    printf("jctrl ok %u\n", me.rank);
    return Fence();
}

/* Ranks but 0 of "dereg": never a client; they end once rank 0 is ready. */
static int DeregPeer(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/ready", dir);
    const struct timespec tick = {0, 10000000L};
    for (int i = 0; i < 2000 && access(path, F_OK) != 0; ++i) nanosleep(&tick, NULL);
    return access(path, F_OK) == 0 ? 0 : 1;
}

/* Rank 0 of "dereg", once the others ended. */
static int Deregistered(uint32_t size, const char *dir) {
    pmix_status_t code = PMIX_EVENT_PROC_TERMINATED;
    if (PMIx_Register_event_handler(&code, 1, NULL, 0, OnTerminated, NULL, NULL) < 0) return 1;
    char path[4096];
    snprintf(path, sizeof path, "%s/ready", dir);
    FILE *ready = fopen(path, "w");
    if (ready == NULL || fclose(ready) != 0) return fprintf(stderr, "cannot create %s\n", path), 1;
    if (WaitTerminated((int)size - 1) != 0) return fprintf(stderr, "termination events missing\n"), 1;
    int bad = 0;
    int timeout = 20;
    pmix_info_t wait;
    PMIX_INFO_LOAD(&wait, PMIX_TIMEOUT, &timeout, PMIX_INT);
    for (pmix_rank_t r = 1; r < size; ++r) {
        pmix_proc_t peer;
        PMIX_LOAD_PROCID(&peer, me.nspace, r);
        pmix_value_t *v = NULL;
        pmix_status_t rc = PMIx_Get(&peer, "test.never", &wait, 1, &v);
        if (rc != PMIX_ERR_NOT_FOUND)
            bad = fprintf(stderr, "Get of rank %u's key: %s, want NOT_FOUND\n", r, PMIx_Error_string(rc));
        if (v != NULL) PMIX_VALUE_RELEASE(v);
    }
    PMIX_INFO_DESTRUCT(&wait);
    size_t nresults = 0;
    pmix_proc_info_t *procs = NULL;
    pmix_info_t *results = QueryProcTable(size, &nresults, &procs);
    if (results == NULL) return 1;
    for (size_t i = 0; !bad && i < size; ++i) {
        pmix_proc_state_t want = procs[i].proc.rank == 0 ? PMIX_PROC_STATE_CONNECTED
                                                          : PMIX_PROC_STATE_TERMINATED;
        if (procs[i].state != want)
            bad = fprintf(stderr, "proc table: rank %u state %s, want %s\n", procs[i].proc.rank,
                          PMIx_Proc_state_string(procs[i].state), PMIx_Proc_state_string(want));
    }
    PMIX_INFO_FREE(results, nresults);
    if (!bad) printf("dereg ok\n");
    return bad != 0;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    const char *rank_env = getenv("PMIX_RANK");
    if (strcmp(argv[1], "dereg") == 0 && argc > 2 && rank_env != NULL && strcmp(rank_env, "0") != 0)
        return DeregPeer(argv[2]);
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) return fprintf(stderr, "init: %s\n", PMIx_Error_string(rc)), 2;
    int bad = 0;
    if (strcmp(argv[1], "abort") == 0 && argc > 2) {
        bad = Fence();
        if (me.rank == 1) PMIx_Abort(atoi(argv[2]), "test abort", NULL, 0);
        else Fence();
        sleep(20);  /* pmixrun must kill us */
        bad = 1;
    } else if (strcmp(argv[1], "terminated") == 0) {
        bad = Terminated(JobSize());
    } else if (strcmp(argv[1], "proctable") == 0) {
        bad = ProcTable(JobSize());
    } else if (strcmp(argv[1], "serverkeys") == 0 && argc > 2) {
        bad = ServerKeys(argv[2]);
    } else if (strcmp(argv[1], "nskey") == 0) {
        bad = NamespaceKey();
    } else if (strcmp(argv[1], "jctrl") == 0) {
        bad = JobControl();
    } else if (strcmp(argv[1], "dereg") == 0 && argc > 2) {
        bad = Deregistered(JobSize(), argv[2]);
    } else if (strcmp(argv[1], "env") == 0 && argc > 2) {
        const char *v = getenv(argv[2]);
        printf("rank %u %s=%s\n", me.rank, argv[2], v ? v : "(unset)");
    }
    fflush(stdout);
    PMIx_Finalize(NULL, 0);
    return bad;
}
