/*
 * What the support macros of pmix_common.h expand to: inline code that uses
 * only the C library and functions that every libpmix.so.2 exports
 * (OpenPMIx 4.2.2 included: PMIx_Value_destruct, PMIx_Data_array_destruct,
 * PMIx_Value_xfer, PMIx_Info_load ...), so that a program built against
 * these headers also runs on OpenPMIx 4.2.2 unless it calls a newer
 * function by name. The library still exports the v5 functions
 * (PMIx_Info_create, PMIx_Proc_construct, ...); only the macros avoid them.
 *
 * Included by pmix_common.h after the types; not meant to be included on its
 * own. Names starting with pmixx_ are not API.
 */
#ifndef PMIXX_INLINE_H
#define PMIXX_INLINE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* C99-only string helpers (the header compiles in strict modes). */
static inline char *pmixx_strndup(const char *s, size_t len)
{
    char *out = (char *)malloc(len + 1);
    if (out == NULL) return NULL;
    memcpy(out, s, len);
    out[len] = '\0';
    return out;
}
static inline char *pmixx_strdup(const char *s) { return s == NULL ? NULL : pmixx_strndup(s, strlen(s)); }
static inline size_t pmixx_strnlen(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n] != '\0') ++n;
    return n;
}
/* Whether s starts with `lower`, ignoring case. */
static inline bool pmixx_starts_with(const char *s, const char *lower)
{
    for (; *lower != '\0'; ++s, ++lower) {
        char c = (*s >= 'A' && *s <= 'Z') ? (char)(*s - 'A' + 'a') : *s;
        if (c != *lower) return false;
    }
    return true;
}

/* Size of one element of `type` in a data array (0: not an element type). */
static inline size_t pmixx_type_size(pmix_data_type_t type)
{
    switch (type) {
    case PMIX_BOOL: return sizeof(bool);
    case PMIX_BYTE: case PMIX_INT8: case PMIX_UINT8: return 1;
    case PMIX_STRING: return sizeof(char *);
    case PMIX_SIZE: return sizeof(size_t);
    case PMIX_PID: return sizeof(pid_t);
    case PMIX_INT: case PMIX_UINT: return sizeof(int);
    case PMIX_INT16: case PMIX_UINT16: return 2;
    case PMIX_INT32: case PMIX_UINT32: return 4;
    case PMIX_INT64: case PMIX_UINT64: return 8;
    case PMIX_FLOAT: return sizeof(float);
    case PMIX_DOUBLE: return sizeof(double);
    case PMIX_TIMEVAL: return sizeof(struct timeval);
    case PMIX_TIME: return sizeof(time_t);
    case PMIX_STATUS: return sizeof(pmix_status_t);
    case PMIX_VALUE: return sizeof(pmix_value_t);
    case PMIX_PROC: return sizeof(pmix_proc_t);
    case PMIX_APP: return sizeof(pmix_app_t);
    case PMIX_INFO: return sizeof(pmix_info_t);
    case PMIX_PDATA: return sizeof(pmix_pdata_t);
    case PMIX_BYTE_OBJECT: case PMIX_COMPRESSED_STRING: case PMIX_COMPRESSED_BYTE_OBJECT:
        return sizeof(pmix_byte_object_t);
    case PMIX_KVAL: return sizeof(pmix_value_t);
    case PMIX_PERSIST: return sizeof(pmix_persistence_t);
    case PMIX_POINTER: return sizeof(void *);
    case PMIX_SCOPE: return sizeof(pmix_scope_t);
    case PMIX_DATA_RANGE: return sizeof(pmix_data_range_t);
    case PMIX_COMMAND: return sizeof(uint8_t);
    case PMIX_INFO_DIRECTIVES: return sizeof(pmix_info_directives_t);
    case PMIX_DATA_TYPE: return sizeof(pmix_data_type_t);
    case PMIX_PROC_STATE: return sizeof(pmix_proc_state_t);
    case PMIX_PROC_INFO: return sizeof(pmix_proc_info_t);
    case PMIX_DATA_ARRAY: return sizeof(pmix_data_array_t);
    case PMIX_PROC_RANK: return sizeof(pmix_rank_t);
    case PMIX_QUERY: return sizeof(pmix_query_t);
    case PMIX_ALLOC_DIRECTIVE: return sizeof(pmix_alloc_directive_t);
    case PMIX_IOF_CHANNEL: return sizeof(pmix_iof_channel_t);
    case PMIX_ENVAR: return sizeof(pmix_envar_t);
    case PMIX_COORD: return sizeof(pmix_coord_t);
    case PMIX_REGATTR: return sizeof(pmix_regattr_t);
    case PMIX_REGEX: return sizeof(char *);
    case PMIX_JOB_STATE: return sizeof(pmix_job_state_t);
    case PMIX_LINK_STATE: return sizeof(pmix_link_state_t);
    case PMIX_PROC_CPUSET: return sizeof(pmix_cpuset_t);
    case PMIX_GEOMETRY: return sizeof(pmix_geometry_t);
    case PMIX_DEVICE_DIST: return sizeof(pmix_device_distance_t);
    case PMIX_ENDPOINT: return sizeof(pmix_endpoint_t);
    case PMIX_TOPO: return sizeof(pmix_topology_t);
    case PMIX_DEVTYPE: return sizeof(pmix_device_type_t);
    case PMIX_LOCTYPE: return sizeof(pmix_locality_t);
    case PMIX_PROC_NSPACE: return sizeof(pmix_nspace_t);
    case PMIX_STOR_ACCESS_TYPE: return sizeof(pmix_storage_access_type_t);
    case PMIX_DATA_BUFFER: return sizeof(pmix_data_buffer_t);
    case PMIX_PROC_STATS: return sizeof(pmix_proc_stats_t);
    case PMIX_DISK_STATS: return sizeof(pmix_disk_stats_t);
    case PMIX_NET_STATS: return sizeof(pmix_net_stats_t);
    case PMIX_NODE_STATS: return sizeof(pmix_node_stats_t);
    default: return 0;
    }
}

