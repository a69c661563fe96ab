/*
 * debug_client: a job process for the debugger tests (debugger.sh). After
 * PMIx_Init returns it prints "INIT <rank> <pid>"; if its job data has
 * PMIX_DEBUG_STOP_IN_APP (PMIX_DEBUG_WAIT_FOR_NOTIFY) it tells its server
 * it is ready for debug (PMIX_READY_FOR_DEBUG, PMIX_BREAKPOINT "app-wait",
 * range PMIX_RANGE_RM, as the standard has an application do), prints
 * "WAITING <rank>" and waits (at most 60 s) for PMIX_DEBUGGER_RELEASE,
 * then prints "RELEASED <rank>"; it ends with "DONE <rank>" after
 * PMIx_Finalize. Exit 1 on a failure (said on stderr).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include <pmix.h>

#include "client_util.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static bool registered, released;
static pmix_status_t reg_status;

static void OnRelease(size_t id, pmix_status_t status, const pmix_proc_t *source,
                      pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                      pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata) {
    (void)id, (void)status, (void)source, (void)info, (void)ninfo, (void)results, (void)nresults;
    if (cbfunc) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    pthread_mutex_lock(&lock);
    released = true;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
}

static void OnRegistered(pmix_status_t status, size_t ref, void *cbdata) {
    (void)ref, (void)cbdata;
    pthread_mutex_lock(&lock);
    reg_status = status;
    registered = true;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
}

int main(void) {
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "debug_client: PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    printf("INIT %u %ld\n", me.rank, (long)getpid());
    fflush(stdout);
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
    pmix_value_t *val = NULL;
    pmix_info_t opt;
    PMIX_INFO_LOAD(&opt, PMIX_OPTIONAL, NULL, PMIX_BOOL);
    int status = 0;
    if (PMIx_Get(&job, PMIX_DEBUG_STOP_IN_APP, &opt, 1, &val) == PMIX_SUCCESS) {
        PMIX_VALUE_RELEASE(val);
        pmix_status_t code = PMIX_DEBUGGER_RELEASE;
        PMIx_Register_event_handler(&code, 1, NULL, 0, OnRelease, OnRegistered, NULL);
        pthread_mutex_lock(&lock);
        WaitFlagLocked(&lock, &cond, &registered, 60);
        pthread_mutex_unlock(&lock);
        if (!registered || reg_status != PMIX_SUCCESS) {
            fprintf(stderr, "debug_client: registration failed\n");
            status = 1;
        } else {
            pmix_info_t ready;
            PMIX_INFO_LOAD(&ready, PMIX_BREAKPOINT, "app-wait", PMIX_STRING);
            rc = PMIx_Notify_event(PMIX_READY_FOR_DEBUG, &me, PMIX_RANGE_RM, &ready, 1, NULL, NULL);
            PMIX_INFO_DESTRUCT(&ready);
            if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED)
                status = 1, fprintf(stderr, "debug_client: READY_FOR_DEBUG: %d\n", rc);
            printf("WAITING %u\n", me.rank);
            fflush(stdout);
            pthread_mutex_lock(&lock);
            bool ok = WaitFlagLocked(&lock, &cond, &released, 60);
            pthread_mutex_unlock(&lock);
            if (ok) printf("RELEASED %u\n", me.rank);
            else status = 1, fprintf(stderr, "debug_client: no release within 60 s\n");
        }
    }
    PMIX_INFO_DESTRUCT(&opt);
    rc = PMIx_Finalize(NULL, 0);
    if (rc != PMIX_SUCCESS) status = 1;
    printf("DONE %u\n", me.rank);
    return status;
}
