/*
 * Data round-trip check: the samples of the simple and struct types, and
 * the type table. Each type has several samples, with the edge cases of its
 * domain: limits of the integers, empty and NULL strings, NULL pointers and
 * zero counts inside structs. The compound types (values, infos, pdata,
 * apps, queries, data arrays) are in datacheck_compound.c.
 */
#include "datacheck.h"

#include <float.h>
#include <hwloc.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Strings long enough to reach the limits of fixed-size fields. */
static char long_string[5000];
static char max_nspace[PMIX_MAX_NSLEN + 1];
static char big_bytes[70000];

static bool bools[] = {true, false};
static uint8_t bytes_[] = {0, 0x7f, 0xff};
static char *strings[] = {"hello, world", "", NULL, long_string,
                          "tab\there \"q\" \\ \xc3\xa9 \n end"};
static const char *string_labels[] = {"hello", "empty", "null", "long", "odd"};
static size_t sizes[] = {0, 1, SIZE_MAX};
static pid_t pids[] = {0, 4242, INT_MAX, -1};
static int ints[] = {0, -1, INT_MIN, INT_MAX};
static int8_t int8s[] = {0, -1, INT8_MIN, INT8_MAX};
static int16_t int16s[] = {0, -1, INT16_MIN, INT16_MAX};
static int32_t int32s[] = {0, -1, INT32_MIN, INT32_MAX};
static int64_t int64s[] = {0, -1, INT64_MIN, INT64_MAX};
static unsigned uints[] = {0, 1, UINT_MAX};
static uint8_t uint8s[] = {0, 1, UINT8_MAX};
static uint16_t uint16s[] = {0, 1, UINT16_MAX};
static uint32_t uint32s[] = {0, 1, UINT32_MAX};
static uint64_t uint64s[] = {0, 1, UINT64_MAX};
static float floats[] = {0.0f, -1.5f, 3.14159f, FLT_MAX, -FLT_MAX, FLT_MIN, 1e-30f};
static const char *float_labels[] = {"zero", "neg", "pi", "max", "lowest", "min", "tiny"};
static double doubles[] = {0.0, -2.5, 2.718281828459045, DBL_MAX, -DBL_MAX, DBL_MIN, -1e-300};
static const char *double_labels[] = {"zero", "neg", "e", "max", "lowest", "min", "tiny"};
static struct timeval timevals[] = {{0, 0}, {1700000000, 999999}, {LONG_MAX, 0}, {-5, 1}};
static const char *timeval_labels[] = {"zero", "now", "max", "negative"};
static time_t times[] = {0, 1700000000, LONG_MAX, -1};
static const char *time_labels[] = {"zero", "now", "max", "negative"};
static pmix_status_t statuses[] = {PMIX_SUCCESS, PMIX_ERR_TIMEOUT, INT32_MIN, INT32_MAX};
static pmix_persistence_t persists[] = {PMIX_PERSIST_INDEF, PMIX_PERSIST_SESSION, UINT8_MAX};
static pmix_scope_t scopes[] = {PMIX_SCOPE_UNDEF, PMIX_GLOBAL, UINT8_MAX};
static pmix_data_range_t ranges[] = {PMIX_RANGE_UNDEF, PMIX_RANGE_NAMESPACE, PMIX_RANGE_INVALID};
static uint8_t commands[] = {0, 1, UINT8_MAX};
static pmix_info_directives_t directives[] = {0, PMIX_INFO_REQD, UINT32_MAX};
static pmix_data_type_t data_types[] = {PMIX_UNDEF, PMIX_STRING, PMIX_DATA_TYPE_MAX, UINT16_MAX};
static pmix_proc_state_t proc_states[] = {PMIX_PROC_STATE_UNDEF, PMIX_PROC_STATE_RUNNING,
                                          UINT8_MAX};
static pmix_rank_t ranks[] = {0, 12345, PMIX_RANK_WILDCARD, PMIX_RANK_UNDEF, PMIX_RANK_INVALID};
static pmix_alloc_directive_t alloc_directives[] = {0, PMIX_ALLOC_EXTEND, UINT8_MAX};
static pmix_iof_channel_t iof_channels[] = {PMIX_FWD_NO_CHANNELS, PMIX_FWD_ALL_CHANNELS,
                                            UINT16_MAX};
static pmix_job_state_t job_states[] = {PMIX_JOB_STATE_UNDEF, PMIX_JOB_STATE_RUNNING, UINT8_MAX};
static pmix_link_state_t link_states[] = {PMIX_LINK_STATE_UNKNOWN, PMIX_LINK_UP, UINT8_MAX};
static pmix_device_type_t devtypes[] = {PMIX_DEVTYPE_UNKNOWN,
                                        PMIX_DEVTYPE_GPU | PMIX_DEVTYPE_NETWORK, UINT64_MAX};