/* Construction: zero, plus the few fields whose empty value is not 0. */
static inline void pmixx_construct(pmix_data_type_t type, void *obj, size_t size)
{
    if (obj == NULL) return;
    memset(obj, 0, size);
    if (type == PMIX_DEVICE_DIST) {
        ((pmix_device_distance_t *)obj)->mindist = UINT16_MAX;
        ((pmix_device_distance_t *)obj)->maxdist = UINT16_MAX;
    }
}

/* n constructed elements (NULL for n == 0 or no memory). */
static inline void *pmixx_create(pmix_data_type_t type, size_t n, size_t size)
{
    if (n == 0 || size == 0) return NULL;
    char *array = (char *)calloc(n, size);
    if (array == NULL) return NULL;
    for (size_t i = 0; i < n; ++i) pmixx_construct(type, array + i * size, size);
    if (type == PMIX_INFO) ((pmix_info_t *)array)[n - 1].flags |= PMIX_INFO_ARRAY_END;
    return array;
}

/* Destructs n elements of `type` and frees the array. */
static inline void pmixx_release(pmix_data_type_t type, void *array, size_t n)
{
    if (array == NULL) return;
    pmix_data_array_t da;
    da.type = type;
    da.size = n;
    da.array = array;
    PMIx_Data_array_destruct(&da);
}

/* Destructs one element in place (its storage stays the caller's). */
static inline void pmixx_destruct(pmix_data_type_t type, void *obj, size_t size)
{
    if (obj == NULL) return;
    void *moved = malloc(size);
    if (moved == NULL) return;
    memcpy(moved, obj, size);
    pmixx_construct(type, obj, size);
    pmixx_release(type, moved, 1);
}

