/*
 * Compile-only smoke test of the public support macros, built as C (c99,
 * c11) and as C++ (c++11, c++20) by check_headers.sh with warnings as
 * errors.  Nothing here runs: it proves that the macros expand to valid,
 * warning-free code in both languages with the argument forms real code
 * uses (OpenPMIx 4.2 and Standard v5.0 spellings), and that the static
 * initializers fit their structures.  Layout checks (x86-64 / LP64 sizes of
 * OpenPMIx 4.2) are compile-time assertions where the language has them.
 */
#include <stddef.h>

#include <pmix.h>
#include <pmix_server.h>
#include <pmix_tool.h>

#if defined(__cplusplus)
#define SMOKE_ASSERT(cond, msg) static_assert(cond, msg)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define SMOKE_ASSERT(cond, msg) _Static_assert(cond, msg)
#else /* C99: an array type of negative size fails to compile */
#define SMOKE_CAT2(a, b) a##b
#define SMOKE_CAT(a, b) SMOKE_CAT2(a, b)
#define SMOKE_ASSERT(cond, msg) typedef char SMOKE_CAT(smoke_assert_, __LINE__)[(cond) ? 1 : -1]
#endif

#if defined(__x86_64__) && defined(__LP64__)
SMOKE_ASSERT(sizeof(pmix_info_t) == 552, "pmix_info_t size");
SMOKE_ASSERT(sizeof(pmix_value_t) == 32, "pmix_value_t size");
SMOKE_ASSERT(sizeof(pmix_proc_t) == 260, "pmix_proc_t size");
SMOKE_ASSERT(sizeof(pmix_pdata_t) == 808, "pmix_pdata_t size");
SMOKE_ASSERT(sizeof(pmix_app_t) == 56, "pmix_app_t size");
SMOKE_ASSERT(sizeof(pmix_data_array_t) == 24, "pmix_data_array_t size");
SMOKE_ASSERT(sizeof(pmix_envar_t) == 24, "pmix_envar_t size");
SMOKE_ASSERT(sizeof(pmix_byte_object_t) == 16, "pmix_byte_object_t size");
SMOKE_ASSERT(sizeof(pmix_server_module_t) == 224, "pmix_server_module_t size");
SMOKE_ASSERT(offsetof(pmix_server_module_t, client_connected2) == 216,
             "client_connected2 is the last slot");
SMOKE_ASSERT(offsetof(pmix_info_t, value) == 520, "pmix_info_t.value offset");
#endif
SMOKE_ASSERT(PMIX_RANK_IS_VALID(0) && !PMIX_RANK_IS_VALID(PMIX_RANK_WILDCARD),
             "rank validity");
SMOKE_ASSERT(PMIX_SYSTEM_EVENT(PMIX_EVENT_NODE_DOWN) && !PMIX_SYSTEM_EVENT(PMIX_ERROR),
             "system event range");
SMOKE_ASSERT(PMIX_NUMERIC_VERSION == 0x00040202, "OpenPMIx API level");

/* Every static initializer, at file scope (static storage). */
pmix_byte_object_t smoke_bo = PMIX_BYTE_OBJECT_STATIC_INIT;
pmix_coord_t smoke_coord = PMIX_COORD_STATIC_INIT;
pmix_cpuset_t smoke_cpuset = PMIX_CPUSET_STATIC_INIT;
pmix_topology_t smoke_topo = PMIX_TOPOLOGY_STATIC_INIT;
pmix_geometry_t smoke_geometry = PMIX_GEOMETRY_STATIC_INIT;
pmix_device_distance_t smoke_dist = PMIX_DEVICE_DIST_STATIC_INIT;
pmix_endpoint_t smoke_endpoint = PMIX_ENDPOINT_STATIC_INIT;
pmix_envar_t smoke_envar = PMIX_ENVAR_STATIC_INIT;
pmix_proc_t smoke_proc = PMIX_PROC_STATIC_INIT;
pmix_proc_info_t smoke_pinfo = PMIX_PROC_INFO_STATIC_INIT;
pmix_data_array_t smoke_darray = PMIX_DATA_ARRAY_STATIC_INIT;
pmix_data_buffer_t smoke_dbuf = PMIX_DATA_BUFFER_STATIC_INIT;
pmix_proc_stats_t smoke_pstats = PMIX_PROC_STATS_STATIC_INIT;
pmix_disk_stats_t smoke_dkstats = PMIX_DISK_STATS_STATIC_INIT;
pmix_net_stats_t smoke_netstats = PMIX_NET_STATS_STATIC_INIT;
pmix_node_stats_t smoke_ndstats = PMIX_NODE_STATS_STATIC_INIT;
pmix_value_t smoke_value = PMIX_VALUE_STATIC_INIT;
pmix_info_t smoke_info = PMIX_INFO_STATIC_INIT;
pmix_pdata_t smoke_pdata = PMIX_LOOKUP_STATIC_INIT;
pmix_app_t smoke_app = PMIX_APP_STATIC_INIT;
pmix_query_t smoke_query = PMIX_QUERY_STATIC_INIT;
pmix_regattr_t smoke_regattr = PMIX_REGATTR_STATIC_INIT;
pmix_fabric_t smoke_fabric = PMIX_FABRIC_STATIC_INIT;