static pmix_locality_t localities[] = {PMIX_LOCALITY_UNKNOWN,
                                       PMIX_LOCALITY_SHARE_L3CACHE | PMIX_LOCALITY_SHARE_NUMA,
                                       UINT16_MAX};
static pmix_storage_medium_t media[] = {PMIX_STORAGE_MEDIUM_UNKNOWN, PMIX_STORAGE_MEDIUM_SSD,
                                        UINT64_MAX};
static pmix_storage_accessibility_t accesses[] = {0, PMIX_STORAGE_ACCESSIBILITY_JOB, UINT64_MAX};
static pmix_storage_persistence_t persistences[] = {0, PMIX_STORAGE_PERSISTENCE_SCRATCH,
                                                    UINT64_MAX};
static pmix_storage_access_type_t access_types[] = {0, PMIX_STORAGE_ACCESS_RDWR, UINT16_MAX};

static pmix_nspace_t nspaces[3] = {"datacheck.ns", ""};  /* [2]: max length, at run time */
static const char *nspace_labels[] = {"plain", "empty", "max"};
static pmix_proc_t procs[] = {{"ns.a", 0}, {"", PMIX_RANK_WILDCARD}, {"", PMIX_RANK_UNDEF},
                              {"x", PMIX_RANK_INVALID}};
static const char *proc_labels[] = {"plain", "wildcard", "max_nspace", "invalid"};
static char bo_bytes[] = {0, 1, 2, 'a', 'b', 'c', (char)0xff};
static pmix_byte_object_t byte_objects[] = {
    {bo_bytes, sizeof bo_bytes}, {NULL, 0}, {big_bytes, sizeof big_bytes}};
static const char *bo_labels[] = {"bytes", "empty", "big"};
static char zstring[] = "compressed\0tail";
static pmix_byte_object_t compressed[] = {{zstring, sizeof zstring}, {bo_bytes, 1}};
/* Regular expressions: NUL-terminated strings, handed over as char*. */
static char *regexes[] = {"pmix[datacheck]", "node[1-4],login", ""};
static const char *regex_labels[] = {"pmix", "plain", "empty"};
static pmix_envar_t envars[] = {
    {"PATH", "/usr/bin:/bin", ':'}, {"EMPTY", "", '\0'}, {NULL, NULL, ' '}};
static const char *envar_labels[] = {"plain", "empty", "nulls"};
static pmix_proc_info_t proc_infos[] = {
    {{"ns.pi", 1}, "host1", "a.out", 123, 0, PMIX_PROC_STATE_RUNNING},
    {{"", PMIX_RANK_WILDCARD}, NULL, NULL, -1, INT_MIN, 0},
    {{"ns.pi", PMIX_RANK_UNDEF}, "", "", INT_MAX, INT_MAX, UINT8_MAX}};
static const char *proc_info_labels[] = {"plain", "nulls", "limits"};
static uint32_t coord_values[] = {1, 2, 3, UINT32_MAX};
static pmix_coord_t coords[] = {{PMIX_COORD_LOGICAL_VIEW, coord_values, 3},
                                {PMIX_COORD_PHYSICAL_VIEW, NULL, 0},
                                {UINT8_MAX, coord_values + 3, 1}};
static const char *coord_labels[] = {"three", "empty", "max"};
static char *description[] = {"first line", "second line", NULL};
static char *empty_argv[] = {NULL};
static pmix_regattr_t regattrs[] = {{"PMIX_DATACHECK", "pmix.datacheck", PMIX_STRING, description},
                                    {NULL, "", PMIX_UNDEF, NULL},
                                    {"", "x", UINT16_MAX, empty_argv}};
static const char *regattr_labels[] = {"plain", "nulls", "empty"};
static pmix_geometry_t geometries[] = {{1, "uuid-1", "eth0", coords, 2},
                                       {0, NULL, NULL, NULL, 0},
                                       {SIZE_MAX, "", "", coords + 2, 1}};
static const char *geometry_labels[] = {"plain", "nulls", "limits"};
static pmix_device_distance_t distances[] = {
    {"uuid-2", "mlx5_0", PMIX_DEVTYPE_OPENFABRICS, 1, 5},
    {NULL, NULL, 0, 0, 0},
    {"", "", UINT64_MAX, UINT16_MAX, UINT16_MAX}};
static const char *distance_labels[] = {"plain", "nulls", "limits"};
static pmix_endpoint_t endpoints[] = {{"uuid-3", "ib0", {bo_bytes, 4}}, {NULL, NULL, {NULL, 0}}};
static const char *endpoint_labels[] = {"plain", "nulls"};
static pmix_proc_stats_t proc_stats[] = {
    {"node7", {"ns.ps", 1}, 77, "cmd", 'R', {1, 2}, 12.5f, -3, 4, 1.25f, 2.5f, 3.75f, 5.0f, 6,
     {7, 8}},
    {NULL, {"", PMIX_RANK_WILDCARD}, 0, NULL, '\0', {0, 0}, 0.0f, INT32_MIN, UINT16_MAX, 0.0f,
     0.0f, 0.0f, 0.0f, UINT16_MAX, {0, 0}}};
