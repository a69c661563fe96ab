/*
 * Publish / lookup / unpublish through pmixrun's datastore (public pmix.h
 * API only). Run by test/pmixrun/pubsub.sh as: pmixrun -n N pubsub_client
 * (N >= 3). Every check prints "PASS <rank> <name>" or
 * "FAIL <rank> <name>: why"; the script asserts which PASS lines each rank
 * must print and that there is no FAIL.
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

static uint32_t nprocs;

static void Fence(void) {
    pmix_status_t rc = PMIx_Fence(NULL, 0, NULL, 0);
    if (rc != PMIX_SUCCESS) Report("fence", false, "fence failed", rc);
}

/* --- small wrappers ---------------------------------------------------------- */

static pmix_status_t PublishString(const char *key, const char *value, pmix_data_range_t range,
                                   pmix_persistence_t persistence) {
    pmix_info_t info[3];
    PMIX_INFO_LOAD(&info[0], key, value, PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_RANGE, &range, PMIX_DATA_RANGE);
    PMIX_INFO_LOAD(&info[2], PMIX_PERSISTENCE, &persistence, PMIX_PERSIST);
    pmix_status_t rc = PMIx_Publish(info, 3);
    for (int i = 0; i < 3; i++) PMIX_INFO_DESTRUCT(&info[i]);
    return rc;
}

/* Looks up one key: status, and the string value and publisher on success. */
static pmix_status_t LookupOne(const char *key, pmix_data_range_t range, bool wait, int timeout,
                               char *value, size_t len, pmix_rank_t *publisher) {
    pmix_pdata_t pdata;
    pmix_info_t info[3];
    size_t n = 0;
    bool yes = true;
    PMIX_PDATA_CONSTRUCT(&pdata);
    PMIX_LOAD_KEY(pdata.key, key);
    PMIX_INFO_LOAD(&info[n], PMIX_RANGE, &range, PMIX_DATA_RANGE), n++;
    if (wait) PMIX_INFO_LOAD(&info[n], PMIX_WAIT, &yes, PMIX_BOOL), n++;
    if (timeout > 0) PMIX_INFO_LOAD(&info[n], PMIX_TIMEOUT, &timeout, PMIX_INT), n++;
    pmix_status_t rc = PMIx_Lookup(&pdata, 1, info, n);
    if (rc == PMIX_SUCCESS && value != NULL) {
        snprintf(value, len, "%s",
                 pdata.value.type == PMIX_STRING && pdata.value.data.string ? pdata.value.data.string
                                                                            : "(not a string)");
    }
    if (rc == PMIX_SUCCESS && publisher != NULL) *publisher = pdata.proc.rank;
    PMIX_PDATA_DESTRUCT(&pdata);
    for (size_t i = 0; i < n; i++) PMIX_INFO_DESTRUCT(&info[i]);
    return rc;
}

static pmix_status_t Unpublish(const char *key) {
    char *keys[2] = {(char *)key, NULL};
    return PMIx_Unpublish(key != NULL ? keys : NULL, NULL, 0);
}

/* --- the _nb forms: one callback at a time, waited for with a bound ------------ */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static bool cb_done;
static pmix_status_t cb_status;
static pmix_rank_t cb_publisher;
static char cb_value[256];

static void OpDone(pmix_status_t status, void *cbdata) {
    (void)cbdata;
    pthread_mutex_lock(&lock);
    cb_status = status;
    cb_done = true;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
}

static void LookupDone(pmix_status_t status, pmix_pdata_t data[], size_t ndata, void *cbdata) {
    (void)cbdata;
    pthread_mutex_lock(&lock);
    cb_status = status;
    cb_publisher = ndata == 1 ? data[0].proc.rank : PMIX_RANK_UNDEF;
    snprintf(cb_value, sizeof cb_value, "%s",
             ndata == 1 && data[0].value.type == PMIX_STRING ? data[0].value.data.string : "");
    cb_done = true;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
}

static void Arm(void) {
    pthread_mutex_lock(&lock);
    cb_done = false;
    pthread_mutex_unlock(&lock);
}

