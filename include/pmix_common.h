/*
 * pmix_common.h - types, support functions and support macros of the PMIx
 * Standard v5.0, shared by the client (pmix.h), server (pmix_server.h) and
 * tool (pmix_tool.h) interfaces.
 *
 * Binary contract: every struct below has the field order, field types and
 * therefore the size and offsets of OpenPMIx 4.2.x on the same platform, so
 * that programs and plugins built against either set of headers run on
 * either library.  All constants (status codes, data types, enum values,
 * attribute keys) live in pmix_constants.h, included below.
 *
 * Memory rules: everything the library hands to the caller is allocated
 * with malloc/calloc/strdup and released with free() or with the *_FREE /
 * *_RELEASE / *_DESTRUCT macros here.  The support macros are thin
 * wrappers: anything beyond a field access calls an exported PMIx_*
 * function, so the header holds no hidden logic.  None of these functions
 * prints, exits or needs an initialized library; all are thread-safe on
 * distinct objects.
 *
 * Macro conventions (as in the Standard): "m" is a pointer to one object or
 * the variable that receives an array; *_CREATE(m, n) stores a new array of
 * n constructed objects in m (NULL when n is 0 or memory is short);
 * *_FREE(m, n) destructs n objects and frees the array; *_RELEASE(m)
 * destructs and frees one object.  Where OpenPMIx 4.2 resets the caller's
 * pointer to NULL, so do these macros.  The C and C++ forms are identical.
 */

#ifndef PMIx_COMMON_H
#define PMIx_COMMON_H

#include <stdbool.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <ctype.h>
#include <sys/time.h>  /* struct timeval */
#include <unistd.h>    /* pid_t, uid_t, gid_t */
#include <sys/types.h>

/* Every function of the API is exported from libpmix, which is built with
 * hidden default visibility. */
#if defined(__GNUC__) || defined(__clang__)
#define PMIX_HAVE_VISIBILITY 1
#define PMIX_EXPORT __attribute__((__visibility__("default")))
#else
#define PMIX_HAVE_VISIBILITY 0
#define PMIX_EXPORT
#endif

#include <pmix_version.h>
#include <pmix_constants.h>

#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/* OpenPMIx's header declares the process environment; code written against
 * it may rely on that. */
extern char **environ;

/* ------------------------------------------------------------------------
 * Scalar types (Standard §3, §5.2, §9.5, §12.4, §13.1, §15.2, §18.3, §19)
 * ------------------------------------------------------------------------ */
typedef char pmix_nspace_t[PMIX_MAX_NSLEN + 1];  /* NUL-terminated */
typedef char pmix_key_t[PMIX_MAX_KEYLEN + 1];    /* NUL-terminated */
typedef uint32_t pmix_rank_t;
typedef int pmix_status_t;
typedef uint8_t pmix_proc_state_t;
typedef uint8_t pmix_job_state_t;
typedef uint16_t pmix_data_type_t;
typedef uint8_t pmix_scope_t;
typedef uint8_t pmix_data_range_t;
typedef uint8_t pmix_persistence_t;
typedef uint32_t pmix_info_directives_t;
typedef uint8_t pmix_alloc_directive_t;
typedef uint16_t pmix_iof_channel_t;
typedef uint8_t pmix_coord_view_t;
typedef uint8_t pmix_link_state_t;
typedef uint8_t pmix_bind_envelope_t;
typedef uint16_t pmix_locality_t;
typedef uint64_t pmix_device_type_t;
typedef uint64_t pmix_storage_medium_t;
typedef uint64_t pmix_storage_accessibility_t;
typedef uint64_t pmix_storage_persistence_t;
typedef uint16_t pmix_storage_access_type_t;

/* Result of PMIx_Value_compare. */
typedef enum {
    PMIX_EQUAL = 0,
    PMIX_VALUE1_GREATER = 1,
    PMIX_VALUE2_GREATER = 2,
    PMIX_VALUE_TYPE_DIFFERENT = 3,
    PMIX_VALUE_INCOMPATIBLE_OBJECTS = 4,
    PMIX_VALUE_COMPARISON_NOT_AVAIL = 5
} pmix_value_cmp_t;

/* Answer to a group invitation (PMIx_Group_join). */
typedef enum {
    PMIX_GROUP_DECLINE = 0,
    PMIX_GROUP_ACCEPT = 1
} pmix_group_opt_t;

/* Operation requested of the host by the group upcall. */
typedef enum {
    PMIX_GROUP_CONSTRUCT = 0,
    PMIX_GROUP_DESTRUCT = 1
} pmix_group_operation_t;

/* How a value reads as a boolean (PMIx_Value_true). */
typedef enum {
    PMIX_BOOL_TRUE = 0,
    PMIX_BOOL_FALSE = 1,
    PMIX_NON_BOOL = 2
} pmix_boolean_t;

/* Operation requested of the host by the fabric upcall. */
typedef enum {
    PMIX_FABRIC_REQUEST_INFO = 0,
    PMIX_FABRIC_UPDATE_INFO = 1
} pmix_fabric_operation_t;

/* ------------------------------------------------------------------------
 * Structures, in OpenPMIx 4.2 layout.  Pointers they hold are owned by the
 * structure: the matching destruct function frees them.
 * ------------------------------------------------------------------------ */

typedef struct pmix_byte_object {
    char *bytes;
    size_t size;
} pmix_byte_object_t;

typedef struct pmix_coord {
    pmix_coord_view_t view;
    uint32_t *coord;   /* dims entries */
    size_t dims;
} pmix_coord_t;

typedef struct {
    char *source;      /* who made the bitmap, e.g. "hwloc" */
    void *bitmap;
} pmix_cpuset_t;

typedef struct {
    char *source;      /* e.g. "hwloc" */
    void *topology;
} pmix_topology_t;

typedef struct pmix_geometry {
    size_t fabric;
    char *uuid;
    char *osname;
    pmix_coord_t *coordinates;
    size_t ncoords;
} pmix_geometry_t;

typedef struct pmix_device_distance {
    char *uuid;
    char *osname;
    pmix_device_type_t type;
    uint16_t mindist;
    uint16_t maxdist;
} pmix_device_distance_t;

typedef struct pmix_endpoint {
    char *uuid;
    char *osname;
    pmix_byte_object_t endpt;
} pmix_endpoint_t;

typedef struct {
    char *envar;
    char *value;
    char separator;
} pmix_envar_t;

typedef struct pmix_proc {
    pmix_nspace_t nspace;
    pmix_rank_t rank;
} pmix_proc_t;

typedef struct pmix_proc_info {
    pmix_proc_t proc;
    char *hostname;
    char *executable_name;
    pid_t pid;
    int exit_code;
    pmix_proc_state_t state;
} pmix_proc_info_t;

typedef struct pmix_data_array {
    pmix_data_type_t type;
    size_t size;       /* number of elements */
    void *array;       /* size elements of the C type matching type */
} pmix_data_array_t;

/* Opaque to callers: only PMIx_Data_* and the DATA_BUFFER macros touch it. */
typedef struct pmix_data_buffer {
    char *base_ptr;
    char *pack_ptr;
    char *unpack_ptr;
    size_t bytes_allocated;
    size_t bytes_used;
} pmix_data_buffer_t;

typedef struct pmix_proc_stats {
    char *node;
    pmix_proc_t proc;
    pid_t pid;
    char *cmd;
    char state;
    struct timeval time;
    float percent_cpu;
    int32_t priority;
    uint16_t num_threads;
    float pss;
    float vsize;
    float rss;
    float peak_vsize;
    uint16_t processor;
    struct timeval sample_time;
} pmix_proc_stats_t;

typedef struct {
    char *disk;
    uint64_t num_reads_completed;
    uint64_t num_reads_merged;
    uint64_t num_sectors_read;
    uint64_t milliseconds_reading;
    uint64_t num_writes_completed;
    uint64_t num_writes_merged;
    uint64_t num_sectors_written;
    uint64_t milliseconds_writing;
    uint64_t num_ios_in_progress;
    uint64_t milliseconds_io;
    uint64_t weighted_milliseconds_io;
} pmix_disk_stats_t;

typedef struct {
    char *net_interface;
    uint64_t num_bytes_recvd;
    uint64_t num_packets_recvd;
    uint64_t num_recv_errs;
    uint64_t num_bytes_sent;
    uint64_t num_packets_sent;
    uint64_t num_send_errs;
} pmix_net_stats_t;

