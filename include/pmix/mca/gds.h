/*
 * gds: the data store: job, application, node and session information
 * registered by the host, and the key/values processes put and exchange.
 *
 * Multi-select, ordered by priority. The server uses its first module for
 * its own store; a client is told which module its server uses for the
 * job data (PMIX_GDS_MODULE in the environment) so that, for example, a
 * shared-memory store is read in place, and keeps its cache in its first
 * module. Calls on one store are made from one thread at a time (the
 * progress thread), except fetch() on a store whose module declares
 * concurrent_reads, which any thread may call once the data it reads has
 * been published.
 *
 * Placement (RFC0009): a process-level value lives under its rank; a
 * job-level value under PMIX_RANK_WILDCARD; node-, app- and session-level
 * values under their realm and id (PMIX_NODEID / PMIX_HOSTNAME,
 * PMIX_APPNUM, PMIX_SESSION_ID given as qualifiers). A fetch is one lookup.
 * Values are deep-copied in and out: fetch returns malloc'd infos that the
 * caller releases with PMIX_INFO_FREE.
 */
#ifndef PMIX_MCA_GDS_H
#define PMIX_MCA_GDS_H

#include <pmix/mca/mca.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMIX_GDS_INTERFACE_MAJOR 1
#define PMIX_GDS_INTERFACE_MINOR 0

/* Where a stored value lives. */
typedef enum {
    PMIX_GDS_REALM_PROC = 0,
    PMIX_GDS_REALM_JOB = 1,
    PMIX_GDS_REALM_APP = 2,
    PMIX_GDS_REALM_NODE = 3,
    PMIX_GDS_REALM_SESSION = 4
} pmix_gds_realm_t;

typedef struct pmix_gds_module {
    const char *name;            /* "hash", "shmem" */
    bool concurrent_reads;       /* fetch() may run on any thread */

    pmix_status_t (*create)(const pmix_info_t info[], size_t ninfo, void **store);
    void (*destroy)(void *store);

    /* Stores copies of the infos in realm for proc (proc->rank is
     * PMIX_RANK_WILDCARD for job-level data). For app/node/session realms,
     * qualifiers name the instance. Replaces values with the same key and
     * scope. */
    pmix_status_t (*store)(void *store, const pmix_proc_t *proc, pmix_gds_realm_t realm,
                           pmix_scope_t scope, const pmix_info_t qualifiers[], size_t nqual,
                           const pmix_info_t kvs[], size_t nkvs);
    /* Fetches key (NULL = every key) for proc in realm, visible in scope.
     * PMIX_ERR_NOT_FOUND when there is none. */
    pmix_status_t (*fetch)(void *store, const pmix_proc_t *proc, pmix_gds_realm_t realm,
                           pmix_scope_t scope, const char *key,
                           const pmix_info_t qualifiers[], size_t nqual,
                           pmix_info_t **kvs, size_t *nkvs);
    /* Removes everything stored for nspace (rank ignored) or, with a rank,
     * for that process only. */
    pmix_status_t (*remove)(void *store, const pmix_proc_t *proc);
} pmix_gds_module_t;

#ifdef __cplusplus
}
#endif

#endif /* PMIX_MCA_GDS_H */