static void smoke_op_cb(pmix_status_t status, void *cbdata) {
    (void)status;
    (void)cbdata;
}

static pmix_status_t smoke_connected2(const pmix_proc_t *proc, void *server_object,
                                      pmix_info_t info[], size_t ninfo,
                                      pmix_op_cbfunc_t cbfunc, void *cbdata) {
    (void)proc;
    (void)server_object;
    (void)info;
    (void)ninfo;
    (void)cbfunc;
    (void)cbdata;
    return PMIX_OPERATION_SUCCEEDED;
}

int smoke_infos(void);
int smoke_infos(void) {
    pmix_info_t *info;
    pmix_info_t local = PMIX_INFO_STATIC_INIT;   /* automatic storage too */
    int timeout = 5;
    int ok = 0;

    PMIX_INFO_CREATE(info, 3);
    PMIX_INFO_LOAD(&info[0], PMIX_TIMEOUT, &timeout, PMIX_INT);
    PMIX_INFO_LOAD(&info[1], PMIX_EVENT_HDLR_PREPEND, NULL, PMIX_BOOL);
    PMIX_INFO_XFER(&info[2], &info[0]);
    PMIX_INFO_REQUIRED(&info[0]);
    PMIX_INFO_OPTIONAL(&info[1]);
    PMIX_INFO_PROCESSED(&info[0]);
    PMIX_INFO_SET_END(&info[2]);
    PMIX_INFO_SET_QUALIFIER(&info[1]);
    PMIX_INFO_SET_PERSISTENT(&local);
    if (PMIX_CHECK_KEY(&info[0], PMIX_TIMEOUT) && PMIX_INFO_TRUE(&info[1]) &&
        PMIX_INFO_IS_REQUIRED(&info[0]) && PMIX_INFO_IS_OPTIONAL(&info[1]) &&
        PMIX_INFO_WAS_PROCESSED(&info[0]) && PMIX_INFO_IS_END(&info[2]) &&
        PMIX_INFO_IS_QUALIFIER(&info[1]) && PMIX_INFO_IS_PERSISTENT(&local) &&
        PMIX_CHECK_TRUE(&info[1].value) && PMIX_CHECK_BOOL(&info[1].value) &&
        PMIX_CHECK_RESERVED_KEY(info[0].key)) {
        ok = 1;
    }
    PMIX_INFO_DESTRUCT(&local);
    PMIX_INFO_CONSTRUCT(&local);
    PMIX_INFO_FREE(info, 3);
    return ok + (NULL == info);
}