typedef struct {
    char *node;
    float la;
    float la5;
    float la15;
    float total_mem;
    float free_mem;
    float buffers;
    float cached;
    float swap_cached;
    float swap_total;
    float swap_free;
    float mapped;
    struct timeval sample_time;
    pmix_disk_stats_t *diskstats;
    size_t ndiskstats;
    pmix_net_stats_t *netstats;
    size_t nnetstats;
} pmix_node_stats_t;

/* A typed value; "type" (a PMIX_* data type) says which member is live. */
typedef struct pmix_value {
    pmix_data_type_t type;
    union {
        bool flag;
        uint8_t byte;
        char *string;
        size_t size;
        pid_t pid;
        int integer;
        int8_t int8;
        int16_t int16;
        int32_t int32;
        int64_t int64;
        unsigned int uint;
        uint8_t uint8;
        uint16_t uint16;
        uint32_t uint32;
        uint64_t uint64;
        float fval;
        double dval;
        struct timeval tv;
        time_t time;
        pmix_status_t status;
        pmix_rank_t rank;
        pmix_nspace_t *nspace;
        pmix_proc_t *proc;
        pmix_byte_object_t bo;
        pmix_persistence_t persist;
        pmix_scope_t scope;
        pmix_data_range_t range;
        pmix_proc_state_t state;
        pmix_proc_info_t *pinfo;
        pmix_data_array_t *darray;
        void *ptr;
        pmix_alloc_directive_t adir;
        pmix_envar_t envar;
        pmix_coord_t *coord;
        pmix_link_state_t linkstate;
        pmix_job_state_t jstate;
        pmix_topology_t *topo;
        pmix_cpuset_t *cpuset;
        pmix_locality_t locality;
        pmix_geometry_t *geometry;
        pmix_device_type_t devtype;
        pmix_device_distance_t *devdist;
        pmix_endpoint_t *endpoint;
        pmix_data_buffer_t *dbuf;
        pmix_proc_stats_t *pstats;
        pmix_disk_stats_t *dkstats;
        pmix_net_stats_t *netstats;
        pmix_node_stats_t *ndstats;
    } data;
} pmix_value_t;

typedef struct pmix_info {
    pmix_key_t key;
    pmix_info_directives_t flags;   /* PMIX_INFO_REQD, PMIX_INFO_ARRAY_END, ... */
    pmix_value_t value;
} pmix_info_t;

/* One published datum: who published it, under which key. */
typedef struct pmix_pdata {
    pmix_proc_t proc;
    pmix_key_t key;
    pmix_value_t value;
} pmix_pdata_t;

typedef struct pmix_app {
    char *cmd;
    char **argv;       /* NULL-terminated */
    char **env;        /* NULL-terminated "NAME=value" */
    char *cwd;
    int maxprocs;
    pmix_info_t *info;
    size_t ninfo;
} pmix_app_t;

typedef struct pmix_query {
    char **keys;       /* NULL-terminated */
    pmix_info_t *qualifiers;
    size_t nqual;
} pmix_query_t;

/* Attribute registration record (OpenPMIx 4.2 form: the key is held by
 * value and there is no info array). */
typedef struct pmix_regattr_t {
    char *name;
    pmix_key_t string;
    pmix_data_type_t type;
    char **description;   /* NULL-terminated */
} pmix_regattr_t;

typedef struct pmix_fabric_s {
    char *name;
    size_t index;
    pmix_info_t *info;
    size_t ninfo;
    void *module;      /* private to the library */
} pmix_fabric_t;

/* ------------------------------------------------------------------------
 * Callback types (ABI form of OpenPMIx 4.2).  Unless said otherwise the
 * arrays passed to a callback belong to the library and are valid only
 * until the callback returns; callbacks run on the library's progress
 * thread and must not block in PMIx calls.
 * ------------------------------------------------------------------------ */

/* Tells the provider of callback data that it may now release it. */
typedef void (*pmix_release_cbfunc_t)(void *cbdata);

/* Host -> server: collective or direct-modex data; the server calls
 * release_fn(release_cbdata) once it no longer needs "data". */
typedef void (*pmix_modex_cbfunc_t)(pmix_status_t status, const char *data, size_t ndata,
                                    void *cbdata, pmix_release_cbfunc_t release_fn,
                                    void *release_cbdata);

/* Completion of a spawn: the namespace of the new job. */
typedef void (*pmix_spawn_cbfunc_t)(pmix_status_t status, pmix_nspace_t nspace, void *cbdata);

/* Completion of an operation that only returns a status. */
typedef void (*pmix_op_cbfunc_t)(pmix_status_t status, void *cbdata);

/* Result of a lookup; "data" is released when the callback returns. */
typedef void (*pmix_lookup_cbfunc_t)(pmix_status_t status, pmix_pdata_t data[], size_t ndata,
                                     void *cbdata);

/* Called by an event handler when it is done: passes its status and
 * results down the chain; cbfunc (if given) is told when "results" may be
 * released. */
typedef void (*pmix_event_notification_cbfunc_fn_t)(pmix_status_t status, pmix_info_t *results,
                                                    size_t nresults, pmix_op_cbfunc_t cbfunc,
                                                    void *thiscbdata, void *notification_cbdata);

/* An event handler.  It must eventually call cbfunc(..., cbdata). */
typedef void (*pmix_notification_fn_t)(size_t evhdlr_registration_id, pmix_status_t status,
                                       const pmix_proc_t *source, pmix_info_t info[],
                                       size_t ninfo, pmix_info_t *results, size_t nresults,
                                       pmix_event_notification_cbfunc_fn_t cbfunc,
                                       void *cbdata);

/* Result of a handler registration (events, IOF): the reference id. */
typedef void (*pmix_hdlr_reg_cbfunc_t)(pmix_status_t status, size_t refid, void *cbdata);
/* Former name of pmix_hdlr_reg_cbfunc_t (deprecated). */
typedef void (*pmix_evhdlr_reg_cbfunc_t)(pmix_status_t status, size_t refid, void *cbdata);

/* Result of a non-blocking get; kv is NULL when nothing was found. */
typedef void (*pmix_value_cbfunc_t)(pmix_status_t status, pmix_value_t *kv, void *cbdata);

/* Result carrying an info array; the receiver calls
 * release_fn(release_cbdata) when done with "info" (if release_fn is set). */
typedef void (*pmix_info_cbfunc_t)(pmix_status_t status, pmix_info_t *info, size_t ninfo,
                                   void *cbdata, pmix_release_cbfunc_t release_fn,
                                   void *release_cbdata);

/* Result of a credential request. */
typedef void (*pmix_credential_cbfunc_t)(pmix_status_t status, pmix_byte_object_t *credential,
                                         pmix_info_t info[], size_t ninfo, void *cbdata);

/* Result of a credential validation. */
typedef void (*pmix_validation_cbfunc_t)(pmix_status_t status, pmix_info_t info[], size_t ninfo,
                                         void *cbdata);

/* Result of a device-distance computation (release as for info_cbfunc). */
typedef void (*pmix_device_dist_cbfunc_t)(pmix_status_t status, pmix_device_distance_t *dist,
                                          size_t ndist, void *cbdata,
                                          pmix_release_cbfunc_t release_fn,
                                          void *release_cbdata);

/* ------------------------------------------------------------------------
 * Static initializers (Standard v5.0, provisional).  Written positionally,
 * in field order, so they are valid C99 and C++11 alike.
 * ------------------------------------------------------------------------ */
#if defined(c_plusplus) || defined(__cplusplus)
#define PMIXX_VALUE_DATA_INIT_ {}
#else
#define PMIXX_VALUE_DATA_INIT_ { .ptr = NULL }
#endif

#define PMIX_BYTE_OBJECT_STATIC_INIT { NULL, 0 }
#define PMIX_COORD_STATIC_INIT { PMIX_COORD_VIEW_UNDEF, NULL, 0 }
#define PMIX_CPUSET_STATIC_INIT { NULL, NULL }
#define PMIX_TOPOLOGY_STATIC_INIT { NULL, NULL }
#define PMIX_GEOMETRY_STATIC_INIT { 0, NULL, NULL, NULL, 0 }
#define PMIX_DEVICE_DIST_STATIC_INIT { NULL, NULL, PMIX_DEVTYPE_UNKNOWN, 0, 0 }
#define PMIX_ENDPOINT_STATIC_INIT { NULL, NULL, PMIX_BYTE_OBJECT_STATIC_INIT }
#define PMIX_ENVAR_STATIC_INIT { NULL, NULL, '\0' }
#define PMIX_PROC_STATIC_INIT { {0}, PMIX_RANK_UNDEF }
#define PMIX_PROC_INFO_STATIC_INIT \
    { PMIX_PROC_STATIC_INIT, NULL, NULL, 0, 0, PMIX_PROC_STATE_UNDEF }