static const char *proc_stats_labels[] = {"plain", "nulls"};
static pmix_disk_stats_t disk_stats[] = {
    {"sda", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
    {NULL, UINT64_MAX, 0, UINT64_MAX, 0, UINT64_MAX, 0, UINT64_MAX, 0, UINT64_MAX, 0,
     UINT64_MAX}};
static pmix_net_stats_t net_stats[] = {{"eth0", 1, 2, 3, 4, 5, 6},
                                       {NULL, UINT64_MAX, 0, UINT64_MAX, 0, UINT64_MAX, 0}};
static pmix_node_stats_t node_stats[] = {
    {"node1", 0.5f, 0.25f, 0.125f, 1024.0f, 512.0f, 8.0f, 16.0f, 1.0f, 2048.0f, 2000.0f, 4.0f,
     {1700000000, 5}, disk_stats, 2, net_stats, 2},
    {NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, {0, 0}, NULL, 0, NULL, 0}};
static const char *node_stats_labels[] = {"plain", "nulls"};
static char dbuf_bytes[] = "packed bytes\0with a NUL";
static pmix_data_buffer_t data_buffers[] = {
    {dbuf_bytes, dbuf_bytes + sizeof dbuf_bytes, dbuf_bytes, sizeof dbuf_bytes, sizeof dbuf_bytes},
    {NULL, NULL, NULL, 0, 0},
    {dbuf_bytes, dbuf_bytes + sizeof dbuf_bytes, dbuf_bytes + 7, sizeof dbuf_bytes,
     sizeof dbuf_bytes}};
static const char *data_buffer_labels[] = {"full", "empty", "partly_read"};

/* hwloc objects, made at run time. */
static pmix_cpuset_t cpusets[3];
static const char *cpuset_labels[] = {"bits", "empty_bitmap", "no_bitmap"};
static pmix_topology_t topologies[2];
static const char *topology_labels[] = {"loaded", "no_object"};

#define T(name, type, array) {name, type, sizeof((array)[0]), (array), N(array), NULL}
#define TL(name, type, array, labels) {name, type, sizeof((array)[0]), (array), N(array), labels}

/* The compound entries (value .. data_array) are filled by dc_build_compound. */
static dc_type_t types[] = {
    T("bool", PMIX_BOOL, bools),
    T("byte", PMIX_BYTE, bytes_),
    TL("string", PMIX_STRING, strings, string_labels),
    T("size", PMIX_SIZE, sizes),
    T("pid", PMIX_PID, pids),
    T("int", PMIX_INT, ints),
    T("int8", PMIX_INT8, int8s),
    T("int16", PMIX_INT16, int16s),
    T("int32", PMIX_INT32, int32s),
    T("int64", PMIX_INT64, int64s),
    T("uint", PMIX_UINT, uints),
    T("uint8", PMIX_UINT8, uint8s),
    T("uint16", PMIX_UINT16, uint16s),
    T("uint32", PMIX_UINT32, uint32s),
    T("uint64", PMIX_UINT64, uint64s),
    TL("float", PMIX_FLOAT, floats, float_labels),
    TL("double", PMIX_DOUBLE, doubles, double_labels),
    TL("timeval", PMIX_TIMEVAL, timevals, timeval_labels),
    TL("time", PMIX_TIME, times, time_labels),
    T("status", PMIX_STATUS, statuses),
    T("persist", PMIX_PERSIST, persists),
    T("scope", PMIX_SCOPE, scopes),
    T("data_range", PMIX_DATA_RANGE, ranges),
    T("command", PMIX_COMMAND, commands),
    T("info_directives", PMIX_INFO_DIRECTIVES, directives),
    T("data_type", PMIX_DATA_TYPE, data_types),
    T("proc_state", PMIX_PROC_STATE, proc_states),
    T("proc_rank", PMIX_PROC_RANK, ranks),
    T("alloc_directive", PMIX_ALLOC_DIRECTIVE, alloc_directives),
    T("iof_channel", PMIX_IOF_CHANNEL, iof_channels),
    T("job_state", PMIX_JOB_STATE, job_states),
    T("link_state", PMIX_LINK_STATE, link_states),
    T("devtype", PMIX_DEVTYPE, devtypes),
    T("loctype", PMIX_LOCTYPE, localities),
    T("stor_medium", PMIX_STOR_MEDIUM, media),
    T("stor_access", PMIX_STOR_ACCESS, accesses),
    T("stor_persist", PMIX_STOR_PERSIST, persistences),
    T("stor_access_type", PMIX_STOR_ACCESS_TYPE, access_types),
    TL("proc_nspace", PMIX_PROC_NSPACE, nspaces, nspace_labels),
    TL("proc", PMIX_PROC, procs, proc_labels),
    TL("byte_object", PMIX_BYTE_OBJECT, byte_objects, bo_labels),
    T("compressed_string", PMIX_COMPRESSED_STRING, compressed),
    T("compressed_byte_object", PMIX_COMPRESSED_BYTE_OBJECT, compressed),
    TL("regex", PMIX_REGEX, regexes, regex_labels),
    TL("envar", PMIX_ENVAR, envars, envar_labels),
    TL("proc_info", PMIX_PROC_INFO, proc_infos, proc_info_labels),
    TL("coord", PMIX_COORD, coords, coord_labels),
    TL("regattr", PMIX_REGATTR, regattrs, regattr_labels),
    TL("geometry", PMIX_GEOMETRY, geometries, geometry_labels),
    TL("device_distance", PMIX_DEVICE_DIST, distances, distance_labels),
    TL("endpoint", PMIX_ENDPOINT, endpoints, endpoint_labels),
    TL("proc_stats", PMIX_PROC_STATS, proc_stats, proc_stats_labels),
    T("disk_stats", PMIX_DISK_STATS, disk_stats),
    T("net_stats", PMIX_NET_STATS, net_stats),
    TL("node_stats", PMIX_NODE_STATS, node_stats, node_stats_labels),
    TL("cpuset", PMIX_PROC_CPUSET, cpusets, cpuset_labels),
    TL("topology", PMIX_TOPO, topologies, topology_labels),
    TL("data_buffer", PMIX_DATA_BUFFER, data_buffers, data_buffer_labels),
    /* filled at run time */
    {"value", PMIX_VALUE, sizeof(pmix_value_t), NULL, 0, NULL},
    {"info", PMIX_INFO, sizeof(pmix_info_t), NULL, 0, NULL},
    {"pdata", PMIX_PDATA, sizeof(pmix_pdata_t), NULL, 0, NULL},
    {"app", PMIX_APP, sizeof(pmix_app_t), NULL, 0, NULL},
    {"query", PMIX_QUERY, sizeof(pmix_query_t), NULL, 0, NULL},
    {"data_array", PMIX_DATA_ARRAY, sizeof(pmix_data_array_t), NULL, 0, NULL},
};

/* The hwloc samples: a cpuset with bits, one with an empty bitmap and one
 * without a bitmap; this machine's topology and a topology without object. */
static void build_hwloc(void)
{
    hwloc_bitmap_t bits = hwloc_bitmap_alloc();
    hwloc_bitmap_list_sscanf(bits, "0-3,8,65");
    cpusets[0].source = "hwloc";
    cpusets[0].bitmap = bits;
    cpusets[1].source = "hwloc";
    cpusets[1].bitmap = hwloc_bitmap_alloc();
    cpusets[2].source = "hwloc";
    hwloc_topology_t topo = NULL;
    if (hwloc_topology_init(&topo) == 0 && hwloc_topology_load(topo) == 0) {
        topologies[0].source = "hwloc";
        topologies[0].topology = topo;
    } else {
        fprintf(stderr, "datacheck: cannot load this machine's hwloc topology\n");
        exit(2);
    }
    topologies[1].source = "hwloc";
}

static void build(void)
{
    memset(long_string, 'L', sizeof long_string - 1);
    memset(max_nspace, 'n', PMIX_MAX_NSLEN);
    memcpy(nspaces[2], max_nspace, sizeof max_nspace);
    memcpy(procs[2].nspace, max_nspace, sizeof max_nspace);
    for (size_t i = 0; i < sizeof big_bytes; ++i) {
        big_bytes[i] = (char)(i * 7 + 3);
    }
    build_hwloc();
    dc_build_compound();
}

const dc_type_t *dc_types(size_t *count)
{
    static bool built;
    if (!built) {
        built = true;
        build();
    }
    *count = N(types);
    return types;
}

/* Used by dc_build_compound to fill its entries (no build recursion). */
dc_type_t *dc_type_slot(pmix_data_type_t type)
{
    for (size_t i = 0; i < N(types); ++i) {
        if (types[i].type == type) {
            return &types[i];
        }
    }
    return NULL;
}

const dc_type_t *dc_find_type(pmix_data_type_t type)
{
    size_t n;
    dc_types(&n);
    return dc_type_slot(type);
}

const char *dc_label(const dc_type_t *t, size_t i)
{
    static char index[32];
    if (t->labels != NULL) {
        return t->labels[i];
    }
    snprintf(index, sizeof index, "%zu", i);
    return index;
}

void *dc_sample(const dc_type_t *t, size_t i)
{
    return (char *)t->array + i * t->size;
}
