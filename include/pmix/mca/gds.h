/*
 * gds: the data store: job, application, node and session information
 * registered by the host, and the key/values processes put and exchange.
 *
 * Multi-select, ordered by priority. A module offers one or both of two
 * services:
 *   - a key/value store (create .. remove_session below): the dynamic data
 *     of a process -- what it put, what it received in a fence or a get.
 *     The first selected module with a store keeps it ("hash").
 *   - regions (region_create .. region_release): the memory that holds a
 *     namespace's job data as a compact, read-only, position-independent
 *     image (mca/gds/base/image.h is the format), and other data the server
 *     shares with its clients. A module with shared regions ("shmem": a
 *     sealed memfd) lets the server lay the image out once per node and
 *     hand every local client a descriptor to map it read-only; without
 *     one, images live in private heap memory and travel inline in
 *     messages. The server uses the first selected module with regions;
 *     a client attaches a region with the module its server names.
 * A module without a store sets create .. remove_session to NULL; one
 * without regions sets region_create .. region_release to NULL.
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

#define PMIX_GDS_INTERFACE_MAJOR 2
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

/* A region of bytes (see region_create). base/size/fd are the module's
 * answer; module_data is the module's own (opaque to callers). */
typedef struct pmix_gds_region {
    void *base;          /* first byte (writable until sealed) */
    size_t size;         /* bytes */
    int fd;              /* after sealing: a descriptor another process of
                          * this node can region_attach, or -1 */
    void *module_data;
} pmix_gds_region_t;

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

    /* Regions. Thread-safe (no shared state between regions).
     *
     * region_create: a new writable region of size (> 0) bytes, filled with
     * zeros, in *region (fd -1 until sealed). PMIX_ERR_BAD_PARAM for size 0
     * or a NULL region; PMIX_ERR_NOMEM / PMIX_ERR_OUT_OF_RESOURCE when the
     * memory cannot be had. */
    pmix_status_t (*region_create)(size_t size, pmix_gds_region_t *region);
    /* region_seal: makes a created region read-only for good: afterwards
     * base is mapped read-only and, for a shared medium, region->fd is a
     * descriptor of the region that nobody (the creator included) can
     * write, grow or shrink any more. On failure the region is unchanged
     * (still writable, release it). */
    pmix_status_t (*region_seal)(pmix_gds_region_t *region);
    /* region_attach: maps, read-only, a sealed region received from another
     * process as descriptor fd (ownership of fd passes to the call: it is
     * kept in the region or closed, also on failure). size is the size the
     * sender announced. PMIX_ERR_BAD_PARAM when fd is not a region of this
     * module, is not sealed against writing, growing and shrinking, or has
     * another size; PMIX_ERR_NOT_SUPPORTED for a module without shared
     * regions. */
    pmix_status_t (*region_attach)(int fd, size_t size, pmix_gds_region_t *region);
    /* region_release: unmaps and closes; the region is zeroed. A zeroed
     * region is a no-op. */
    void (*region_release)(pmix_gds_region_t *region);

    /* Published regions: memory its creator goes on appending to while
     * others read what they were told about (the server's modex arena,
     * src/server/modex_arena.h). NULL in a module without them.
     *
     * region_publish: makes a created region shareable while the creator
     * keeps writing through base: afterwards region->fd is a descriptor
     * another process of this node can region_attach_published, and nobody
     * can grow or shrink the region, write it through its descriptor or
     * map it writable any more; only the creator's own mapping (base)
     * writes. The creator must never change bytes it told a reader about.
     * On failure the region is unchanged. A published region is released
     * with region_release. */
    pmix_status_t (*region_publish)(pmix_gds_region_t *region);
    /* region_attach_published: as region_attach, for a descriptor of a
     * published or a sealed region (sealed against growing and shrinking,
     * and against writing or future writing); read-only. A reader must
     * not trust bytes of a published region to stay as it first read them
     * (bounds-check every read). */
    pmix_status_t (*region_attach_published)(int fd, size_t size, pmix_gds_region_t *region);
} pmix_gds_module_t;

#ifdef __cplusplus
}
#endif

#endif /* PMIX_MCA_GDS_H */