/* Keys, namespaces, process ids. */
static inline void pmixx_load_bounded(char *dest, const char *src, size_t max)
{
    memset(dest, 0, max + 1);
    if (src == NULL) return;
    for (size_t i = 0; i < max && src[i] != '\0'; ++i) dest[i] = src[i];
}
static inline bool pmixx_nspace_invalid(const char *n) { return n == NULL || n[0] == '\0'; }
static inline bool pmixx_check_nspace(const char *a, const char *b)
{
    return pmixx_nspace_invalid(a) || pmixx_nspace_invalid(b) ||
           strncmp(a, b, PMIX_MAX_NSLEN) == 0;
}
static inline bool pmixx_check_rank(pmix_rank_t a, pmix_rank_t b)
{
    return a == b || a == PMIX_RANK_WILDCARD || b == PMIX_RANK_WILDCARD;
}
static inline void pmixx_load_procid(pmix_proc_t *p, const char *ns, pmix_rank_t r)
{
    if (p == NULL) return;
    pmixx_load_bounded(p->nspace, ns, PMIX_MAX_NSLEN);
    p->rank = r;
}
static inline void pmixx_mc_construct(char *t, const char *c, const char *n)
{
    size_t lc = c == NULL ? 0 : strlen(c), ln = n == NULL ? 0 : strlen(n);
    memset(t, 0, PMIX_MAX_NSLEN + 1);
    if (lc + ln >= PMIX_MAX_NSLEN) return;
    if (lc > 0) memcpy(t, c, lc);
    t[lc] = ':';
    if (ln > 0) memcpy(t + lc + 1, n, ln);
}
static inline void pmixx_mc_parse(const char *t, char *c, char *n)
{
    char cl[PMIX_MAX_NSLEN + 1], ns[PMIX_MAX_NSLEN + 1];
    size_t len = pmixx_strnlen(t, PMIX_MAX_NSLEN), lc = 0;
    memset(cl, 0, sizeof cl);
    memset(ns, 0, sizeof ns);
    while (lc < len && t[lc] != ':') ++lc;
    memcpy(cl, t, lc);
    if (lc < len) memcpy(ns, t + lc + 1, len - lc - 1);
    memcpy(c, cl, sizeof cl);
    memcpy(n, ns, sizeof ns);
}

/* Booleans, read as PMIx_Value_true reads them: PMIX_UNDEF (a key given
 * without a value) is true; a string is true when NULL or blank, when it
 * starts with a number other than 0, or with "yes"/"true" (any case), false
 * for a 0 or "no"/"false", and not a boolean otherwise. */
static inline pmix_boolean_t pmixx_value_true(const pmix_value_t *v)
{
    if (v == NULL) return PMIX_NON_BOOL;
    if (v->type == PMIX_UNDEF) return PMIX_BOOL_TRUE;
    if (v->type == PMIX_BOOL) return v->data.flag ? PMIX_BOOL_TRUE : PMIX_BOOL_FALSE;
    if (v->type != PMIX_STRING) return PMIX_NON_BOOL;
    const char *s = v->data.string;
    if (s == NULL) return PMIX_BOOL_TRUE;
    while (*s == ' ' || (*s >= '\t' && *s <= '\r')) ++s;
    if (*s == '\0') return PMIX_BOOL_TRUE;
    if (*s >= '0' && *s <= '9') return atoi(s) != 0 ? PMIX_BOOL_TRUE : PMIX_BOOL_FALSE;
    if (pmixx_starts_with(s, "yes") || pmixx_starts_with(s, "true")) return PMIX_BOOL_TRUE;
    if (pmixx_starts_with(s, "no") || pmixx_starts_with(s, "false")) return PMIX_BOOL_FALSE;
    return PMIX_NON_BOOL;
}

