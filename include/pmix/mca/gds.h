/*
 * gds: the data store: job, application, node and session information
 * registered by the host, and the key/values processes put and exchange.
 *
 * Multi-select, ordered by priority. The server uses its first module for
 * its own store; a client is told which module its server uses for the
 * job data (PMIX_GDS_MODULE in the environment) so that, for example, a
 * shared-memory store is read in place, and keeps its cache in its first
 * module.
 *
 * Threads: a store is used from one thread at a time (the progress
 * thread); the module functions themselves keep no shared state, so
 * different stores may be used on different threads. A module that sets
 * concurrent_reads allows fetch() from any thread concurrently with other
 * fetch() calls (never with store/remove/destroy on the same store).
 *
 * Placement (RFC0009), so that a Get is one lookup:
 *   PMIX_GDS_REALM_PROC     proc->nspace + proc->rank (a valid rank): the
 *                           host's per-process data (PMIX_PROC_DATA) and
 *                           what the process put. A PROC request with
 *                           rank PMIX_RANK_WILDCARD is the JOB realm.
 *   PMIX_GDS_REALM_JOB      proc->nspace, rank ignored (stored under
 *                           PMIX_RANK_WILDCARD).
 *   PMIX_GDS_REALM_APP      proc->nspace + the app number: qualifier
 *                           PMIX_APPNUM (uint32); without it, the value of
 *                           PMIX_APPNUM stored for proc's rank in the PROC
 *                           realm (fetch only).
 *   PMIX_GDS_REALM_NODE     proc->nspace + the node: qualifier PMIX_NODEID
 *                           (uint32) and/or PMIX_HOSTNAME (string); one is
 *                           required (the caller adds its own node for
 *                           "the local node"). A store naming both links
 *                           them, so later either finds the same node;
 *                           naming an id and a host already linked to
 *                           different nodes is PMIX_ERR_BAD_PARAM.
 *   PMIX_GDS_REALM_SESSION  the session id: qualifier PMIX_SESSION_ID
 *                           (uint32); without it, the value of
 *                           PMIX_SESSION_ID stored in proc's JOB realm
 *                           (fetch only). Session data is shared by all
 *                           namespaces; proc->nspace only serves that
 *                           lookup and may be empty when the qualifier is
 *                           given. Other qualifiers are ignored.
 *
 * Scopes and views: every stored value carries the scope it was put with
 * (host-registered data uses PMIX_SCOPE_UNDEF, which behaves as GLOBAL).
 * A key holds at most one value per scope class: storing GLOBAL or UNDEF
 * replaces the key's LOCAL, REMOTE, GLOBAL and UNDEF values; storing LOCAL
 * (or REMOTE) replaces its LOCAL (or REMOTE) and GLOBAL/UNDEF values;
 * INTERNAL is a class of its own. A fetch names the requester's view:
 *   PMIX_GDS_VIEW_LOCAL   a requester on the data owner's node: sees
 *                         LOCAL, GLOBAL, UNDEF;
 *   PMIX_GDS_VIEW_REMOTE  a requester on another node: sees REMOTE,
 *                         GLOBAL, UNDEF;
 *   PMIX_GDS_VIEW_ALL     the owner itself / the library's own use: sees
 *                         everything; where a key has several values the
 *                         first of INTERNAL, LOCAL, GLOBAL/UNDEF, REMOTE.
 *
 * Values are deep-copied in and out. Outputs are written only on success.
 * Statuses: PMIX_SUCCESS; PMIX_ERR_BAD_PARAM for a NULL store/proc/output,
 * an empty or overlong (> PMIX_MAX_NSLEN) nspace, an empty or overlong
 * (> PMIX_MAX_KEYLEN) key, an unknown realm, scope or view, a rank the
 * realm does not accept, or a missing or mistyped qualifier -- and then
 * nothing is changed; PMIX_ERR_NOT_FOUND when nothing matches;
 * PMIX_ERR_EXISTS_OUTSIDE_SCOPE when a single key exists only in scopes
 * the view does not see; PMIX_ERR_NOMEM.
 */
#ifndef PMIX_MCA_GDS_H
#define PMIX_MCA_GDS_H

#include <pmix/mca/mca.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMIX_GDS_INTERFACE_MAJOR 1
#define PMIX_GDS_INTERFACE_MINOR 0