int smoke_values(void);
int smoke_values(void) {
    pmix_value_t val;
    pmix_value_t *vp = NULL;
    pmix_value_t *arr;
    pmix_status_t rc;
    uint32_t u32 = 7;
    size_t sz = 0;
    double dbl = 0.0;
    void *out = NULL;
    pmix_pdata_t pd;
    pmix_pdata_t *pds;
    pmix_proc_t me;

    PMIX_VALUE_CONSTRUCT(&val);
    PMIX_VALUE_LOAD(&val, &u32, PMIX_UINT32);
    PMIX_VALUE_GET_NUMBER(rc, &val, sz, size_t);
    PMIX_VALUE_GET_NUMBER(rc, &val, dbl, double);
    PMIX_VALUE_XFER(rc, vp, &val);
    PMIX_VALUE_XFER_DIRECT(rc, vp, &val);
    PMIX_VALUE_UNLOAD(rc, &val, &out, &sz);
    PMIX_VALUE_RELEASE(vp);
    PMIX_VALUE_DESTRUCT(&val);
    PMIX_VALUE_CREATE(arr, 2);
    PMIX_VALUE_FREE(arr, 2);

    PMIX_LOAD_PROCID(&me, "smoke", 0);
    PMIX_PDATA_LOAD(&pd, &me, "key", &u32, PMIX_UINT32);
    PMIX_PDATA_CREATE(pds, 1);
    PMIX_PDATA_XFER(&pds[0], &pd);
    PMIX_PDATA_DESTRUCT(&pd);
    PMIX_PDATA_CONSTRUCT(&pd);
    PMIX_PDATA_RELEASE(pds);
    PMIX_PDATA_CREATE(pds, 2);
    PMIX_PDATA_FREE(pds, 2);
    free(out);
    return (int)rc + (int)sz + (int)dbl;
}

int smoke_procs(void);
int smoke_procs(void) {
    pmix_proc_t a;
    pmix_proc_t b;
    pmix_proc_t *procs;
    pmix_proc_info_t *pinfo;
    pmix_nspace_t target;
    pmix_nspace_t cluster;
    pmix_nspace_t ns;
    pmix_key_t key;
    int same;

    PMIX_LOAD_KEY(key, "user.key");
    PMIX_LOAD_NSPACE(a.nspace, NULL);
    PMIX_LOAD_NSPACE(a.nspace, "job");
    PMIX_PROC_CONSTRUCT(&b);
    PMIX_PROC_LOAD(&b, "job", PMIX_RANK_WILDCARD);
    PMIX_PROCID_XFER(&a, &b);
    PMIX_XFER_PROCID(&a, &b);
    same = PMIX_CHECK_PROCID(&a, &b) && PMIX_CHECK_NSPACE(a.nspace, b.nspace) &&
           PMIX_CHECK_RANK(a.rank, 3) && !PMIX_PROCID_INVALID(&a) &&
           !PMIX_NSPACE_INVALID(a.nspace);
    PMIX_PROC_DESTRUCT(&b);
    PMIX_MULTICLUSTER_NSPACE_CONSTRUCT(target, "cluster", "job");
    PMIX_MULTICLUSTER_NSPACE_PARSE(target, cluster, ns);
    PMIX_PROC_CREATE(procs, 4);
    PMIX_PROC_FREE(procs, 4);
    PMIX_PROC_CREATE(procs, 1);
    PMIX_PROC_RELEASE(procs);
    PMIX_PROC_INFO_CREATE(pinfo, 2);
    PMIX_PROC_INFO_CONSTRUCT(&pinfo[0]);
    PMIX_PROC_INFO_DESTRUCT(&pinfo[0]);
    PMIX_PROC_INFO_FREE(pinfo, 2);
    PMIX_PROC_INFO_CREATE(pinfo, 1);
    PMIX_PROC_INFO_RELEASE(pinfo);
    return same + (int)key[0] + (int)ns[0] + (int)cluster[0];
}

int smoke_argv(void);
int smoke_argv(void) {
    char **argv = NULL;
    char **copy = NULL;
    char **env = NULL;
    char *joined = NULL;
    pmix_status_t rc;
    int count = 0;

    PMIX_ARGV_APPEND(rc, argv, "b");
    PMIX_ARGV_PREPEND(rc, argv, "a");
    PMIX_ARGV_APPEND_UNIQUE(rc, &argv, "b");
    PMIX_ARGV_COUNT(count, argv);
    PMIX_ARGV_JOIN(joined, argv, ',');
    PMIX_ARGV_COPY(copy, argv);
    PMIX_ARGV_FREE(argv);
    PMIX_ARGV_SPLIT(argv, joined, ',');
    PMIX_SETENV(rc, "SMOKE", "1", &env);
    PMIX_ARGV_FREE(argv);
    PMIX_ARGV_FREE(copy);
    PMIX_ARGV_FREE(env);
    free(joined);
    return (int)rc + count;
}