/* Argument arrays (NULL-terminated, malloc'd). */
static inline int pmixx_argv_count(char **argv)
{
    int n = 0;
    while (argv != NULL && argv[n] != NULL) ++n;
    return n;
}
static inline pmix_status_t pmixx_argv_insert(char ***argv, int at_end, const char *arg)
{
    if (argv == NULL || arg == NULL) return PMIX_ERR_BAD_PARAM;
    int n = pmixx_argv_count(*argv);
    char *copy = pmixx_strdup(arg);
    char **grown = copy == NULL ? NULL : (char **)realloc(*argv, (size_t)(n + 2) * sizeof(char *));
    if (grown == NULL) {
        free(copy);
        return PMIX_ERR_NOMEM;
    }
    if (at_end) {
        grown[n] = copy;
    } else {
        memmove(grown + 1, grown, (size_t)n * sizeof(char *));
        grown[0] = copy;
    }
    grown[n + 1] = NULL;
    *argv = grown;
    return PMIX_SUCCESS;
}
static inline pmix_status_t pmixx_argv_append_unique(char ***argv, const char *arg)
{
    if (argv == NULL || arg == NULL) return PMIX_ERR_BAD_PARAM;
    for (int i = 0; *argv != NULL && (*argv)[i] != NULL; ++i)
        if (strcmp((*argv)[i], arg) == 0) return PMIX_SUCCESS;
    return pmixx_argv_insert(argv, 1, arg);
}
static inline void pmixx_argv_free(char **argv)
{
    for (int i = 0; argv != NULL && argv[i] != NULL; ++i) free(argv[i]);
    free(argv);
}
static inline char **pmixx_argv_split(const char *s, int delim, bool with_empty)
{
    char **out = NULL;
    if (s == NULL) return NULL;
    for (;;) {
        const char *end = strchr(s, delim);
        size_t len = end == NULL ? strlen(s) : (size_t)(end - s);
        if (len > 0 || (with_empty && end != NULL)) {
            char *part = pmixx_strndup(s, len);
            if (part == NULL || pmixx_argv_insert(&out, 1, part) != PMIX_SUCCESS) {
                free(part);
                pmixx_argv_free(out);
                return NULL;
            }
            free(part);
        }
        if (end == NULL) return out;
        s = end + 1;
    }
}
static inline char *pmixx_argv_join(char **argv, int delim)
{
    size_t len = 1;
    for (int i = 0; argv != NULL && argv[i] != NULL; ++i) len += strlen(argv[i]) + 1;
    char *out = (char *)calloc(len, 1);
    if (out == NULL || argv == NULL) return out;
    char *p = out;
    for (int i = 0; argv[i] != NULL; ++i) {
        if (i > 0) *p++ = (char)delim;
        size_t l = strlen(argv[i]);
        memcpy(p, argv[i], l);
        p += l;
    }
    return out;
}
static inline char **pmixx_argv_copy(char **argv)
{
    char **out = NULL;
    for (int i = 0; argv != NULL && argv[i] != NULL; ++i) {
        if (pmixx_argv_insert(&out, 1, argv[i]) != PMIX_SUCCESS) {
            pmixx_argv_free(out);
            return NULL;
        }
    }
    return out;
}
static inline pmix_status_t pmixx_setenv(const char *name, const char *value, bool overwrite,
                                         char ***env)
{
    if (name == NULL || env == NULL) return PMIX_ERR_BAD_PARAM;
    size_t nl = strlen(name), vl = value == NULL ? 0 : strlen(value);
    char *entry = (char *)malloc(nl + vl + 2);
    if (entry == NULL) return PMIX_ERR_NOMEM;
    memcpy(entry, name, nl);
    entry[nl] = '=';
    if (vl > 0) memcpy(entry + nl + 1, value, vl);
    entry[nl + 1 + vl] = '\0';
    for (int i = 0; *env != NULL && (*env)[i] != NULL; ++i) {
        if (strncmp((*env)[i], name, nl) == 0 && (*env)[i][nl] == '=') {
            if (!overwrite) {
                free(entry);
                return PMIX_ERR_BAD_PARAM;
            }
            free((*env)[i]);
            (*env)[i] = entry;
            return PMIX_SUCCESS;
        }
    }
    pmix_status_t rc = pmixx_argv_insert(env, 1, entry);
    free(entry);
    return rc;
}