#define PMIX_DATA_ARRAY_STATIC_INIT { PMIX_UNDEF, 0, NULL }
#define PMIX_DATA_BUFFER_STATIC_INIT { NULL, NULL, NULL, 0, 0 }
#define PMIX_PROC_STATS_STATIC_INIT \
    { NULL, PMIX_PROC_STATIC_INIT, 0, NULL, '\0', {0, 0}, 0.0f, 0, 0, \
      0.0f, 0.0f, 0.0f, 0.0f, 0, {0, 0} }
#define PMIX_DISK_STATS_STATIC_INIT { NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }
#define PMIX_NET_STATS_STATIC_INIT { NULL, 0, 0, 0, 0, 0, 0 }
#define PMIX_NODE_STATS_STATIC_INIT \
    { NULL, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, \
      {0, 0}, NULL, 0, NULL, 0 }
#define PMIX_VALUE_STATIC_INIT { PMIX_UNDEF, PMIXX_VALUE_DATA_INIT_ }
#define PMIX_INFO_STATIC_INIT { {0}, 0, PMIX_VALUE_STATIC_INIT }
#define PMIX_LOOKUP_STATIC_INIT { PMIX_PROC_STATIC_INIT, {0}, PMIX_VALUE_STATIC_INIT }
#define PMIX_APP_STATIC_INIT { NULL, NULL, NULL, NULL, 0, NULL, 0 }
#define PMIX_QUERY_STATIC_INIT { NULL, NULL, 0 }
#define PMIX_REGATTR_STATIC_INIT { NULL, {0}, PMIX_UNDEF, NULL }
#define PMIX_FABRIC_STATIC_INIT { NULL, 0, NULL, 0, NULL }

/* ------------------------------------------------------------------------
 * Support functions behind the macros.  Conventions:
 *   *_construct  zero the object and set its defaults (rank PMIX_RANK_UNDEF,
 *                value type PMIX_UNDEF, ...);
 *   *_destruct   free everything the object owns, then construct it again;
 *   *_create     calloc n objects and construct each (NULL if n is 0 or on
 *                allocation failure);
 *   *_free       destruct n objects, then free the array (NULL is a no-op);
 *   *_release    destruct one object and free it.
 * ------------------------------------------------------------------------ */

/* Keys, namespaces, ranks and process ids.  The Check functions treat
 * PMIX_RANK_WILDCARD as matching any rank and an empty namespace as
 * matching any namespace; Load copies at most PMIX_MAX_KEYLEN /
 * PMIX_MAX_NSLEN characters, NUL-terminates, and zeroes on a NULL source. */
PMIX_EXPORT void PMIx_Load_key(pmix_key_t key, const char *src);
PMIX_EXPORT bool PMIx_Check_key(const char *key, const char *str);
PMIX_EXPORT bool PMIx_Check_reserved_key(const char *key);   /* starts with "pmix" */
PMIX_EXPORT void PMIx_Load_nspace(pmix_nspace_t nspace, const char *str);
PMIX_EXPORT bool PMIx_Check_nspace(const char *key1, const char *key2);
PMIX_EXPORT bool PMIx_Nspace_invalid(const char *nspace);    /* NULL or empty */
PMIX_EXPORT bool PMIx_Check_rank(pmix_rank_t a, pmix_rank_t b);
PMIX_EXPORT bool PMIx_Rank_valid(pmix_rank_t rank);           /* below PMIX_RANK_VALID */
PMIX_EXPORT void PMIx_Load_procid(pmix_proc_t *p, const char *ns, pmix_rank_t rk);
PMIX_EXPORT void PMIx_Xfer_procid(pmix_proc_t *dst, const pmix_proc_t *src);
PMIX_EXPORT bool PMIx_Check_procid(const pmix_proc_t *a, const pmix_proc_t *b);
PMIX_EXPORT bool PMIx_Procid_invalid(const pmix_proc_t *p);

/* NULL-terminated string arrays ("argv") and env-style arrays.  Strings are
 * copied in; arrays are malloc'd and freed with PMIx_Argv_free. */
PMIX_EXPORT int PMIx_Argv_count(char **a);
PMIX_EXPORT pmix_status_t PMIx_Argv_append_nosize(char ***argv, const char *arg);
PMIX_EXPORT pmix_status_t PMIx_Argv_prepend_nosize(char ***argv, const char *arg);
PMIX_EXPORT pmix_status_t PMIx_Argv_append_unique_nosize(char ***argv, const char *arg);
PMIX_EXPORT void PMIx_Argv_free(char **argv);
PMIX_EXPORT char **PMIx_Argv_split_inter(const char *src_string, int delimiter,
                                         bool include_empty);
PMIX_EXPORT char **PMIx_Argv_split_with_empty(const char *src_string, int delimiter);
PMIX_EXPORT char **PMIx_Argv_split(const char *src_string, int delimiter);
PMIX_EXPORT char *PMIx_Argv_join(char **argv, int delimiter);
PMIX_EXPORT char **PMIx_Argv_copy(char **argv);
/* Sets NAME=value in *env (the process environment when *env == environ);
 * PMIX_ERR_EXISTS when present and !overwrite. */
PMIX_EXPORT pmix_status_t PMIx_Setenv(const char *name, const char *value, bool overwrite,
                                      char ***env);

/* Values and infos. */
PMIX_EXPORT void PMIx_Value_construct(pmix_value_t *val);
PMIX_EXPORT void PMIx_Value_destruct(pmix_value_t *val);
PMIX_EXPORT pmix_value_t *PMIx_Value_create(size_t n);
PMIX_EXPORT void PMIx_Value_free(pmix_value_t *v, size_t n);
/* Converts a numeric value to the numeric PMIX_* "type" at dest;
 * PMIX_ERR_BAD_PARAM when the value is not a number. */
PMIX_EXPORT pmix_status_t PMIx_Value_get_number(const pmix_value_t *value, void *dest,
                                                pmix_data_type_t type);
/* Copies data of the given type into val (deep copy). */
PMIX_EXPORT pmix_status_t PMIx_Value_load(pmix_value_t *val, const void *data,
                                          pmix_data_type_t type);
/* Returns in *data a malloc'd copy of the value's data and in *sz its size. */
PMIX_EXPORT pmix_status_t PMIx_Value_unload(pmix_value_t *val, void **data, size_t *sz);
PMIX_EXPORT pmix_status_t PMIx_Value_xfer(pmix_value_t *dest, const pmix_value_t *src);
PMIX_EXPORT pmix_value_cmp_t PMIx_Value_compare(pmix_value_t *v1, pmix_value_t *v2);
/* Boolean reading of a value: PMIX_UNDEF reads as true; strings such as
 * "yes"/"no", "true"/"false" or digits are understood. */
PMIX_EXPORT pmix_boolean_t PMIx_Value_true(const pmix_value_t *value);

PMIX_EXPORT void PMIx_Info_construct(pmix_info_t *p);
PMIX_EXPORT void PMIx_Info_destruct(pmix_info_t *p);
PMIX_EXPORT pmix_info_t *PMIx_Info_create(size_t n);   /* last one flagged ARRAY_END */
PMIX_EXPORT void PMIx_Info_free(pmix_info_t *p, size_t n);
PMIX_EXPORT bool PMIx_Info_true(const pmix_info_t *p);  /* PMIX_UNDEF counts as true */
PMIX_EXPORT void PMIx_Info_required(pmix_info_t *p);
PMIX_EXPORT void PMIx_Info_optional(pmix_info_t *p);
PMIX_EXPORT bool PMIx_Info_is_required(const pmix_info_t *p);
PMIX_EXPORT bool PMIx_Info_is_optional(const pmix_info_t *p);
PMIX_EXPORT void PMIx_Info_processed(pmix_info_t *p);
PMIX_EXPORT bool PMIx_Info_was_processed(const pmix_info_t *p);
PMIX_EXPORT void PMIx_Info_set_end(pmix_info_t *p);
PMIX_EXPORT bool PMIx_Info_is_end(const pmix_info_t *p);
/* Loads key and a copy of the data into info. */
PMIX_EXPORT pmix_status_t PMIx_Info_load(pmix_info_t *info, const char *key, const void *data,
                                         pmix_data_type_t type);
/* Deep-copies key, flags and value. */
PMIX_EXPORT pmix_status_t PMIx_Info_xfer(pmix_info_t *dest, const pmix_info_t *src);

