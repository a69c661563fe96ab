/* What OpenPMIx's example programs include as "examples.h" (Debian ships
 * the programs in /usr/share/doc/libpmix-dev/examples but not that header):
 * a lock the examples wait on until a callback wakes them, and a way to
 * mark parameters unused, a holder for query results. The scripts that
 * build OpenPMIx's examples (openpmix_examples.sh, openpmix_client.sh,
 * debugger.sh) put this file in their include path. Only the names those
 * examples use are provided. */
#ifndef PMIXX_TEST_PMIXRUN_OPENPMIX_EXAMPLES_H
#define PMIXX_TEST_PMIXRUN_OPENPMIX_EXAMPLES_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <pmix.h>

typedef struct {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    volatile bool active; /* true until DEBUG_WAKEUP_THREAD */
    pmix_status_t status; /* what the waking callback reported */
    size_t evhandler_ref; /* an event handler registration's id (client.c) */
} mylock_t;

#define DEBUG_CONSTRUCT_LOCK(l)                     \
    do {                                            \
        pthread_mutex_init(&(l)->mutex, NULL);      \
        pthread_cond_init(&(l)->cond, NULL);        \
        (l)->active = true;                         \
        (l)->status = PMIX_SUCCESS;                 \
        (l)->evhandler_ref = 0;                     \
    } while (0)

#define DEBUG_DESTRUCT_LOCK(l)                      \
    do {                                            \
        pthread_mutex_destroy(&(l)->mutex);         \
        pthread_cond_destroy(&(l)->cond);           \
    } while (0)

#define DEBUG_WAIT_THREAD(l)                                                  \
    do {                                                                      \
        pthread_mutex_lock(&(l)->mutex);                                      \
        while ((l)->active) pthread_cond_wait(&(l)->cond, &(l)->mutex);       \
        pthread_mutex_unlock(&(l)->mutex);                                    \
    } while (0)

#define DEBUG_WAKEUP_THREAD(l)                      \
    do {                                            \
        pthread_mutex_lock(&(l)->mutex);            \
        (l)->active = false;                        \
        pthread_cond_broadcast(&(l)->cond);         \
        pthread_mutex_unlock(&(l)->mutex);          \
    } while (0)

/* A lock an event handler releases, with the job's size (client.c) or
 * the exit code a job-termination event carried (tool.c). */
typedef struct {
    mylock_t lock;
    uint32_t nprocs;
    int exit_code;
    bool exit_code_given;
} myrel_t;

#define DEBUG_CONSTRUCT_MYREL(r)                    \
    do {                                            \
        DEBUG_CONSTRUCT_LOCK(&(r)->lock);           \
        (r)->nprocs = 0;                            \
        (r)->exit_code = 0;                         \
        (r)->exit_code_given = false;               \
    } while (0)

#define DEBUG_DESTRUCT_MYREL(r) DEBUG_DESTRUCT_LOCK(&(r)->lock)

/* What a query callback hands back (tool.c, debugger.c, debuggerd.c):
 * the results it copied, and a lock (or, debuggerd.c, a flag) it clears. */
typedef struct {
    mylock_t lock;
    pmix_info_t *info;
    size_t ninfo;
    volatile bool active;
} myquery_data_t;

#define DEBUG_CONSTRUCT_MYQUERY(q)                  \
    do {                                            \
        DEBUG_CONSTRUCT_LOCK(&(q)->lock);           \
        (q)->info = NULL;                           \
        (q)->ninfo = 0;                             \
        (q)->active = true;                         \
    } while (0)

#define DEBUG_DESTRUCT_MYQUERY(q)                   \
    do {                                            \
        DEBUG_DESTRUCT_LOCK(&(q)->lock);            \
        if (NULL != (q)->info) {                    \
            PMIX_INFO_FREE((q)->info, (q)->ninfo);  \
        }                                           \
    } while (0)

static inline void examples_unused(int first, ...) { (void)first; }
#define EXAMPLES_HIDE_UNUSED_PARAMS(...) examples_unused(0, __VA_ARGS__)

#endif