/* Where a stored value lives (see the file comment). */
typedef enum {
    PMIX_GDS_REALM_PROC = 0,
    PMIX_GDS_REALM_JOB = 1,
    PMIX_GDS_REALM_APP = 2,
    PMIX_GDS_REALM_NODE = 3,
    PMIX_GDS_REALM_SESSION = 4
} pmix_gds_realm_t;

/* Who is asking, for scope filtering (see the file comment). */
typedef enum {
    PMIX_GDS_VIEW_ALL = 0,
    PMIX_GDS_VIEW_LOCAL = 1,
    PMIX_GDS_VIEW_REMOTE = 2
} pmix_gds_view_t;

typedef struct pmix_gds_module {
    const char *name;            /* "hash", "shmem" */
    bool concurrent_reads;       /* fetch() may run on several threads */

    /* A new, empty store in *store. info: module options (hash has none
     * and ignores them). */
    pmix_status_t (*create)(const pmix_info_t info[], size_t ninfo, void **store);
    /* Frees the store and everything in it. NULL is a no-op. */
    void (*destroy)(void *store);

    /* Stores copies of kvs[0..nkvs) in the realm instance named by proc
     * and qualifiers, with the given scope (PMIX_SCOPE_UNDEF..PMIX_INTERNAL).
     * A key already present is replaced per the scope rules; no key is ever
     * held twice in one scope class. kvs may not repeat a key. All or
     * nothing: on any error nothing is stored (PMIX_ERR_NOMEM excepted: it
     * may leave part of kvs stored). nkvs == 0 only validates
     * (and creates the realm instance / links a node's id and hostname). */
    pmix_status_t (*store)(void *store, const pmix_proc_t *proc, pmix_gds_realm_t realm,
                           pmix_scope_t scope, const pmix_info_t qualifiers[], size_t nqual,
                           const pmix_info_t kvs[], size_t nkvs);

    /* Fetches key, or with key NULL every key of that realm instance
     * visible in view -- each key once, in no particular order, only that
     * instance (a PROC fetch does not add the JOB realm's keys: fetch both
     * for a whole-process transfer). *kvs is from PMIx_Info_create (free
     * with PMIX_INFO_FREE(*kvs, *nkvs)); a single-key fetch returns one.
     * A single key is one hash lookup, except rank PMIX_RANK_UNDEF in the
     * PROC realm: the first rank of proc->nspace that holds the key
     * visibly (ranks searched in no particular order; key must not be
     * NULL). PMIX_ERR_NOT_FOUND when the instance or key is absent, or a
     * NULL-key fetch finds nothing visible. */
    pmix_status_t (*fetch)(void *store, const pmix_proc_t *proc, pmix_gds_realm_t realm,
                           pmix_gds_view_t view, const char *key,
                           const pmix_info_t qualifiers[], size_t nqual,
                           pmix_info_t **kvs, size_t *nkvs);

    /* Lists the instances of realm that hold data (RFC0009: a server
     * answering a request about another namespace sends all of that
     * namespace's info; it enumerates, then fetches each with key NULL).
     * *ids (PMIx_Info_create; PMIX_INFO_FREE) holds one info per instance,
     * naming it as fetch() takes it as a qualifier:
     *   PROC     PMIX_RANK (PMIX_PROC_RANK), the ranks of proc->nspace with
     *            PROC-realm data (the JOB realm is not listed);
     *   APP      PMIX_APPNUM (uint32) of proc->nspace;
     *   NODE     PMIX_NODEID (uint32) when the node has an id, else
     *            PMIX_HOSTNAME (string), of proc->nspace;
     *   SESSION  PMIX_SESSION_ID (uint32), every session (nspace ignored).
     * Order unspecified. JOB is PMIX_ERR_BAD_PARAM (fetch it directly);
     * PMIX_ERR_NOT_FOUND when there are none. */
    pmix_status_t (*instances)(void *store, const pmix_proc_t *proc, pmix_gds_realm_t realm,
                               pmix_info_t **ids, size_t *nids);

    /* Removes everything stored for proc->nspace (all its realms; session
     * data stays) when proc->rank is PMIX_RANK_WILDCARD or PMIX_RANK_UNDEF,
     * else that rank's PROC-realm data only. PMIX_ERR_NOT_FOUND when
     * nothing was stored for it. */
    pmix_status_t (*remove)(void *store, const pmix_proc_t *proc);

    /* Removes the session's data (PMIX_ERR_NOT_FOUND if none). */
    pmix_status_t (*remove_session)(void *store, uint32_t session_id);
} pmix_gds_module_t;

#ifdef __cplusplus
}
#endif

#endif /* PMIX_MCA_GDS_H */