/* Info lists: an opaque growable list of infos, converted at the end into
 * a pmix_data_array_t of PMIX_INFO.  add/xfer copy; insert takes the info
 * itself (the caller must keep it alive until the list is released). */
PMIX_EXPORT void *PMIx_Info_list_start(void);
PMIX_EXPORT pmix_status_t PMIx_Info_list_add(void *ptr, const char *key, const void *value,
                                             pmix_data_type_t type);
PMIX_EXPORT pmix_status_t PMIx_Info_list_insert(void *ptr, pmix_info_t *info);
PMIX_EXPORT pmix_status_t PMIx_Info_list_xfer(void *ptr, const pmix_info_t *info);
PMIX_EXPORT pmix_status_t PMIx_Info_list_convert(void *ptr, pmix_data_array_t *par);
PMIX_EXPORT void PMIx_Info_list_release(void *ptr);

/* The other structures. */
PMIX_EXPORT void PMIx_Coord_construct(pmix_coord_t *m);
PMIX_EXPORT void PMIx_Coord_destruct(pmix_coord_t *m);
/* number structs, each with a zeroed coord array of dims entries */
PMIX_EXPORT pmix_coord_t *PMIx_Coord_create(size_t dims, size_t number);
PMIX_EXPORT void PMIx_Coord_free(pmix_coord_t *m, size_t number);
PMIX_EXPORT void PMIx_Topology_construct(pmix_topology_t *t);
PMIX_EXPORT void PMIx_Topology_destruct(pmix_topology_t *topo);
PMIX_EXPORT pmix_topology_t *PMIx_Topology_create(size_t n);
PMIX_EXPORT void PMIx_Topology_free(pmix_topology_t *t, size_t n);
PMIX_EXPORT void PMIx_Cpuset_construct(pmix_cpuset_t *c);
PMIX_EXPORT void PMIx_Cpuset_destruct(pmix_cpuset_t *c);
PMIX_EXPORT pmix_cpuset_t *PMIx_Cpuset_create(size_t n);
PMIX_EXPORT void PMIx_Cpuset_free(pmix_cpuset_t *c, size_t n);
PMIX_EXPORT void PMIx_Geometry_construct(pmix_geometry_t *g);
PMIX_EXPORT void PMIx_Geometry_destruct(pmix_geometry_t *g);
PMIX_EXPORT pmix_geometry_t *PMIx_Geometry_create(size_t n);
PMIX_EXPORT void PMIx_Geometry_free(pmix_geometry_t *g, size_t n);
PMIX_EXPORT void PMIx_Device_distance_construct(pmix_device_distance_t *d);
PMIX_EXPORT void PMIx_Device_distance_destruct(pmix_device_distance_t *d);
PMIX_EXPORT pmix_device_distance_t *PMIx_Device_distance_create(size_t n);
PMIX_EXPORT void PMIx_Device_distance_free(pmix_device_distance_t *d, size_t n);
PMIX_EXPORT void PMIx_Byte_object_construct(pmix_byte_object_t *b);
PMIX_EXPORT void PMIx_Byte_object_destruct(pmix_byte_object_t *g);
PMIX_EXPORT pmix_byte_object_t *PMIx_Byte_object_create(size_t n);
PMIX_EXPORT void PMIx_Byte_object_free(pmix_byte_object_t *g, size_t n);
PMIX_EXPORT void PMIx_Byte_object_load(pmix_byte_object_t *b, char *d, size_t sz); /* owns d */
PMIX_EXPORT void PMIx_Endpoint_construct(pmix_endpoint_t *e);
PMIX_EXPORT void PMIx_Endpoint_destruct(pmix_endpoint_t *e);
PMIX_EXPORT pmix_endpoint_t *PMIx_Endpoint_create(size_t n);
PMIX_EXPORT void PMIx_Endpoint_free(pmix_endpoint_t *e, size_t n);
PMIX_EXPORT void PMIx_Envar_construct(pmix_envar_t *e);
PMIX_EXPORT void PMIx_Envar_destruct(pmix_envar_t *e);
PMIX_EXPORT pmix_envar_t *PMIx_Envar_create(size_t n);
PMIX_EXPORT void PMIx_Envar_free(pmix_envar_t *e, size_t n);
PMIX_EXPORT void PMIx_Envar_load(pmix_envar_t *e, char *var, char *value, char separator);
PMIX_EXPORT void PMIx_Data_buffer_construct(pmix_data_buffer_t *b);
PMIX_EXPORT void PMIx_Data_buffer_destruct(pmix_data_buffer_t *b);
PMIX_EXPORT pmix_data_buffer_t *PMIx_Data_buffer_create(void);
PMIX_EXPORT void PMIx_Data_buffer_release(pmix_data_buffer_t *b);
/* load takes ownership of bytes; unload hands out the not-yet-unpacked part */
PMIX_EXPORT void PMIx_Data_buffer_load(pmix_data_buffer_t *b, char *bytes, size_t sz);
PMIX_EXPORT void PMIx_Data_buffer_unload(pmix_data_buffer_t *b, char **bytes, size_t *sz);
PMIX_EXPORT void PMIx_Proc_construct(pmix_proc_t *p);
PMIX_EXPORT void PMIx_Proc_destruct(pmix_proc_t *p);
PMIX_EXPORT pmix_proc_t *PMIx_Proc_create(size_t n);
PMIX_EXPORT void PMIx_Proc_free(pmix_proc_t *p, size_t n);
PMIX_EXPORT void PMIx_Proc_load(pmix_proc_t *p, char *nspace, pmix_rank_t rank);
/* construct: target = "cluster:nspace" (left empty when that would not
 * fit); parse: the reverse.  The string inputs are spelled as pointers (same
 * type as pmix_nspace_t parameters) so that callers may pass shorter
 * strings without the compiler assuming PMIX_MAX_NSLEN+1 readable bytes. */
PMIX_EXPORT void PMIx_Multicluster_nspace_construct(pmix_nspace_t target, char *cluster,
                                                    char *nspace);
PMIX_EXPORT void PMIx_Multicluster_nspace_parse(char *target, pmix_nspace_t cluster,
                                                pmix_nspace_t nspace);
PMIX_EXPORT void PMIx_Proc_info_construct(pmix_proc_info_t *p);
PMIX_EXPORT void PMIx_Proc_info_destruct(pmix_proc_info_t *p);
PMIX_EXPORT pmix_proc_info_t *PMIx_Proc_info_create(size_t n);
PMIX_EXPORT void PMIx_Proc_info_free(pmix_proc_info_t *p, size_t n);
PMIX_EXPORT void PMIx_Proc_stats_construct(pmix_proc_stats_t *p);
PMIX_EXPORT void PMIx_Proc_stats_destruct(pmix_proc_stats_t *p);
PMIX_EXPORT pmix_proc_stats_t *PMIx_Proc_stats_create(size_t n);
PMIX_EXPORT void PMIx_Proc_stats_free(pmix_proc_stats_t *p, size_t n);
PMIX_EXPORT void PMIx_Disk_stats_construct(pmix_disk_stats_t *p);
PMIX_EXPORT void PMIx_Disk_stats_destruct(pmix_disk_stats_t *p);
PMIX_EXPORT pmix_disk_stats_t *PMIx_Disk_stats_create(size_t n);
PMIX_EXPORT void PMIx_Disk_stats_free(pmix_disk_stats_t *p, size_t n);
PMIX_EXPORT void PMIx_Net_stats_construct(pmix_net_stats_t *p);
PMIX_EXPORT void PMIx_Net_stats_destruct(pmix_net_stats_t *p);
PMIX_EXPORT pmix_net_stats_t *PMIx_Net_stats_create(size_t n);
PMIX_EXPORT void PMIx_Net_stats_free(pmix_net_stats_t *p, size_t n);
PMIX_EXPORT void PMIx_Node_stats_construct(pmix_node_stats_t *p);
PMIX_EXPORT void PMIx_Node_stats_destruct(pmix_node_stats_t *p);
PMIX_EXPORT pmix_node_stats_t *PMIx_Node_stats_create(size_t n);
PMIX_EXPORT void PMIx_Node_stats_free(pmix_node_stats_t *p, size_t n);
PMIX_EXPORT void PMIx_Pdata_construct(pmix_pdata_t *p);
PMIX_EXPORT void PMIx_Pdata_destruct(pmix_pdata_t *p);
PMIX_EXPORT pmix_pdata_t *PMIx_Pdata_create(size_t n);
PMIX_EXPORT void PMIx_Pdata_free(pmix_pdata_t *p, size_t n);
PMIX_EXPORT void PMIx_App_construct(pmix_app_t *p);
PMIX_EXPORT void PMIx_App_destruct(pmix_app_t *p);
PMIX_EXPORT pmix_app_t *PMIx_App_create(size_t n);
PMIX_EXPORT void PMIx_App_free(pmix_app_t *p, size_t n);
PMIX_EXPORT void PMIx_App_info_create(pmix_app_t *p, size_t n);   /* sets info/ninfo */
PMIX_EXPORT void PMIx_App_release(pmix_app_t *p);
PMIX_EXPORT void PMIx_Query_construct(pmix_query_t *p);
PMIX_EXPORT void PMIx_Query_destruct(pmix_query_t *p);
PMIX_EXPORT pmix_query_t *PMIx_Query_create(size_t n);
PMIX_EXPORT void PMIx_Query_free(pmix_query_t *p, size_t n);
PMIX_EXPORT void PMIx_Query_qualifiers_create(pmix_query_t *p, size_t n);
PMIX_EXPORT void PMIx_Query_release(pmix_query_t *p);
PMIX_EXPORT void PMIx_Regattr_construct(pmix_regattr_t *p);
PMIX_EXPORT void PMIx_Regattr_destruct(pmix_regattr_t *p);
PMIX_EXPORT pmix_regattr_t *PMIx_Regattr_create(size_t n);
PMIX_EXPORT void PMIx_Regattr_free(pmix_regattr_t *p, size_t n);
/* name and key are copied when not NULL; description is appended */
PMIX_EXPORT void PMIx_Regattr_load(pmix_regattr_t *info, const char *name, const char *key,
                                   pmix_data_type_t type, const char *description);