/* Structures with string members. */
static inline void pmixx_envar_load(pmix_envar_t *e, const char *var, const char *value, char sep)
{
    if (e == NULL) return;
    e->envar = pmixx_strdup(var);
    e->value = pmixx_strdup(value);
    e->separator = sep;
}
static inline void pmixx_regattr_load(pmix_regattr_t *a, const char *name, const char *key,
                                      pmix_data_type_t type, const char *description)
{
    if (a == NULL) return;
    if (name != NULL) {
        free(a->name);
        a->name = pmixx_strdup(name);
    }
    if (key != NULL) pmixx_load_bounded(a->string, key, PMIX_MAX_KEYLEN);
    a->type = type;
    if (description != NULL) (void)pmixx_argv_insert(&a->description, 1, description);
}
static inline void pmixx_regattr_xfer(pmix_regattr_t *dest, const pmix_regattr_t *src)
{
    if (dest == NULL || src == NULL) return;
    memset(dest, 0, sizeof *dest);
    dest->name = pmixx_strdup(src->name);
    memcpy(dest->string, src->string, sizeof dest->string);
    dest->type = src->type;
    dest->description = pmixx_argv_copy(src->description);
}
static inline pmix_coord_t *pmixx_coord_create(size_t n, size_t dims)
{
    pmix_coord_t *c = (pmix_coord_t *)pmixx_create(PMIX_COORD, n, sizeof(pmix_coord_t));
    for (size_t i = 0; c != NULL && dims > 0 && i < n; ++i) {
        c[i].coord = (uint32_t *)calloc(dims, sizeof(uint32_t));
        if (c[i].coord == NULL) {
            pmixx_release(PMIX_COORD, c, n);
            return NULL;
        }
        c[i].dims = dims;
    }
    return c;
}
static inline void pmixx_darray_construct(pmix_data_array_t *m, size_t n, pmix_data_type_t t)
{
    if (m == NULL) return;
    m->type = t;
    m->array = pmixx_create(t, n, pmixx_type_size(t));
    m->size = m->array == NULL ? 0 : n;
}
static inline pmix_data_array_t *pmixx_darray_create(size_t n, pmix_data_type_t t)
{
    pmix_data_array_t *m = (pmix_data_array_t *)calloc(1, sizeof(pmix_data_array_t));
    if (m != NULL) pmixx_darray_construct(m, n, t);
    return m;
}
static inline void pmixx_dbuf_load(pmix_data_buffer_t *b, char *bytes, size_t size)
{
    if (b == NULL) return;
    free(b->base_ptr);
    memset(b, 0, sizeof *b);
    if (bytes == NULL) return;
    b->base_ptr = b->unpack_ptr = bytes;
    b->pack_ptr = bytes + size;
    b->bytes_allocated = b->bytes_used = size;
}
static inline void pmixx_dbuf_unload(pmix_data_buffer_t *b, char **bytes, size_t *size)
{
    *bytes = NULL;
    *size = 0;
    if (b == NULL) return;
    size_t used = b->unpack_ptr == NULL ? 0 : (size_t)(b->unpack_ptr - b->base_ptr);
    if (b->base_ptr != NULL && used < b->bytes_used) {
        *size = b->bytes_used - used;
        *bytes = (char *)malloc(*size);
        if (*bytes != NULL) memcpy(*bytes, b->unpack_ptr, *size);
        else *size = 0;
    }
    free(b->base_ptr);
    memset(b, 0, sizeof *b);
}

#endif /* PMIXX_INLINE_H */