/* The callback's status, or PMIX_ERR_TIMEOUT after 10 s. */
static pmix_status_t AwaitCallback(pmix_status_t started) {
    if (started != PMIX_SUCCESS) return started;
    pthread_mutex_lock(&lock);
    pmix_status_t rc = WaitFlagLocked(&lock, &cond, &cb_done, 10) ? cb_status : PMIX_ERR_TIMEOUT;
    pthread_mutex_unlock(&lock);
    return rc;
}

/* --- the checks ----------------------------------------------------------------- */

static void BadArguments(void) {
    char long_key[PMIX_MAX_KEYLEN + 10];
    memset(long_key, 'k', sizeof long_key - 1);
    long_key[sizeof long_key - 1] = '\0';
    char *long_keys[2] = {long_key, NULL};
    char *no_keys[1] = {NULL};
    pmix_pdata_t empty;
    PMIX_PDATA_CONSTRUCT(&empty);
    bool ok = PMIx_Publish(NULL, 1) == PMIX_ERR_BAD_PARAM &&
              PMIx_Publish_nb(NULL, 2, OpDone, NULL) == PMIX_ERR_BAD_PARAM &&
              PMIx_Lookup(NULL, 0, NULL, 0) == PMIX_ERR_BAD_PARAM &&
              PMIx_Lookup(&empty, 1, NULL, 0) == PMIX_ERR_BAD_PARAM &&
              PMIx_Lookup(&empty, 1, NULL, 3) == PMIX_ERR_BAD_PARAM &&
              PMIx_Lookup_nb(NULL, NULL, 0, LookupDone, NULL) == PMIX_ERR_BAD_PARAM &&
              PMIx_Lookup_nb(no_keys, NULL, 0, LookupDone, NULL) == PMIX_ERR_BAD_PARAM &&
              PMIx_Lookup_nb(long_keys, NULL, 0, LookupDone, NULL) == PMIX_ERR_BAD_PARAM &&
              PMIx_Unpublish(long_keys, NULL, 0) == PMIX_ERR_BAD_PARAM &&
              PMIx_Unpublish(NULL, NULL, 1) == PMIX_ERR_BAD_PARAM;
    Report("bad-args", ok, "an argument error was not PMIX_ERR_BAD_PARAM", PMIX_ERROR);
}

/* Rank 0 publishes late; the others wait for it with PMIX_WAIT. */
static void PublishAndWait(void) {
    char value[256] = "";
    pmix_rank_t from = PMIX_RANK_UNDEF;
    if (me.rank == 0) {
        SleepMs(300);
        pmix_status_t rc = PublishString("svc.session", "hello", PMIX_RANGE_SESSION, PMIX_PERSIST_APP);
        if (rc == PMIX_SUCCESS)
            rc = PublishString("svc.ns", "ns-only", PMIX_RANGE_NAMESPACE, PMIX_PERSIST_SESSION);
        if (rc == PMIX_SUCCESS)
            rc = PublishString("svc.mine", "mine-only", PMIX_RANGE_PROC_LOCAL, PMIX_PERSIST_INDEF);
        Report("publish", rc == PMIX_SUCCESS, "publish failed", rc);
        return;
    }
    pmix_status_t rc = LookupOne("svc.session", PMIX_RANGE_SESSION, true, 10, value, sizeof value, &from);
    Report("wait-lookup", rc == PMIX_SUCCESS && strcmp(value, "hello") == 0 && from == 0,
           "waited lookup got the wrong answer", rc);
}

static void Ranges(void) {
    pmix_status_t ns = LookupOne("svc.ns", PMIX_RANGE_SESSION, false, 0, NULL, 0, NULL);
    Report("range-namespace", ns == PMIX_SUCCESS, "NAMESPACE data not found in the namespace", ns);
    pmix_status_t mine = LookupOne("svc.mine", PMIX_RANGE_SESSION, false, 0, NULL, 0, NULL);
    pmix_status_t want = me.rank == 0 ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND;
    Report("range-proc-local", mine == want, "PROC_LOCAL data seen by the wrong process", mine);
    /* A lookup limited to this process finds none of rank 0's session data. */
    pmix_status_t own = LookupOne("svc.session", PMIX_RANGE_PROC_LOCAL, false, 0, NULL, 0, NULL);
    want = me.rank == 0 ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND;
    Report("lookup-range-proc-local", own == want, "requester range not applied", own);
}