PMIX_EXPORT void PMIx_Regattr_xfer(pmix_regattr_t *dest, const pmix_regattr_t *src);
PMIX_EXPORT void PMIx_Data_array_init(pmix_data_array_t *p, pmix_data_type_t type);
/* allocates num constructed elements of the given type */
PMIX_EXPORT void PMIx_Data_array_construct(pmix_data_array_t *p, size_t num,
                                           pmix_data_type_t type);
PMIX_EXPORT void PMIx_Data_array_destruct(pmix_data_array_t *d);
PMIX_EXPORT pmix_data_array_t *PMIx_Data_array_create(size_t n, pmix_data_type_t type);
PMIX_EXPORT void PMIx_Data_array_free(pmix_data_array_t *p);
PMIX_EXPORT void PMIx_Fabric_construct(pmix_fabric_t *p);

/* ------------------------------------------------------------------------
 * Source compatibility with OpenPMIx 4.2's headers
 *
 * OpenPMIx 4.2 defines these lower-case helpers as static inline functions
 * in its public header, and code written against it may call them. Here
 * they are thin inline forwards to the exported functions above (or to
 * libc), so they add no symbols and behave the same.
 * ------------------------------------------------------------------------ */

static inline void *pmix_malloc(size_t n) { return malloc(n); }
static inline void pmix_free(void *m) { free(m); }
static inline void *pmix_calloc(size_t n, size_t m) { return calloc(n, m); }

/* Copies at most len characters of src and always terminates: dest must
 * hold len + 1 bytes. */
static inline void pmix_strncpy(char *dest, const char *src, size_t len)
{
    size_t i = 0;
    for (; i < len && src[i] != '\0'; ++i) {
        dest[i] = src[i];
    }
    dest[i] = '\0';
}

/* Length of a key or nspace, counting at most the maximum length. */
static inline size_t pmix_keylen(const char *src)
{
    size_t n = 0;
    while (n < PMIX_MAX_KEYLEN && src[n] != '\0') {
        ++n;
    }
    return n;
}

static inline size_t pmix_nslen(const char *src)
{
    size_t n = 0;
    while (n < PMIX_MAX_NSLEN && src[n] != '\0') {
        ++n;
    }
    return n;
}

#include <pmix_inline.h>

static inline int pmix_argv_count(char **argv) { return pmixx_argv_count(argv); }
static inline pmix_status_t pmix_argv_append_nosize(char ***argv, const char *arg)
{
    return pmixx_argv_insert(argv, 1, arg);
}
static inline pmix_status_t pmix_argv_prepend_nosize(char ***argv, const char *arg)
{
    return pmixx_argv_insert(argv, 0, arg);
}
static inline pmix_status_t pmix_argv_append_unique_nosize(char ***argv, const char *arg)
{
    return pmixx_argv_append_unique(argv, arg);
}
static inline void pmix_argv_free(char **argv) { pmixx_argv_free(argv); }
static inline char **pmix_argv_split_inter(const char *src_string, int delimiter,
                                           bool include_empty)
{
    return pmixx_argv_split(src_string, delimiter, include_empty);
}
static inline char **pmix_argv_split_with_empty(const char *src_string, int delimiter)
{
    return pmixx_argv_split(src_string, delimiter, true);
}
static inline char **pmix_argv_split(const char *src_string, int delimiter)
{
    return pmixx_argv_split(src_string, delimiter, false);
}
static inline char *pmix_argv_join(char **argv, int delimiter)
{
    return pmixx_argv_join(argv, delimiter);
}
static inline char **pmix_argv_copy(char **argv) { return pmixx_argv_copy(argv); }
static inline pmix_status_t pmix_setenv(const char *name, const char *value, bool overwrite,
                                        char ***env)
{
    return pmixx_setenv(name, value, overwrite, env);
}
static inline pmix_boolean_t pmix_check_true(const pmix_value_t *value)
{
    return pmixx_value_true(value);
}
static inline void pmix_proc_stats_free(pmix_proc_stats_t *p, size_t n)
{
    pmixx_release(PMIX_PROC_STATS, p, n);
}
static inline void pmix_disk_stats_free(pmix_disk_stats_t *p, size_t n)
{
    pmixx_release(PMIX_DISK_STATS, p, n);
}
static inline void pmix_net_stats_free(pmix_net_stats_t *p, size_t n)
{
    pmixx_release(PMIX_NET_STATS, p, n);
}
static inline void pmix_node_stats_free(pmix_node_stats_t *p, size_t n)
{
    pmixx_release(PMIX_NODE_STATS, p, n);
}
static inline void pmix_app_free(pmix_app_t *p, size_t n) { pmixx_release(PMIX_APP, p, n); }
static inline void pmix_pdata_free(pmix_pdata_t *p, size_t n) { pmixx_release(PMIX_PDATA, p, n); }

/* ------------------------------------------------------------------------
 * Support macros
 * ------------------------------------------------------------------------ */

/* Ranks and events: pure arithmetic. */
#define PMIX_RANK_IS_VALID(r) ((r) < PMIX_RANK_VALID)
#define PMIX_SYSTEM_EVENT(a) \
    ((a) <= PMIX_EVENT_SYS_BASE && PMIX_EVENT_SYS_OTHER <= (a))

/* Keys: a is an object with a "key" field (pmix_info_t*, pmix_pdata_t*). */
#define PMIX_CHECK_KEY(a, b) (0 == strncmp((a)->key, (b), PMIX_MAX_KEYLEN))
#define PMIX_CHECK_RESERVED_KEY(a) (0 == strncmp((a), "pmix", 4))
#define PMIX_LOAD_KEY(a, b) pmixx_load_bounded((char *)(a), (const char *)(b), PMIX_MAX_KEYLEN)

/* Namespaces and process ids. */
#define PMIX_LOAD_NSPACE(a, b) pmixx_load_bounded((char *)(a), (b), PMIX_MAX_NSLEN)
#define PMIX_CHECK_NSPACE(a, b) pmixx_check_nspace((a), (b))
#define PMIX_NSPACE_INVALID(a) pmixx_nspace_invalid(a)
#define PMIX_CHECK_RANK(a, b) pmixx_check_rank((a), (b))
#define PMIX_LOAD_PROCID(a, b, c) pmixx_load_procid((a), (b), (c))
#define PMIX_XFER_PROCID(a, b) memcpy((a), (b), sizeof(pmix_proc_t))
#define PMIX_PROCID_XFER(a, b) memcpy((a), (b), sizeof(pmix_proc_t))
#define PMIX_CHECK_PROCID(a, b) \
    (pmixx_check_nspace((a)->nspace, (b)->nspace) && pmixx_check_rank((a)->rank, (b)->rank))
#define PMIX_PROCID_INVALID(a) \
    (pmixx_nspace_invalid((a)->nspace) || PMIX_RANK_INVALID == (a)->rank)
