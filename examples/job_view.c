/*
 * job_view: what a process learns about its job through PMIx.
 *
 * Each rank puts a value, joins a collecting fence, then reads the value its
 * neighbour (rank + 1, wrapping) put, and prints one line:
 *
 *   rank 1 of 4 on <host>: local peers 0,1,2,3, neighbour 2 says "hello from rank 2"
 *
 * The ranks print in rank order (each waits for a fence after the ranks
 * before it printed), so a launcher that forwards output in the order it
 * was written, such as pmixrun, shows the same text on every run.
 *
 * Build: cc job_view.c -o job_view $(pkg-config --cflags --libs pmix)
 * Run:   pmixrun -n 4 ./job_view
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmix.h>

static pmix_proc_t me;

static int Fail(const char *what, pmix_status_t rc) {
    fprintf(stderr, "job_view rank %u: %s: %s\n", me.rank, what, PMIx_Error_string(rc));
    return 1;
}

/* A job-level string (rank = wildcard) or per-proc string (rank = r). */
static int GetString(const char *key, pmix_rank_t rank, char *out, size_t len) {
    pmix_proc_t who;
    pmix_value_t *val = NULL;
    PMIX_LOAD_PROCID(&who, me.nspace, rank);
    pmix_status_t rc = PMIx_Get(&who, key, NULL, 0, &val);
    if (rc != PMIX_SUCCESS) return Fail(key, rc);
    if (val->type != PMIX_STRING) {
        PMIX_VALUE_RELEASE(val);
        return Fail(key, PMIX_ERR_TYPE_MISMATCH);
    }
    snprintf(out, len, "%s", val->data.string);
    PMIX_VALUE_RELEASE(val);
    return 0;
}

static int GetJobSize(uint32_t *size) {
    pmix_proc_t job;
    pmix_value_t *val = NULL;
    PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
    pmix_status_t rc = PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &val);
    if (rc != PMIX_SUCCESS) return Fail(PMIX_JOB_SIZE, rc);
    *size = val->data.uint32;
    PMIX_VALUE_RELEASE(val);
    return 0;
}

/* Puts our greeting, commits, and fences with data collection. */
static int Exchange(void) {
    char greeting[64];
    pmix_value_t val;
    snprintf(greeting, sizeof greeting, "hello from rank %u", me.rank);
    PMIX_VALUE_LOAD(&val, greeting, PMIX_STRING);
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, "job_view.greeting", &val);
    PMIX_VALUE_DESTRUCT(&val);
    if (rc != PMIX_SUCCESS) return Fail("PMIx_Put", rc);
    if ((rc = PMIx_Commit()) != PMIX_SUCCESS) return Fail("PMIx_Commit", rc);
    pmix_info_t collect;
    bool yes = true;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &collect, 1);
    PMIX_INFO_DESTRUCT(&collect);
    return rc == PMIX_SUCCESS ? 0 : Fail("PMIx_Fence", rc);
}

static int Report(uint32_t size) {
    char host[256], peers[1024], greeting[64];
    pmix_rank_t next = (me.rank + 1) % size;
    if (GetString(PMIX_HOSTNAME, me.rank, host, sizeof host) ||
        GetString(PMIX_LOCAL_PEERS, PMIX_RANK_WILDCARD, peers, sizeof peers) ||
        GetString("job_view.greeting", next, greeting, sizeof greeting))
        return 1;
    printf("rank %u of %u on %s: local peers %s, neighbour %u says \"%s\"\n", me.rank, size, host,
           peers, next, greeting);
    fflush(stdout);
    return 0;
}

int main(void) {
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "job_view: PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    uint32_t size = 0;
    int bad = GetJobSize(&size) || Exchange();
    /* Every rank joins every fence, even one that failed to report, so the
     * others are not left waiting. */
    for (uint32_t turn = 0; size > 0 && turn < size; ++turn) {
        if (turn == me.rank && !bad) bad = Report(size);
        if ((rc = PMIx_Fence(NULL, 0, NULL, 0)) != PMIX_SUCCESS) {
            bad = Fail("PMIx_Fence", rc);
            break;
        }
    }
    rc = PMIx_Finalize(NULL, 0);
    if (rc != PMIX_SUCCESS) bad = Fail("PMIx_Finalize", rc);
    return bad ? 1 : 0;
}