static void DuplicateAndMissing(void) {
    if (me.rank <= 1) {
        pmix_status_t rc = PublishString("svc.session", "again", PMIX_RANGE_SESSION, PMIX_PERSIST_APP);
        Report("duplicate", rc == PMIX_ERR_DUPLICATE_KEY, "duplicate key accepted", rc);
    }
    pmix_status_t rc = LookupOne("no.such.key", PMIX_RANGE_SESSION, false, 0, NULL, 0, NULL);
    Report("not-found", rc == PMIX_ERR_NOT_FOUND, "missing key not NOT_FOUND", rc);

    pmix_pdata_t pdata[2];
    PMIX_PDATA_CONSTRUCT(&pdata[0]);
    PMIX_PDATA_CONSTRUCT(&pdata[1]);
    PMIX_LOAD_KEY(pdata[0].key, "svc.session");
    PMIX_LOAD_KEY(pdata[1].key, "no.such.key");
    rc = PMIx_Lookup(pdata, 2, NULL, 0);
    Report("partial", rc == PMIX_ERR_PARTIAL_SUCCESS && pdata[0].value.type == PMIX_STRING &&
                          pdata[1].value.type == PMIX_UNDEF && pdata[0].proc.rank == 0,
           "partial lookup", rc);
    PMIX_PDATA_DESTRUCT(&pdata[0]);
    PMIX_PDATA_DESTRUCT(&pdata[1]);
}

static void Timeout(void) {
    if (me.rank != 1) return;
    double start = Now();
    pmix_status_t rc = LookupOne("never.published", PMIX_RANGE_SESSION, true, 1, NULL, 0, NULL);
    double took = Now() - start;
    Report("timeout", rc == PMIX_ERR_TIMEOUT && took > 0.5 && took < 5.0,
           "waiting lookup did not time out after ~1 s", rc);
}

/* Rank 0 waits (Lookup_nb + PMIX_WAIT) for what rank 1 publishes with Publish_nb. */
static void NonBlocking(void) {
    if (me.rank == 0) {
        char *keys[2] = {"nb.key", NULL};
        bool yes = true;
        int timeout = 10;
        pmix_info_t info[2];
        PMIX_INFO_LOAD(&info[0], PMIX_WAIT, &yes, PMIX_BOOL);
        PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &timeout, PMIX_INT);
        Arm();
        pmix_status_t rc = AwaitCallback(PMIx_Lookup_nb(keys, info, 2, LookupDone, NULL));
        Report("lookup-nb", rc == PMIX_SUCCESS && cb_publisher == 1 && strcmp(cb_value, "nb") == 0,
               "Lookup_nb", rc);
        PMIX_INFO_DESTRUCT(&info[0]);
        PMIX_INFO_DESTRUCT(&info[1]);
        Arm();
        rc = AwaitCallback(PMIx_Lookup_nb(keys, NULL, 0, LookupDone, NULL));
        Report("lookup-nb-again", rc == PMIX_SUCCESS, "second Lookup_nb", rc);
    } else if (me.rank == 1) {
        SleepMs(200);
        pmix_info_t info;
        PMIX_INFO_LOAD(&info, "nb.key", "nb", PMIX_STRING);
        Arm();
        pmix_status_t rc = AwaitCallback(PMIx_Publish_nb(&info, 1, OpDone, NULL));
        Report("publish-nb", rc == PMIX_SUCCESS, "Publish_nb", rc);
        PMIX_INFO_DESTRUCT(&info);
    }
    Fence();
    if (me.rank == 1) {
        char *keys[2] = {"nb.key", NULL};
        Arm();
        pmix_status_t rc = AwaitCallback(PMIx_Unpublish_nb(keys, NULL, 0, OpDone, NULL));
        Report("unpublish-nb", rc == PMIX_SUCCESS, "Unpublish_nb", rc);
    }
    Fence();
    char *keys[2] = {"nb.key", NULL};
    Arm();
    pmix_status_t rc = AwaitCallback(PMIx_Lookup_nb(keys, NULL, 0, LookupDone, NULL));
    Report("lookup-nb-gone", rc == PMIX_ERR_NOT_FOUND, "unpublished key still found", rc);
}