#define PMIX_MULTICLUSTER_NSPACE_CONSTRUCT(t, c, n) \
    pmixx_mc_construct((t), (c), (n))
#define PMIX_MULTICLUSTER_NSPACE_PARSE(t, c, n) \
    pmixx_mc_parse((t), (c), (n))

/* Argument arrays: "a" in APPEND/PREPEND is the char** variable itself,
 * in APPEND_UNIQUE its address (as in OpenPMIx). */
#define PMIX_ARGV_COUNT(r, a) (r) = pmixx_argv_count(a)
#define PMIX_ARGV_APPEND(r, a, b) (r) = pmixx_argv_insert(&(a), 1, (b))
#define PMIX_ARGV_PREPEND(r, a, b) (r) = pmixx_argv_insert(&(a), 0, (b))
#define PMIX_ARGV_APPEND_UNIQUE(r, a, b) (r) = pmixx_argv_append_unique((a), (b))
#define PMIX_ARGV_FREE(a) pmixx_argv_free(a)
#define PMIX_ARGV_SPLIT(a, b, c) (a) = pmixx_argv_split((b), (c), false)
#define PMIX_ARGV_JOIN(a, b, c) (a) = pmixx_argv_join((b), (c))
#define PMIX_ARGV_COPY(a, b) (a) = pmixx_argv_copy(b)
#define PMIX_SETENV(r, name, value, env) (r) = pmixx_setenv((name), (value), true, (env))

/* Picks the macro for the number of trailing arguments (1 or 2). */
#define PMIXX_PICK_1_OR_2_(x1, x2, name, ...) name

/* Coordinates.  CREATE takes (m, n) as in the Standard, or (m, n, dims) as
 * in OpenPMIx 4.2: n structures, each with a zeroed array of dims entries. */
#define PMIX_COORD_CONSTRUCT(m) pmixx_construct(PMIX_COORD, (m), sizeof(pmix_coord_t))
#define PMIX_COORD_DESTRUCT(m) pmixx_destruct(PMIX_COORD, (m), sizeof(pmix_coord_t))
#define PMIX_COORD_CREATE(m, ...) \
    PMIXX_PICK_1_OR_2_(__VA_ARGS__, PMIXX_COORD_CREATE3_, PMIXX_COORD_CREATE2_, \
                       PMIXX_NONE_)((m), __VA_ARGS__)
#define PMIXX_COORD_CREATE2_(m, n) (m) = pmixx_coord_create((n), 0)
#define PMIXX_COORD_CREATE3_(m, n, dims) (m) = pmixx_coord_create((n), (dims))
#define PMIX_COORD_FREE(m, n) \
    do { pmixx_release(PMIX_COORD, (m), (n)); (m) = NULL; } while (0)

/* Cpusets and topologies. */
#define PMIX_CPUSET_CONSTRUCT(m) pmixx_construct(PMIX_PROC_CPUSET, (m), sizeof(pmix_cpuset_t))
#define PMIX_CPUSET_DESTRUCT(m) PMIx_Cpuset_destruct(m)
#define PMIX_CPUSET_CREATE(m, n) (m) = (pmix_cpuset_t *)pmixx_create(PMIX_PROC_CPUSET, (n), sizeof(pmix_cpuset_t))
#define PMIX_CPUSET_FREE(m, n) \
    do { pmixx_release(PMIX_PROC_CPUSET, (m), (n)); (m) = NULL; } while (0)
#define PMIX_TOPOLOGY_CONSTRUCT(m) pmixx_construct(PMIX_TOPO, (m), sizeof(pmix_topology_t))
#define PMIX_TOPOLOGY_CREATE(m, n) (m) = (pmix_topology_t *)pmixx_create(PMIX_TOPO, (n), sizeof(pmix_topology_t))

/* Geometries, device distances, endpoints. */
#define PMIX_GEOMETRY_CONSTRUCT(m) pmixx_construct(PMIX_GEOMETRY, (m), sizeof(pmix_geometry_t))
#define PMIX_GEOMETRY_DESTRUCT(m) pmixx_destruct(PMIX_GEOMETRY, (m), sizeof(pmix_geometry_t))
#define PMIX_GEOMETRY_CREATE(m, n) (m) = (pmix_geometry_t *)pmixx_create(PMIX_GEOMETRY, (n), sizeof(pmix_geometry_t))
#define PMIX_GEOMETRY_FREE(m, n) \
    do { pmixx_release(PMIX_GEOMETRY, (m), (n)); (m) = NULL; } while (0)
#define PMIX_DEVICE_DIST_CONSTRUCT(m) pmixx_construct(PMIX_DEVICE_DIST, (m), sizeof(pmix_device_distance_t))
#define PMIX_DEVICE_DIST_DESTRUCT(m) pmixx_destruct(PMIX_DEVICE_DIST, (m), sizeof(pmix_device_distance_t))
#define PMIX_DEVICE_DIST_CREATE(m, n) (m) = (pmix_device_distance_t *)pmixx_create(PMIX_DEVICE_DIST, (n), sizeof(pmix_device_distance_t))
#define PMIX_DEVICE_DIST_FREE(m, n) \
    do { pmixx_release(PMIX_DEVICE_DIST, (m), (n)); (m) = NULL; } while (0)
#define PMIX_ENDPOINT_CONSTRUCT(m) pmixx_construct(PMIX_ENDPOINT, (m), sizeof(pmix_endpoint_t))
#define PMIX_ENDPOINT_DESTRUCT(m) pmixx_destruct(PMIX_ENDPOINT, (m), sizeof(pmix_endpoint_t))
#define PMIX_ENDPOINT_CREATE(m, n) (m) = (pmix_endpoint_t *)pmixx_create(PMIX_ENDPOINT, (n), sizeof(pmix_endpoint_t))
#define PMIX_ENDPOINT_FREE(m, n) \
    do { pmixx_release(PMIX_ENDPOINT, (m), (n)); (m) = NULL; } while (0)

/* Byte objects.  LOAD hands the bytes d over to b and then clears the
 * caller's d and s (both must be variables). */
#define PMIX_BYTE_OBJECT_CONSTRUCT(m) pmixx_construct(PMIX_BYTE_OBJECT, (m), sizeof(pmix_byte_object_t))
#define PMIX_BYTE_OBJECT_DESTRUCT(m) pmixx_destruct(PMIX_BYTE_OBJECT, (m), sizeof(pmix_byte_object_t))
#define PMIX_BYTE_OBJECT_CREATE(m, n) (m) = (pmix_byte_object_t *)pmixx_create(PMIX_BYTE_OBJECT, (n), sizeof(pmix_byte_object_t))
#define PMIX_BYTE_OBJECT_FREE(m, n) \
    do { pmixx_release(PMIX_BYTE_OBJECT, (m), (n)); (m) = NULL; } while (0)
#define PMIX_BYTE_OBJECT_LOAD(b, d, s)                       \
    do {                                                     \
        (b)->bytes = (char *)(d);                             \
        (b)->size = (d) == NULL ? 0 : (size_t)(s);            \
        (d) = NULL;                                          \
        (s) = 0;                                             \
    } while (0)

/* Environment variable directives.  LOAD copies e and v. */
#define PMIX_ENVAR_CONSTRUCT(m) pmixx_construct(PMIX_ENVAR, (m), sizeof(pmix_envar_t))
#define PMIX_ENVAR_DESTRUCT(m) pmixx_destruct(PMIX_ENVAR, (m), sizeof(pmix_envar_t))
#define PMIX_ENVAR_CREATE(m, n) (m) = (pmix_envar_t *)pmixx_create(PMIX_ENVAR, (n), sizeof(pmix_envar_t))
#define PMIX_ENVAR_FREE(m, n) \
    do { pmixx_release(PMIX_ENVAR, (m), (n)); (m) = NULL; } while (0)
#define PMIX_ENVAR_LOAD(m, e, v, s) pmixx_envar_load((m), (e), (v), (s))

/* Data buffers.  LOAD gives the buffer ownership of d; UNLOAD hands the
 * caller the unread payload in d and s (NULL and 0 when there is none). */
#define PMIX_DATA_BUFFER_CREATE(m) (m) = (pmix_data_buffer_t *)calloc(1, sizeof(pmix_data_buffer_t))
#define PMIX_DATA_BUFFER_RELEASE(m) \
    do { if (NULL != (m)) { pmixx_dbuf_load((m), NULL, 0); free(m); } (m) = NULL; } while (0)