int smoke_arrays(void);
int smoke_arrays(void) {
    pmix_data_array_t *darray;
    pmix_data_array_t local;
    pmix_coord_t *coords;
    pmix_regattr_t *attrs;
    void *list;
    pmix_status_t rc;
    int timeout = 1;

    PMIX_DATA_ARRAY_CREATE(darray, 3, PMIX_PROC);
    PMIX_DATA_ARRAY_FREE(darray);
    PMIX_DATA_ARRAY_INIT(&local, PMIX_INFO);
    PMIX_DATA_ARRAY_CONSTRUCT(&local, 2, PMIX_STRING);
    PMIX_DATA_ARRAY_DESTRUCT(&local);

    PMIX_INFO_LIST_START(list);
    PMIX_INFO_LIST_ADD(rc, list, PMIX_TIMEOUT, &timeout, PMIX_INT);
    PMIX_INFO_LIST_XFER(rc, list, &smoke_info);
    PMIX_INFO_LIST_INSERT(rc, list, &smoke_info);
    PMIX_INFO_LIST_CONVERT(rc, list, &local);
    PMIX_INFO_LIST_RELEASE(list);
    PMIX_DATA_ARRAY_DESTRUCT(&local);

    PMIX_COORD_CREATE(coords, 2);        /* Standard form */
    PMIX_COORD_CONSTRUCT(&coords[0]);
    PMIX_COORD_DESTRUCT(&coords[0]);
    PMIX_COORD_FREE(coords, 2);
    PMIX_COORD_CREATE(coords, 2, 3);     /* OpenPMIx form: 2 coords of 3 dims */
    PMIX_COORD_FREE(coords, 2);

    PMIX_REGATTR_CREATE(attrs, 2);
    PMIX_REGATTR_CONSTRUCT(&attrs[0]);
    PMIX_REGATTR_LOAD(&attrs[0], "PMIX_TIMEOUT", PMIX_TIMEOUT, PMIX_INT, "seconds");
    PMIX_REGATTR_LOAD(&attrs[1], "PMIX_TIMEOUT", PMIX_TIMEOUT, PMIX_INT, (size_t)0, "secs");
    PMIX_REGATTR_XFER(&attrs[1], &attrs[0]);
    PMIX_REGATTR_DESTRUCT(&attrs[1]);
    PMIX_REGATTR_FREE(attrs, 2);
    return (int)rc;
}