static void FirstRead(void) {
    if (me.rank == 0) {
        pmix_status_t rc = PublishString("once", "x", PMIX_RANGE_SESSION, PMIX_PERSIST_FIRST_READ);
        Report("publish-first-read", rc == PMIX_SUCCESS, "publish", rc);
    }
    Fence();
    if (me.rank == 1) {
        pmix_status_t first = LookupOne("once", PMIX_RANGE_SESSION, false, 0, NULL, 0, NULL);
        pmix_status_t second = LookupOne("once", PMIX_RANGE_SESSION, false, 0, NULL, 0, NULL);
        Report("first-read", first == PMIX_SUCCESS && second == PMIX_ERR_NOT_FOUND,
               "first-read data not removed after its first lookup", second);
    }
}

static void UnpublishChecks(void) {
    if (me.rank == 1) {
        pmix_status_t rc = Unpublish("svc.session");
        Report("unpublish-not-owner", rc != PMIX_SUCCESS, "removed another's key", rc);
    }
    Fence();
    if (me.rank == 0) {
        pmix_status_t rc = Unpublish("svc.session");
        Report("unpublish", rc == PMIX_SUCCESS, "unpublish own key", rc);
    }
    Fence();
    pmix_status_t rc = LookupOne("svc.session", PMIX_RANGE_SESSION, false, 0, NULL, 0, NULL);
    Report("unpublished-not-found", rc == PMIX_ERR_NOT_FOUND, "unpublished key found", rc);
    Fence();
    if (me.rank == 0) {
        rc = Unpublish(NULL);
        Report("unpublish-all", rc == PMIX_SUCCESS, "unpublish all", rc);
    }
    Fence();
    rc = LookupOne("svc.ns", PMIX_RANGE_SESSION, false, 0, NULL, 0, NULL);
    Report("unpublished-all-not-found", rc == PMIX_ERR_NOT_FOUND, "key found after unpublish all", rc);
}

/* The last rank publishes with PMIX_PERSIST_PROC and leaves; the data goes with it. */
static void PersistProc(void) {
    pmix_rank_t last = nprocs - 1;
    if (me.rank == last) {
        pmix_status_t rc = PublishString("proc.key", "p", PMIX_RANGE_SESSION, PMIX_PERSIST_PROC);
        Report("publish-persist-proc", rc == PMIX_SUCCESS, "publish", rc);
    }
    Fence();
    pmix_status_t rc = PMIX_SUCCESS;
    if (me.rank != last) {
        rc = LookupOne("proc.key", PMIX_RANGE_SESSION, false, 0, NULL, 0, NULL);
        Report("persist-proc-present", rc == PMIX_SUCCESS, "not found while its publisher lives", rc);
    }
    Fence();
    if (me.rank == last) return; /* finalize and exit now */
    double until = Now() + 10;
    while (Now() < until && (rc = LookupOne("proc.key", PMIX_RANGE_SESSION, false, 0, NULL, 0,
                                            NULL)) == PMIX_SUCCESS)
        SleepMs(50);
    Report("persist-proc-gone", rc == PMIX_ERR_NOT_FOUND, "still there after its publisher left", rc);
}

int main(void) {
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) return fprintf(stderr, "init: %s\n", PMIx_Error_string(rc)), 2;
    pmix_proc_t job;
    pmix_value_t *val = NULL;
    PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
    if (PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &val) == PMIX_SUCCESS) {
        nprocs = val->data.uint32;
        PMIX_VALUE_RELEASE(val);
    }
    if (nprocs < 3) return fprintf(stderr, "run with at least 3 processes\n"), 2;
    BadArguments();
    PublishAndWait();
    Fence();
    Ranges();
    DuplicateAndMissing();
    Timeout();
    Fence();
    NonBlocking();
    Fence();
    FirstRead();
    Fence();
    UnpublishChecks();
    Fence();
    PersistProc();
    printf("DONE %u failures %d\n", me.rank, failures);
    fflush(stdout);
    PMIx_Finalize(NULL, 0);
    return failures == 0 ? 0 : 1;
}