#define PMIX_DATA_BUFFER_CONSTRUCT(m) memset((m), 0, sizeof(pmix_data_buffer_t))
#define PMIX_DATA_BUFFER_DESTRUCT(m) pmixx_dbuf_load((m), NULL, 0)
#define PMIX_DATA_BUFFER_LOAD(b, d, s) pmixx_dbuf_load((b), (char *)(d), (s))
#define PMIX_DATA_BUFFER_UNLOAD(b, d, s)                        \
    do {                                                        \
        char *pmixx_bytes_ = NULL;                              \
        size_t pmixx_size_ = 0;                                 \
        pmixx_dbuf_unload((b), &pmixx_bytes_, &pmixx_size_);     \
        (d) = pmixx_bytes_;                                     \
        (s) = pmixx_size_;                                      \
    } while (0)

/* Process ids (PMIX_PROC_LOAD is kept; PMIX_LOAD_PROCID is preferred). */
#define PMIX_PROC_CREATE(m, n) (m) = (pmix_proc_t *)pmixx_create(PMIX_PROC, (n), sizeof(pmix_proc_t))
#define PMIX_PROC_RELEASE(m) \
    do { pmixx_release(PMIX_PROC, (m), 1); (m) = NULL; } while (0)
#define PMIX_PROC_CONSTRUCT(m) pmixx_construct(PMIX_PROC, (m), sizeof(pmix_proc_t))
#define PMIX_PROC_DESTRUCT(m) pmixx_destruct(PMIX_PROC, (m), sizeof(pmix_proc_t))
#define PMIX_PROC_FREE(m, n) \
    do { pmixx_release(PMIX_PROC, (m), (n)); (m) = NULL; } while (0)
#define PMIX_PROC_LOAD(m, n, r) pmixx_load_procid((m), (n), (r))

/* Process information. */
#define PMIX_PROC_INFO_CREATE(m, n) (m) = (pmix_proc_info_t *)pmixx_create(PMIX_PROC_INFO, (n), sizeof(pmix_proc_info_t))
#define PMIX_PROC_INFO_RELEASE(m) \
    do { pmixx_release(PMIX_PROC_INFO, (m), 1); (m) = NULL; } while (0)
#define PMIX_PROC_INFO_CONSTRUCT(m) pmixx_construct(PMIX_PROC_INFO, (m), sizeof(pmix_proc_info_t))
#define PMIX_PROC_INFO_DESTRUCT(m) pmixx_destruct(PMIX_PROC_INFO, (m), sizeof(pmix_proc_info_t))
#define PMIX_PROC_INFO_FREE(m, n) \
    do { pmixx_release(PMIX_PROC_INFO, (m), (n)); (m) = NULL; } while (0)

/* Resource statistics. */
#define PMIX_PROC_STATS_CREATE(m, n) (m) = (pmix_proc_stats_t *)pmixx_create(PMIX_PROC_STATS, (n), sizeof(pmix_proc_stats_t))
#define PMIX_PROC_STATS_RELEASE(m) \
    do { pmixx_release(PMIX_PROC_STATS, (m), 1); (m) = NULL; } while (0)
#define PMIX_PROC_STATS_CONSTRUCT(m) pmixx_construct(PMIX_PROC_STATS, (m), sizeof(pmix_proc_stats_t))
#define PMIX_PROC_STATS_DESTRUCT(m) pmixx_destruct(PMIX_PROC_STATS, (m), sizeof(pmix_proc_stats_t))
#define PMIX_PROC_STATS_FREE(m, n) \
    do { pmixx_release(PMIX_PROC_STATS, (m), (n)); (m) = NULL; } while (0)
#define PMIX_DISK_STATS_CREATE(m, n) (m) = (pmix_disk_stats_t *)pmixx_create(PMIX_DISK_STATS, (n), sizeof(pmix_disk_stats_t))
#define PMIX_DISK_STATS_RELEASE(m) \
    do { pmixx_release(PMIX_DISK_STATS, (m), 1); (m) = NULL; } while (0)
#define PMIX_DISK_STATS_CONSTRUCT(m) pmixx_construct(PMIX_DISK_STATS, (m), sizeof(pmix_disk_stats_t))
#define PMIX_DISK_STATS_DESTRUCT(m) pmixx_destruct(PMIX_DISK_STATS, (m), sizeof(pmix_disk_stats_t))
#define PMIX_DISK_STATS_FREE(m, n) \
    do { pmixx_release(PMIX_DISK_STATS, (m), (n)); (m) = NULL; } while (0)
#define PMIX_NET_STATS_CREATE(m, n) (m) = (pmix_net_stats_t *)pmixx_create(PMIX_NET_STATS, (n), sizeof(pmix_net_stats_t))
#define PMIX_NET_STATS_RELEASE(m) \
    do { pmixx_release(PMIX_NET_STATS, (m), 1); (m) = NULL; } while (0)
#define PMIX_NET_STATS_CONSTRUCT(m) pmixx_construct(PMIX_NET_STATS, (m), sizeof(pmix_net_stats_t))
#define PMIX_NET_STATS_DESTRUCT(m) pmixx_destruct(PMIX_NET_STATS, (m), sizeof(pmix_net_stats_t))
#define PMIX_NET_STATS_FREE(m, n) \
    do { pmixx_release(PMIX_NET_STATS, (m), (n)); (m) = NULL; } while (0)
#define PMIX_NODE_STATS_CREATE(m, n) (m) = (pmix_node_stats_t *)pmixx_create(PMIX_NODE_STATS, (n), sizeof(pmix_node_stats_t))
#define PMIX_NODE_STATS_RELEASE(m) \
    do { pmixx_release(PMIX_NODE_STATS, (m), 1); (m) = NULL; } while (0)
#define PMIX_NODE_STATS_CONSTRUCT(m) pmixx_construct(PMIX_NODE_STATS, (m), sizeof(pmix_node_stats_t))
#define PMIX_NODE_STATS_DESTRUCT(m) pmixx_destruct(PMIX_NODE_STATS, (m), sizeof(pmix_node_stats_t))
#define PMIX_NODE_STATS_FREE(m, n) \
    do { pmixx_release(PMIX_NODE_STATS, (m), (n)); (m) = NULL; } while (0)

/* Values. */
#define PMIX_VALUE_CREATE(m, n) (m) = (pmix_value_t *)pmixx_create(PMIX_VALUE, (n), sizeof(pmix_value_t))
#define PMIX_VALUE_CONSTRUCT(m) pmixx_construct(PMIX_VALUE, (m), sizeof(pmix_value_t))
#define PMIX_VALUE_DESTRUCT(m) PMIx_Value_destruct(m)
#define PMIX_VALUE_RELEASE(m) \
    do { pmixx_release(PMIX_VALUE, (m), 1); (m) = NULL; } while (0)
#define PMIX_VALUE_FREE(m, n) \
    do { pmixx_release(PMIX_VALUE, (m), (n)); (m) = NULL; } while (0)

/* Reads the number held by value *m into n, converted with a cast to the C
 * type t (e.g. uint32_t); s = PMIX_ERR_BAD_PARAM when *m holds no number.
 * t is a C type, as every OpenPMIx release and its users have it. */
#define PMIX_VALUE_GET_NUMBER(s, m, n, t)                                 \
    do {                                                                  \
        (s) = PMIX_SUCCESS;                                               \
        switch ((m)->type) {                                              \
        case PMIX_SIZE: (n) = (t)((m)->data.size); break;                 \
        case PMIX_INT: (n) = (t)((m)->data.integer); break;               \
        case PMIX_INT8: (n) = (t)((m)->data.int8); break;                 \
        case PMIX_INT16: (n) = (t)((m)->data.int16); break;               \
        case PMIX_INT32: (n) = (t)((m)->data.int32); break;               \
        case PMIX_INT64: (n) = (t)((m)->data.int64); break;               \
        case PMIX_UINT: (n) = (t)((m)->data.uint); break;                 \
        case PMIX_UINT8: (n) = (t)((m)->data.uint8); break;               \
        case PMIX_UINT16: (n) = (t)((m)->data.uint16); break;             \
        case PMIX_UINT32: (n) = (t)((m)->data.uint32); break;             \
        case PMIX_UINT64: (n) = (t)((m)->data.uint64); break;             \
        case PMIX_FLOAT: (n) = (t)((m)->data.fval); break;                \
        case PMIX_DOUBLE: (n) = (t)((m)->data.dval); break;               \
        case PMIX_PID: (n) = (t)((m)->data.pid); break;                   \
        case PMIX_PROC_RANK: (n) = (t)((m)->data.rank); break;            \
        default: (s) = PMIX_ERR_BAD_PARAM; break;                         \
        }                                                                 \
    } while (0)