int smoke_structs(void);
int smoke_structs(void) {
    pmix_byte_object_t bo;
    pmix_byte_object_t *bos;
    pmix_data_buffer_t *buf;
    pmix_data_buffer_t lbuf;
    char *bytes = (char *)malloc(4);
    size_t size = 4;
    pmix_envar_t *envs;
    pmix_app_t *apps;
    pmix_query_t *queries;
    pmix_cpuset_t *cpusets;
    pmix_topology_t *topos;
    pmix_geometry_t *geos;
    pmix_device_distance_t *dists;
    pmix_endpoint_t *endpts;
    pmix_proc_stats_t *pst;
    pmix_disk_stats_t *dst;
    pmix_net_stats_t *nst;
    pmix_node_stats_t *ndst;
    pmix_fabric_t fabric;

    PMIX_BYTE_OBJECT_CONSTRUCT(&bo);
    PMIX_BYTE_OBJECT_LOAD(&bo, bytes, size);
    PMIX_BYTE_OBJECT_DESTRUCT(&bo);
    PMIX_BYTE_OBJECT_CREATE(bos, 2);
    PMIX_BYTE_OBJECT_FREE(bos, 2);

    PMIX_DATA_BUFFER_CREATE(buf);
    PMIX_DATA_BUFFER_LOAD(buf, malloc(8), 8);
    PMIX_DATA_BUFFER_UNLOAD(buf, bytes, size);
    PMIX_DATA_BUFFER_RELEASE(buf);
    PMIX_DATA_BUFFER_CONSTRUCT(&lbuf);
    PMIX_DATA_BUFFER_DESTRUCT(&lbuf);
    free(bytes);

    PMIX_ENVAR_CREATE(envs, 1);
    PMIX_ENVAR_LOAD(&envs[0], "PATH", "/bin", ':');
    PMIX_ENVAR_DESTRUCT(&envs[0]);
    PMIX_ENVAR_CONSTRUCT(&envs[0]);
    PMIX_ENVAR_FREE(envs, 1);

    PMIX_APP_CREATE(apps, 1);
    PMIX_APP_INFO_CREATE(&apps[0], 2);
    PMIX_APP_FREE(apps, 1);
    PMIX_APP_CREATE(apps, 1);
    PMIX_APP_DESTRUCT(&apps[0]);
    PMIX_APP_CONSTRUCT(&apps[0]);
    PMIX_APP_RELEASE(apps);

    PMIX_QUERY_CREATE(queries, 1);
    PMIX_QUERY_QUALIFIERS_CREATE(&queries[0], 1);
    PMIX_QUERY_DESTRUCT(&queries[0]);
    PMIX_QUERY_CONSTRUCT(&queries[0]);
    PMIX_QUERY_FREE(queries, 1);
    PMIX_QUERY_CREATE(queries, 1);
    PMIX_QUERY_RELEASE(queries);

    PMIX_CPUSET_CREATE(cpusets, 1);
    PMIX_CPUSET_CONSTRUCT(&cpusets[0]);
    PMIX_CPUSET_DESTRUCT(&cpusets[0]);
    PMIX_CPUSET_FREE(cpusets, 1);
    PMIX_TOPOLOGY_CREATE(topos, 1);
    PMIX_TOPOLOGY_CONSTRUCT(&topos[0]);
    PMIX_TOPOLOGY_DESTRUCT(&topos[0]);
    PMIX_TOPOLOGY_FREE(topos, 1);
    PMIX_GEOMETRY_CREATE(geos, 1);
    PMIX_GEOMETRY_CONSTRUCT(&geos[0]);
    PMIX_GEOMETRY_DESTRUCT(&geos[0]);
    PMIX_GEOMETRY_FREE(geos, 1);
    PMIX_DEVICE_DIST_CREATE(dists, 1);
    PMIX_DEVICE_DIST_CONSTRUCT(&dists[0]);
    PMIX_DEVICE_DIST_DESTRUCT(&dists[0]);
    PMIX_DEVICE_DIST_FREE(dists, 1);
    PMIX_ENDPOINT_CREATE(endpts, 1);
    PMIX_ENDPOINT_CONSTRUCT(&endpts[0]);
    PMIX_ENDPOINT_DESTRUCT(&endpts[0]);
    PMIX_ENDPOINT_FREE(endpts, 1);

    PMIX_PROC_STATS_CREATE(pst, 1);
    PMIX_PROC_STATS_CONSTRUCT(&pst[0]);
    PMIX_PROC_STATS_DESTRUCT(&pst[0]);
    PMIX_PROC_STATS_RELEASE(pst);
    PMIX_DISK_STATS_CREATE(dst, 1);
    PMIX_DISK_STATS_CONSTRUCT(&dst[0]);
    PMIX_DISK_STATS_DESTRUCT(&dst[0]);
    PMIX_DISK_STATS_FREE(dst, 1);
    PMIX_NET_STATS_CREATE(nst, 1);
    PMIX_NET_STATS_CONSTRUCT(&nst[0]);
    PMIX_NET_STATS_DESTRUCT(&nst[0]);
    PMIX_NET_STATS_RELEASE(nst);
    PMIX_NODE_STATS_CREATE(ndst, 1);
    PMIX_NODE_STATS_CONSTRUCT(&ndst[0]);
    PMIX_NODE_STATS_DESTRUCT(&ndst[0]);
    PMIX_NODE_STATS_FREE(ndst, 1);
    PMIX_NODE_STATS_CREATE(ndst, 1);
    PMIX_NODE_STATS_RELEASE(ndst);

    PMIX_FABRIC_CONSTRUCT(&fabric);
    return (int)fabric.ninfo + (int)size;
}

int smoke_calls(void);
int smoke_calls(void) {
    pmix_server_module_t module;
    pmix_proc_t me;
    pmix_status_t rc;

    memset(&module, 0, sizeof(module));
    module.client_connected2 = smoke_connected2;
    rc = PMIx_server_init(&module, NULL, 0);
    rc = PMIx_Init(&me, NULL, 0);
    PMIx_Heartbeat();
    rc = PMIx_Fence_nb(NULL, 0, NULL, 0, smoke_op_cb, NULL);
    rc = PMIx_tool_connect_to_server(&me, NULL, 0);
    return (int)rc + (PMIX_STD_VERSION[0] == '5') + (int)PMIX_VERSION_MAJOR;
}
