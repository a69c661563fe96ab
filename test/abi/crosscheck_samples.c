/*
 * Cross-check sample data: one or more values of every PMIx data type that a
 * pmix_value_t can hold. All of it lives in static storage and is never
 * modified, so the tests can load/copy from it repeatedly.
 */
#include "crosscheck_samples.h"

#include <string.h>

static bool b_true = true, b_false = false;
static uint8_t u8 = 200, byte_v = 0xab;
/* PMIx_Value_load takes the string itself for PMIX_STRING */
static char str_hello[] = "hello, world", str_empty[] = "", str_odd[] = "tab\there \"q\" \\ \xc3\xa9";
static size_t size_v = 123456789012ULL;
static pid_t pid_v = 4242;
static int int_v = -7;
static int8_t i8 = -8;
static int16_t i16 = -1600;
static int32_t i32 = -320000;
static int64_t i64 = -6400000000LL;
static unsigned uint_v = 7U;
static uint16_t u16 = 60000;
static uint32_t u32 = 4000000000U;
static uint64_t u64 = 18000000000000000000ULL;
static float f_v = 3.14159f;
static double d_v = 2.718281828459045, d_neg = -1.0e-300;
static struct timeval tv_v = {12, 345678};
static time_t time_v = 1700000000;
static pmix_status_t status_v = PMIX_ERR_TIMEOUT;
static pmix_rank_t rank_v = 5;
static pmix_proc_t proc_v = {"crosscheck.ns", 3};
static pmix_proc_t proc_wild = {"crosscheck.ns", PMIX_RANK_WILDCARD};
static pmix_proc_t procs3[3] = {{"ns.a", 0}, {"ns.b", 1}, {"ns.c", PMIX_RANK_UNDEF}};
static char bo_bytes[] = {0, 1, 2, 'a', 'b', 'c', (char)0xff};
static pmix_byte_object_t bo_v = {bo_bytes, sizeof bo_bytes};
static pmix_byte_object_t bo_empty = {NULL, 0};
static char regex_v[] = "pmix[vm]"; /* PMIX_REGEX loads from the regex string */
static pmix_persistence_t persist_v = PMIX_PERSIST_SESSION;
static pmix_scope_t scope_v = PMIX_GLOBAL;
static pmix_data_range_t range_v = PMIX_RANGE_NAMESPACE;
static pmix_proc_state_t pstate_v = PMIX_PROC_STATE_RUNNING;
static pmix_job_state_t jstate_v = PMIX_JOB_STATE_RUNNING;
static pmix_link_state_t lstate_v = PMIX_LINK_UP;
static pmix_alloc_directive_t adir_v = PMIX_ALLOC_EXTEND;
static pmix_device_type_t devtype_v = PMIX_DEVTYPE_GPU | PMIX_DEVTYPE_NETWORK;
static pmix_locality_t loc_v = PMIX_LOCALITY_SHARE_L3CACHE | PMIX_LOCALITY_SHARE_NUMA;
static pmix_storage_medium_t smed_v = PMIX_STORAGE_MEDIUM_SSD;
static pmix_storage_accessibility_t sacc_v = PMIX_STORAGE_ACCESSIBILITY_JOB;
static pmix_storage_persistence_t sper_v = PMIX_STORAGE_PERSISTENCE_SCRATCH;
static pmix_storage_access_type_t satype_v = PMIX_STORAGE_ACCESS_RDWR;
/* The reference drops the state when it loads a single proc_info (it keeps it
 * inside data arrays), so the single sample uses state 0. */
static pmix_proc_info_t pinfo_v = {{"crosscheck.ns", 9}, "host1", "a.out", 99, 3, 0};
static pmix_proc_info_t pinfo_term = {{"crosscheck.ns", 9}, "host1", "a.out", 99, 3,
                                      PMIX_PROC_STATE_TERMINATED};
static pmix_envar_t envar_v = {"PATH", "/usr/bin", ':'};
static uint32_t coord_vals[3] = {1, 2, 3};
static pmix_coord_t coord_v = {PMIX_COORD_LOGICAL_VIEW, coord_vals, 3};
static pmix_coord_t coords2[2] = {{PMIX_COORD_LOGICAL_VIEW, coord_vals, 3},
                                  {PMIX_COORD_PHYSICAL_VIEW, coord_vals, 2}};