/* Boolean reading of a value (a: pmix_value_t*) or info (m: pmix_info_t*):
 * a missing value (PMIX_UNDEF) counts as true. */
#define PMIX_CHECK_TRUE(a) (PMIX_BOOL_TRUE == pmixx_value_true(a))
#define PMIX_CHECK_BOOL(a) (PMIX_NON_BOOL != pmixx_value_true(a))
#define PMIX_INFO_TRUE(m) (PMIX_BOOL_TRUE == pmixx_value_true(&(m)->value))

/* Infos.  CREATE flags the last element with PMIX_INFO_ARRAY_END. */
#define PMIX_INFO_CONSTRUCT(m) pmixx_construct(PMIX_INFO, (m), sizeof(pmix_info_t))
#define PMIX_INFO_DESTRUCT(m) PMIx_Value_destruct(&(m)->value)
#define PMIX_INFO_CREATE(m, n) (m) = (pmix_info_t *)pmixx_create(PMIX_INFO, (n), sizeof(pmix_info_t))
#define PMIX_INFO_FREE(m, n) \
    do { pmixx_release(PMIX_INFO, (m), (n)); (m) = NULL; } while (0)

/* Info directives (flags). */
#define PMIX_INFO_REQUIRED(m) ((m)->flags |= PMIX_INFO_REQD)
#define PMIX_INFO_OPTIONAL(m) ((m)->flags &= ~PMIX_INFO_REQD)
#define PMIX_INFO_IS_REQUIRED(m) (0 != ((m)->flags & PMIX_INFO_REQD))
#define PMIX_INFO_IS_OPTIONAL(m) (0 == ((m)->flags & PMIX_INFO_REQD))
#define PMIX_INFO_PROCESSED(m) ((m)->flags |= PMIX_INFO_REQD_PROCESSED)
#define PMIX_INFO_WAS_PROCESSED(m) (0 != ((m)->flags & PMIX_INFO_REQD_PROCESSED))
#define PMIX_INFO_SET_END(m) ((m)->flags |= PMIX_INFO_ARRAY_END)
#define PMIX_INFO_IS_END(m) (0 != ((m)->flags & PMIX_INFO_ARRAY_END))
#define PMIX_INFO_SET_QUALIFIER(i) ((i)->flags |= PMIX_INFO_QUALIFIER)
#define PMIX_INFO_IS_QUALIFIER(i) (0 != ((i)->flags & PMIX_INFO_QUALIFIER))
#define PMIX_INFO_SET_PERSISTENT(ii) ((ii)->flags |= PMIX_INFO_PERSISTENT)
#define PMIX_INFO_IS_PERSISTENT(ii) (0 != ((ii)->flags & PMIX_INFO_PERSISTENT))

/* Published data (lookup results). */
#define PMIX_PDATA_CREATE(m, n) (m) = (pmix_pdata_t *)pmixx_create(PMIX_PDATA, (n), sizeof(pmix_pdata_t))
#define PMIX_PDATA_CONSTRUCT(m) pmixx_construct(PMIX_PDATA, (m), sizeof(pmix_pdata_t))
#define PMIX_PDATA_DESTRUCT(m) pmixx_destruct(PMIX_PDATA, (m), sizeof(pmix_pdata_t))
#define PMIX_PDATA_RELEASE(m) \
    do { pmixx_release(PMIX_PDATA, (m), 1); (m) = NULL; } while (0)
#define PMIX_PDATA_FREE(m, n) \
    do { pmixx_release(PMIX_PDATA, (m), (n)); (m) = NULL; } while (0)

/* Applications. */
#define PMIX_APP_CREATE(m, n) (m) = (pmix_app_t *)pmixx_create(PMIX_APP, (n), sizeof(pmix_app_t))
#define PMIX_APP_INFO_CREATE(m, n) \
    do { PMIX_INFO_CREATE((m)->info, (n)); (m)->ninfo = (m)->info == NULL ? 0 : (n); } while (0)
#define PMIX_APP_CONSTRUCT(m) pmixx_construct(PMIX_APP, (m), sizeof(pmix_app_t))
#define PMIX_APP_DESTRUCT(m) pmixx_destruct(PMIX_APP, (m), sizeof(pmix_app_t))
#define PMIX_APP_RELEASE(m) \
    do { pmixx_release(PMIX_APP, (m), 1); (m) = NULL; } while (0)
#define PMIX_APP_FREE(m, n) \
    do { pmixx_release(PMIX_APP, (m), (n)); (m) = NULL; } while (0)

/* Queries. */
#define PMIX_QUERY_CREATE(m, n) (m) = (pmix_query_t *)pmixx_create(PMIX_QUERY, (n), sizeof(pmix_query_t))
#define PMIX_QUERY_QUALIFIERS_CREATE(m, n) \
    do { PMIX_INFO_CREATE((m)->qualifiers, (n)); (m)->nqual = (m)->qualifiers == NULL ? 0 : (n); } while (0)
#define PMIX_QUERY_CONSTRUCT(m) pmixx_construct(PMIX_QUERY, (m), sizeof(pmix_query_t))
#define PMIX_QUERY_DESTRUCT(m) pmixx_destruct(PMIX_QUERY, (m), sizeof(pmix_query_t))
#define PMIX_QUERY_RELEASE(m) \
    do { pmixx_release(PMIX_QUERY, (m), 1); (m) = NULL; } while (0)
#define PMIX_QUERY_FREE(m, n) \
    do { pmixx_release(PMIX_QUERY, (m), (n)); (m) = NULL; } while (0)

/* Attribute registrations.  LOAD takes (a, n, k, t, v) as in OpenPMIx 4.2
 * or (a, n, k, t, ni, v) as in the Standard; this layout has no info
 * array, so ni is evaluated and ignored. */
#define PMIX_REGATTR_CONSTRUCT(a) pmixx_construct(PMIX_REGATTR, (a), sizeof(pmix_regattr_t))
#define PMIX_REGATTR_DESTRUCT(a) pmixx_destruct(PMIX_REGATTR, (a), sizeof(pmix_regattr_t))
#define PMIX_REGATTR_CREATE(m, n) (m) = (pmix_regattr_t *)pmixx_create(PMIX_REGATTR, (n), sizeof(pmix_regattr_t))
#define PMIX_REGATTR_FREE(m, n) \
    do { pmixx_release(PMIX_REGATTR, (m), (n)); (m) = NULL; } while (0)
#define PMIX_REGATTR_LOAD(a, n, k, t, ...)                                   \
    PMIXX_PICK_1_OR_2_(__VA_ARGS__, PMIXX_REGATTR_LOAD6_, PMIXX_REGATTR_LOAD5_, \
                       PMIXX_NONE_)((a), (n), (k), (t), __VA_ARGS__)
#define PMIXX_REGATTR_LOAD5_(a, n, k, t, v) pmixx_regattr_load((a), (n), (k), (t), (v))
#define PMIXX_REGATTR_LOAD6_(a, n, k, t, ni, v) \
    do { (void)(ni); pmixx_regattr_load((a), (n), (k), (t), (v)); } while (0)
#define PMIX_REGATTR_XFER(a, b) pmixx_regattr_xfer((a), (b))

/* Fabrics. */
#define PMIX_FABRIC_CONSTRUCT(x) memset((x), 0, sizeof(pmix_fabric_t))

/* Data arrays.  CONSTRUCT/CREATE allocate n constructed elements of type t;
 * CREATE always allocates the array structure itself. */
#define PMIX_DATA_ARRAY_INIT(m, t) \
    do { (m)->array = NULL; (m)->type = (t); (m)->size = 0; } while (0)
#define PMIX_DATA_ARRAY_CONSTRUCT(m, n, t) pmixx_darray_construct((m), (n), (t))
#define PMIX_DATA_ARRAY_DESTRUCT(m) PMIx_Data_array_destruct(m)
#define PMIX_DATA_ARRAY_CREATE(m, n, t) (m) = pmixx_darray_create((n), (t))
#define PMIX_DATA_ARRAY_FREE(m) \
    do { if (NULL != (m)) { PMIx_Data_array_destruct(m); free(m); } (m) = NULL; } while (0)

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

/* Functions and macros kept for compatibility (OpenPMIx includes them here
 * too, so code that only includes pmix_common.h finds them). */
#include <pmix_deprecated.h>

#endif /* PMIx_COMMON_H */
