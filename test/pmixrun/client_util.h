/*
 * Helpers shared by the pmixrun test clients (header-only, C99, public
 * pmix.h API only). Their protocol with the scripts (common.sh): every
 * check prints one stdout line, "PASS [<role> ]<rank> <name>" or
 * "FAIL [<role> ]<rank> <name>: why (status)"; the scripts assert which
 * PASS lines must be there and that there is no FAIL.
 *
 * (test/host/clients/client_util.h does not fit these clients: its checks
 * exit at the first failure and report on stderr.)
 *
 * Include it after `#define _POSIX_C_SOURCE 200809L`. Threads: Report and
 * the time helpers from the main thread; WaitFlagLocked with the caller's
 * mutex held.
 */
#ifndef PMIXX_TEST_PMIXRUN_CLIENT_UTIL_H
#define PMIXX_TEST_PMIXRUN_CLIENT_UTIL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include <pmix.h>

static pmix_proc_t me;           /* filled by the client's PMIx_Init */
static int failures;             /* FAIL lines printed so far */
static const char *role = NULL;  /* printed before the rank when set ("parent") */

/* Prints the PASS or FAIL line of check `name`; a FAIL names `why` and rc. */
static inline void Report(const char *name, bool ok, const char *why, pmix_status_t rc) {
    const char *who = role != NULL ? role : "";
    const char *sep = role != NULL ? " " : "";
    if (ok) {
        printf("PASS %s%s%u %s\n", who, sep, me.rank, name);
    } else {
        printf("FAIL %s%s%u %s: %s (%s)\n", who, sep, me.rank, name, why, PMIx_Error_string(rc));
        failures++;
    }
    fflush(stdout);
}

/* Seconds on the monotonic clock. */
static inline double Now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline void SleepMs(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* With `lock` held: waits on `cond` until *flag is set or `seconds` passed;
 * returns *flag (the lock is held again on return). */
static inline bool WaitFlagLocked(pthread_mutex_t *lock, pthread_cond_t *cond, const bool *flag,
                                  int seconds) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += seconds;
    while (!*flag)
        if (pthread_cond_timedwait(cond, lock, &until) != 0) break;
    return *flag;
}

#endif