static char *descr[] = {"first line", "second line", NULL};
static pmix_regattr_t regattr_v = {"PMIX_CROSSCHECK", "pmix.cross", PMIX_STRING, descr};
static pmix_geometry_t geometry_v = {1, "uuid-1", "eth0", coords2, 2};
static pmix_device_distance_t devdist_v = {"uuid-2", "mlx5_0", PMIX_DEVTYPE_OPENFABRICS, 1, 5};
static pmix_endpoint_t endpoint_v = {"uuid-3", "ib0", {bo_bytes, 4}};
/* percent_cpu is 0: the reference does not copy that field. */
static pmix_proc_stats_t pstats_v = {"node7", {"ns.p", 1}, 77, "cmd", 'R', {1, 2}, 0.0f, -3, 4,
                                     1.25f, 2.5f, 3.75f, 5.0f, 6, {7, 8}};
static pmix_disk_stats_t dkstats_v = {"sda", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
static pmix_net_stats_t netstats_v = {"eth0", 1, 2, 3, 4, 5, 6};
static pmix_topology_t topo_v = {"crosscheck", NULL};
static char *app_argv[] = {"a.out", "-x", NULL};
static char *app_env[] = {"A=1", NULL};
static pmix_app_t app_v = {"a.out", app_argv, app_env, "/tmp", 4, NULL, 0};
static char *query_keys[] = {"pmix.qry.ns", NULL};
static pmix_query_t query_v = {query_keys, NULL, 0};
static pmix_info_t info_v = {"crosscheck.info", PMIX_INFO_REQD, {PMIX_UINT8, {.uint8 = 8}}};
static pmix_pdata_t pdata_v = {{"ns.pd", 2}, "crosscheck.pdata", {PMIX_INT, {.integer = -2}}};
static pmix_value_t value_v = {PMIX_SIZE, {.size = 99}};
static int dummy_target;
static void *pointer_v = &dummy_target;

/* data arrays */
static uint32_t u32s[3] = {1, 2, 3};
static char *strs[3] = {"alpha", "", "gamma"};
static double doubles[2] = {0.5, -2.25};
static bool bools[3] = {true, false, true};
static size_t sizes[2] = {0, 42};
static pmix_envar_t envars[2] = {{"A", "1", ':'}, {"B", NULL, ','}};
static pmix_byte_object_t bos[2] = {{bo_bytes, 3}, {NULL, 0}};
static pmix_value_t values[3];
static pmix_info_t infos_inner[2];
static pmix_data_array_t darray_inner = {PMIX_INFO, 2, infos_inner};
static pmix_info_t infos_outer[3];

static pmix_data_array_t da_u32 = {PMIX_UINT32, 3, u32s};
static pmix_data_array_t da_str = {PMIX_STRING, 3, strs};
static pmix_data_array_t da_proc = {PMIX_PROC, 3, procs3};
static pmix_data_array_t da_double = {PMIX_DOUBLE, 2, doubles};
static pmix_data_array_t da_bool = {PMIX_BOOL, 3, bools};
static pmix_data_array_t da_size = {PMIX_SIZE, 2, sizes};
static pmix_data_array_t da_envar = {PMIX_ENVAR, 2, envars};
static pmix_data_array_t da_bo = {PMIX_BYTE_OBJECT, 2, bos};
static pmix_data_array_t da_coord = {PMIX_COORD, 2, coords2};
static pmix_data_array_t da_value = {PMIX_VALUE, 3, values};
static pmix_data_array_t da_info = {PMIX_INFO, 3, infos_outer};
static pmix_data_array_t da_pinfo = {PMIX_PROC_INFO, 1, &pinfo_term};
static pmix_data_array_t da_empty = {PMIX_UINT32, 0, NULL};
static pmix_data_array_t da_app = {PMIX_APP, 1, &app_v};
static pmix_data_array_t da_query = {PMIX_QUERY, 1, &query_v};
static pmix_data_array_t da_pdata = {PMIX_PDATA, 1, &pdata_v};
static pmix_data_array_t da_one_info = {PMIX_INFO, 1, &info_v};
static pmix_data_array_t da_one_value = {PMIX_VALUE, 1, &value_v};
static pmix_data_array_t da_regattr = {PMIX_REGATTR, 1, &regattr_v};
static pmix_data_array_t da_geometry = {PMIX_GEOMETRY, 1, &geometry_v};
static pmix_data_array_t da_endpoint = {PMIX_ENDPOINT, 1, &endpoint_v};
static pmix_data_array_t da_devdist = {PMIX_DEVICE_DIST, 1, &devdist_v};

/* Fills the arrays whose elements are unions (values, infos); done by hand
 * rather than through the library so the samples do not depend on it. */
static void build_nested(void)
{
    values[0].type = PMIX_INT;
    values[0].data.integer = 11;
    values[1].type = PMIX_STRING;
    values[1].data.string = "value-string";
    values[2].type = PMIX_PROC;
    values[2].data.proc = &proc_v;
    strcpy(infos_inner[0].key, "inner.a");
    infos_inner[0].value.type = PMIX_UINT16;
    infos_inner[0].value.data.uint16 = 16;
    strcpy(infos_inner[1].key, "inner.b");
    infos_inner[1].value.type = PMIX_STRING;
    infos_inner[1].value.data.string = "inner-string";
    strcpy(infos_outer[0].key, "outer.bool");
    infos_outer[0].value.type = PMIX_BOOL;
    infos_outer[0].value.data.flag = true;
    infos_outer[0].flags = PMIX_INFO_REQD;
    strcpy(infos_outer[1].key, "outer.nested");
    infos_outer[1].value.type = PMIX_DATA_ARRAY;
    infos_outer[1].value.data.darray = &darray_inner;
    strcpy(infos_outer[2].key, "outer.bo");
    infos_outer[2].value.type = PMIX_BYTE_OBJECT;
    infos_outer[2].value.data.bo = bo_v;
}

static const cc_sample_t kSamples[] = {
    {"bool.true", PMIX_BOOL, &b_true},
    {"bool.false", PMIX_BOOL, &b_false},
    {"byte", PMIX_BYTE, &byte_v},
    {"string", PMIX_STRING, str_hello},
    {"string.empty", PMIX_STRING, str_empty},
    {"string.odd", PMIX_STRING, str_odd},
    {"size", PMIX_SIZE, &size_v},
    {"pid", PMIX_PID, &pid_v},
    {"int", PMIX_INT, &int_v},
    {"int8", PMIX_INT8, &i8},
    {"int16", PMIX_INT16, &i16},
    {"int32", PMIX_INT32, &i32},
    {"int64", PMIX_INT64, &i64},
    {"uint", PMIX_UINT, &uint_v},
    {"uint8", PMIX_UINT8, &u8},
    {"uint16", PMIX_UINT16, &u16},
    {"uint32", PMIX_UINT32, &u32},
    {"uint64", PMIX_UINT64, &u64},
    {"float", PMIX_FLOAT, &f_v},
    {"double", PMIX_DOUBLE, &d_v},
    {"double.neg", PMIX_DOUBLE, &d_neg},
    {"timeval", PMIX_TIMEVAL, &tv_v},
    {"time", PMIX_TIME, &time_v},
    {"status", PMIX_STATUS, &status_v},
    {"proc", PMIX_PROC, &proc_v},
    {"proc.wildcard", PMIX_PROC, &proc_wild},
    {"rank", PMIX_PROC_RANK, &rank_v},
    {"byte_object", PMIX_BYTE_OBJECT, &bo_v},
    {"byte_object.empty", PMIX_BYTE_OBJECT, &bo_empty},
    {"compressed_string", PMIX_COMPRESSED_STRING, &bo_v},
    {"compressed_bo", PMIX_COMPRESSED_BYTE_OBJECT, &bo_v},
    {"regex", PMIX_REGEX, regex_v},
    {"persist", PMIX_PERSIST, &persist_v},
    {"scope", PMIX_SCOPE, &scope_v},
    {"range", PMIX_DATA_RANGE, &range_v},
    {"proc_state", PMIX_PROC_STATE, &pstate_v},
    {"job_state", PMIX_JOB_STATE, &jstate_v},
    {"link_state", PMIX_LINK_STATE, &lstate_v},
    {"alloc_directive", PMIX_ALLOC_DIRECTIVE, &adir_v},
    /* Left out: PMIX_IOF_CHANNEL, PMIX_INFO_DIRECTIVES and PMIX_DATA_TYPE. The
     * reference's value load returns success but stores 0, and its xfer and
     * unload fail with PMIX_ERROR for them (a bug, not behaviour to copy). */
    {"devtype", PMIX_DEVTYPE, &devtype_v},
    {"loctype", PMIX_LOCTYPE, &loc_v},
    {"stor_medium", PMIX_STOR_MEDIUM, &smed_v},
    {"stor_access", PMIX_STOR_ACCESS, &sacc_v},
    {"stor_persist", PMIX_STOR_PERSIST, &sper_v},
    {"stor_access_type", PMIX_STOR_ACCESS_TYPE, &satype_v},
    {"proc_info", PMIX_PROC_INFO, &pinfo_v},
    {"envar", PMIX_ENVAR, &envar_v},
    {"coord", PMIX_COORD, &coord_v},
    {"regattr", PMIX_REGATTR, &regattr_v},
    {"geometry", PMIX_GEOMETRY, &geometry_v},
    {"devdist", PMIX_DEVICE_DIST, &devdist_v},
    {"endpoint", PMIX_ENDPOINT, &endpoint_v},
    /* Left out: PMIX_PROC_NSPACE and PMIX_NODE_STATS. The reference leaks the
     * copy it makes on load/xfer (its destruct does not free it). */
    {"proc_stats", PMIX_PROC_STATS, &pstats_v},
    {"disk_stats", PMIX_DISK_STATS, &dkstats_v},
    {"net_stats", PMIX_NET_STATS, &netstats_v},
    {"pointer", PMIX_POINTER, &pointer_v},
    /* Left out: PMIX_PROC_CPUSET. The reference crashes copying a cpuset
     * without an hwloc bitmap, and cannot make one (PMIx_Parse_cpuset_string
     * fails before init and crashes after PMIx_tool_init here). */
    {"topology", PMIX_TOPO, &topo_v},
    /* Left out as single values: PMIX_APP, PMIX_QUERY, PMIX_INFO, PMIX_PDATA
     * and PMIX_VALUE. The reference's load returns success but stores
     * nothing, and its xfer/unload fail. They are covered as data arrays. */
    {"darray.uint32", PMIX_DATA_ARRAY, &da_u32},
    {"darray.string", PMIX_DATA_ARRAY, &da_str},
    {"darray.proc", PMIX_DATA_ARRAY, &da_proc},
    {"darray.double", PMIX_DATA_ARRAY, &da_double},
    {"darray.bool", PMIX_DATA_ARRAY, &da_bool},
    {"darray.size", PMIX_DATA_ARRAY, &da_size},
    {"darray.envar", PMIX_DATA_ARRAY, &da_envar},
    {"darray.byte_object", PMIX_DATA_ARRAY, &da_bo},
    {"darray.coord", PMIX_DATA_ARRAY, &da_coord},
    {"darray.value", PMIX_DATA_ARRAY, &da_value},
    {"darray.info_nested", PMIX_DATA_ARRAY, &da_info},
    /* Left out: a data array whose elements are data arrays. The reference cannot
     * copy one (value load logs NOT-SUPPORTED, returns success with a NULL
     * array, and the following unload crashes). */
    {"darray.proc_info", PMIX_DATA_ARRAY, &da_pinfo},
    {"darray.empty", PMIX_DATA_ARRAY, &da_empty},
    {"darray.app", PMIX_DATA_ARRAY, &da_app},
    {"darray.query", PMIX_DATA_ARRAY, &da_query},
    {"darray.pdata", PMIX_DATA_ARRAY, &da_pdata},
    {"darray.info", PMIX_DATA_ARRAY, &da_one_info},
    {"darray.value1", PMIX_DATA_ARRAY, &da_one_value},
    {"darray.regattr", PMIX_DATA_ARRAY, &da_regattr},
    {"darray.geometry", PMIX_DATA_ARRAY, &da_geometry},
    {"darray.endpoint", PMIX_DATA_ARRAY, &da_endpoint},
    {"darray.devdist", PMIX_DATA_ARRAY, &da_devdist},
};

const cc_sample_t *cc_samples(size_t *count)
{
    static bool built;
    if (!built) {
        build_nested();
        built = true;
    }
    *count = sizeof kSamples / sizeof kSamples[0];
    return kSamples;
}
