/*
 * pmix_deprecated.h - interfaces kept only so that existing code keeps
 * compiling and running.  New code should use the replacement named for
 * each.  The deprecated constants and attribute keys are defined in
 * pmix_constants.h.
 *
 * pmix_common.h includes this file at its end, as OpenPMIx does; it may
 * also be included on its own.
 */

#ifndef PMIx_DEPRECATED_H
#define PMIx_DEPRECATED_H

#include <pmix_common.h>

#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/* Deprecated in Standard v4.0: use PMIx_tool_attach_to_server.  Connects a
 * tool to a (further) server; on success proc holds the tool's identifier. */
PMIX_EXPORT pmix_status_t PMIx_tool_connect_to_server(pmix_proc_t *proc, pmix_info_t info[],
                                                      size_t ninfo);

/* Deprecated in Standard v5.0 in favour of the functions they call. */
#define PMIX_VALUE_LOAD(v, d, t) PMIx_Value_load((v), (d), (t))
#define PMIX_VALUE_UNLOAD(r, k, d, s) (r) = PMIx_Value_unload((k), (d), (s))
/* Copies s into *v; allocates v first when it is NULL (r = PMIX_ERR_NOMEM
 * when that fails). */
#define PMIX_VALUE_XFER(r, v, s)                             \
    do {                                                     \
        if (NULL == (v)) {                                   \
            (v) = (pmix_value_t *)pmixx_create(PMIX_VALUE, 1, sizeof(pmix_value_t)); \
        }                                                    \
        if (NULL == (v)) {                                   \
            (r) = PMIX_ERR_NOMEM;                            \
        } else {                                             \
            (r) = PMIx_Value_xfer((v), (s));                 \
        }                                                    \
    } while (0)
#define PMIX_VALUE_XFER_DIRECT(r, v, s) (r) = PMIx_Value_xfer((v), (s))
#define PMIX_INFO_LOAD(i, k, d, t) (void)PMIx_Info_load((i), (k), (d), (t))
#define PMIX_INFO_XFER(d, s) (void)PMIx_Info_xfer((d), (s))

/* Fills a pmix_pdata_t m (when not NULL) with process p, key k and a copy
 * of the data v of type t; XFER deep-copies pdata s into d. */
#define PMIX_PDATA_LOAD(m, p, k, v, t)                                 \
    do {                                                               \
        if (NULL != (m)) {                                             \
            pmix_proc_t pmixx_p_ = *(p);                               \
            pmixx_construct(PMIX_PDATA, (m), sizeof(pmix_pdata_t));    \
            pmixx_load_procid(&(m)->proc, pmixx_p_.nspace, pmixx_p_.rank); \
            pmixx_load_bounded((m)->key, (k), PMIX_MAX_KEYLEN);        \
            (void)PMIx_Value_load(&(m)->value, (v), (t));              \
        }                                                              \
    } while (0)
#define PMIX_PDATA_XFER(d, s)                                          \
    do {                                                               \
        if (NULL != (d)) {                                             \
            pmixx_construct(PMIX_PDATA, (d), sizeof(pmix_pdata_t));    \
            pmixx_load_procid(&(d)->proc, (s)->proc.nspace, (s)->proc.rank); \
            pmixx_load_bounded((d)->key, (s)->key, PMIX_MAX_KEYLEN);   \
            (void)PMIx_Value_xfer(&(d)->value, &(s)->value);           \
        }                                                              \
    } while (0)

#define PMIX_INFO_LIST_START(p) (p) = PMIx_Info_list_start()
#define PMIX_INFO_LIST_ADD(r, p, a, v, t) (r) = PMIx_Info_list_add((p), (a), (v), (t))
#define PMIX_INFO_LIST_INSERT(r, p, i) (r) = PMIx_Info_list_insert((p), (i))
#define PMIX_INFO_LIST_XFER(r, p, a) (r) = PMIx_Info_list_xfer((p), (a))
#define PMIX_INFO_LIST_CONVERT(r, p, m) (r) = PMIx_Info_list_convert((p), (m))
#define PMIX_INFO_LIST_RELEASE(p) PMIx_Info_list_release(p)

#define PMIX_TOPOLOGY_DESTRUCT(x) PMIx_Topology_destruct(x)
/* No replacement in the Standard; frees n topologies and clears m. */
#define PMIX_TOPOLOGY_FREE(m, n) \
    do { pmixx_release(PMIX_TOPO, (m), (n)); (m) = NULL; } while (0)

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* PMIx_DEPRECATED_H */
