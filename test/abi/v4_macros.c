/*
 * v4_macros: a program in the style of OpenPMIx 4.x users (examples, Open
 * MPI, Slurm) that exercises every support macro of pmix_common.h and
 * pmix_deprecated.h on the data API only. Built against pmixx's headers it
 * must import nothing that OpenPMIx 4.2.2's libpmix.so.2 does not export,
 * and run the same on both libraries (run_v4_portability.sh). Prints
 * "v4_macros: N checks passed" and exits 0, or names the failed check and
 * exits 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmix.h>

static int checks, failed;
#define CHECK(cond, what)                                      \
    do {                                                       \
        ++checks;                                              \
        if (!(cond)) {                                         \
            fprintf(stderr, "v4_macros: FAIL: %s\n", (what));  \
            ++failed;                                          \
        }                                                      \
    } while (0)

static void Infos(void) {
    pmix_info_t *info;
    PMIX_INFO_CREATE(info, 3);
    CHECK(info != NULL && PMIX_INFO_IS_END(&info[2]) && !PMIX_INFO_IS_END(&info[0]), "INFO_CREATE end flag");
    uint32_t u = 7;
    PMIX_INFO_LOAD(&info[0], PMIX_JOB_SIZE, &u, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[1], PMIX_HOSTNAME, "node0", PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_COLLECT_DATA, NULL, PMIX_BOOL);
    CHECK(PMIX_CHECK_KEY(&info[1], PMIX_HOSTNAME) && !PMIX_CHECK_KEY(&info[1], PMIX_JOB_SIZE), "CHECK_KEY");
    CHECK(PMIX_INFO_TRUE(&info[2]), "INFO_TRUE of a bool without value");
    PMIX_INFO_REQUIRED(&info[0]);
    CHECK(PMIX_INFO_IS_REQUIRED(&info[0]) && !PMIX_INFO_IS_OPTIONAL(&info[0]), "INFO_REQUIRED");
    PMIX_INFO_OPTIONAL(&info[0]);
    CHECK(PMIX_INFO_IS_OPTIONAL(&info[0]), "INFO_OPTIONAL");
    PMIX_INFO_PROCESSED(&info[0]);
    CHECK(PMIX_INFO_WAS_PROCESSED(&info[0]), "INFO_PROCESSED");
    pmix_info_t copy;
    PMIX_INFO_CONSTRUCT(&copy);
    PMIX_INFO_XFER(&copy, &info[1]);
    CHECK(strcmp(copy.value.data.string, "node0") == 0, "INFO_XFER");
    PMIX_INFO_DESTRUCT(&copy);
    PMIX_INFO_FREE(info, 3);
    CHECK(info == NULL, "INFO_FREE clears the pointer");
}

static void Values(void) {
    pmix_value_t *v = NULL, val;
    PMIX_VALUE_CREATE(v, 2);
    CHECK(v != NULL && v[0].type == PMIX_UNDEF, "VALUE_CREATE");
    PMIX_VALUE_LOAD(&v[0], "text", PMIX_STRING);
    pmix_status_t rc;
    pmix_value_t *x = NULL;
    PMIX_VALUE_XFER(rc, x, &v[0]);
    CHECK(rc == PMIX_SUCCESS && x != NULL && strcmp(x->data.string, "text") == 0, "VALUE_XFER allocates");
    PMIX_VALUE_RELEASE(x);
    CHECK(x == NULL, "VALUE_RELEASE");
    PMIX_VALUE_FREE(v, 2);
    PMIX_VALUE_CONSTRUCT(&val);
    uint16_t n16 = 9;
    PMIX_VALUE_LOAD(&val, &n16, PMIX_UINT16);
    int n = 0;
    PMIX_VALUE_GET_NUMBER(rc, &val, n, int);
    CHECK(rc == PMIX_SUCCESS && n == 9, "VALUE_GET_NUMBER");
    PMIX_VALUE_DESTRUCT(&val);
    bool yes = true;
    PMIX_VALUE_LOAD(&val, &yes, PMIX_BOOL);
    CHECK(PMIX_CHECK_TRUE(&val) && PMIX_CHECK_BOOL(&val), "CHECK_TRUE");
}

static void Procs(void) {
    pmix_proc_t *procs, p, q;
    PMIX_PROC_CREATE(procs, 2);
    PMIX_LOAD_PROCID(&procs[0], "ns-a", 3);
    PMIX_PROC_LOAD(&procs[1], "ns-a", PMIX_RANK_WILDCARD);
    CHECK(PMIX_CHECK_PROCID(&procs[0], &procs[1]), "CHECK_PROCID with a wildcard");
    PMIX_PROC_CONSTRUCT(&p);
    CHECK(PMIX_PROCID_INVALID(&p) || p.rank == 0, "PROC_CONSTRUCT");
    PMIX_XFER_PROCID(&q, &procs[0]);
    CHECK(PMIX_CHECK_NSPACE(q.nspace, "ns-a") && PMIX_CHECK_RANK(q.rank, 3), "XFER_PROCID");
    CHECK(!PMIX_NSPACE_INVALID(q.nspace), "NSPACE_INVALID");
    pmix_nspace_t mc, cl, ns;
    PMIX_MULTICLUSTER_NSPACE_CONSTRUCT(mc, "clu", "job");
    PMIX_MULTICLUSTER_NSPACE_PARSE(mc, cl, ns);
    CHECK(strcmp(mc, "clu:job") == 0 && strcmp(cl, "clu") == 0 && strcmp(ns, "job") == 0, "MULTICLUSTER");
    PMIX_PROC_FREE(procs, 2);
    pmix_proc_info_t *pi;
    PMIX_PROC_INFO_CREATE(pi, 1);
    pi->hostname = strdup("h");
    PMIX_PROC_INFO_FREE(pi, 1);
    CHECK(1, "PROC_INFO");
}

static void Argv(void) {
    char **argv = NULL, **copy = NULL, *joined = NULL;
    pmix_status_t rc;
    PMIX_ARGV_APPEND(rc, argv, "b");
    PMIX_ARGV_PREPEND(rc, argv, "a");
    PMIX_ARGV_APPEND_UNIQUE(rc, &argv, "b");
    PMIX_ARGV_APPEND_UNIQUE(rc, &argv, "c");
    int n;
    PMIX_ARGV_COUNT(n, argv);
    PMIX_ARGV_JOIN(joined, argv, ',');
    CHECK(rc == PMIX_SUCCESS && n == 3 && strcmp(joined, "a,b,c") == 0, "ARGV append/prepend/join");
    PMIX_ARGV_COPY(copy, argv);
    PMIX_ARGV_FREE(argv);
    free(joined);
    PMIX_ARGV_SPLIT(argv, "x::y", ':');
    PMIX_ARGV_COUNT(n, argv);
    CHECK(n == 2 && strcmp(argv[1], "y") == 0 && strcmp(copy[2], "c") == 0, "ARGV_SPLIT/COPY");
    PMIX_ARGV_FREE(argv);
    PMIX_ARGV_FREE(copy);
    char **env = NULL;
    PMIX_SETENV(rc, "A", "1", &env);
    PMIX_SETENV(rc, "A", "2", &env);
    CHECK(rc == PMIX_SUCCESS && env != NULL && strcmp(env[0], "A=2") == 0 && env[1] == NULL, "SETENV");
    PMIX_ARGV_FREE(env);
}

static void Containers(void) {
    pmix_status_t rc;
    pmix_data_array_t *da;
    PMIX_DATA_ARRAY_CREATE(da, 4, PMIX_PROC);
    CHECK(da != NULL && da->size == 4 && da->type == PMIX_PROC, "DATA_ARRAY_CREATE");
    PMIX_DATA_ARRAY_FREE(da);
    pmix_data_array_t arr;
    PMIX_DATA_ARRAY_CONSTRUCT(&arr, 2, PMIX_INFO);
    PMIX_INFO_LOAD(&((pmix_info_t *)arr.array)[0], "k", "v", PMIX_STRING);
    PMIX_DATA_ARRAY_DESTRUCT(&arr);
    PMIX_DATA_ARRAY_INIT(&arr, PMIX_STRING);
    CHECK(arr.array == NULL && arr.size == 0, "DATA_ARRAY_INIT");
    pmix_app_t *apps;
    PMIX_APP_CREATE(apps, 1);
    apps[0].cmd = strdup("prog");
    PMIX_ARGV_APPEND_UNIQUE(rc, &apps[0].argv, "prog");
    CHECK(rc == PMIX_SUCCESS, "ARGV_APPEND_UNIQUE into an app");
    PMIX_APP_INFO_CREATE(&apps[0], 2);
    CHECK(apps[0].ninfo == 2, "APP_INFO_CREATE");
    PMIX_APP_FREE(apps, 1);
    pmix_query_t *q;
    PMIX_QUERY_CREATE(q, 1);
    PMIX_ARGV_APPEND(rc, q[0].keys, PMIX_QUERY_NAMESPACES);
    PMIX_QUERY_QUALIFIERS_CREATE(&q[0], 1);
    CHECK(q[0].nqual == 1, "QUERY_QUALIFIERS_CREATE");
    PMIX_QUERY_FREE(q, 1);
    pmix_pdata_t *pd;
    PMIX_PDATA_CREATE(pd, 1);
    PMIX_PDATA_LOAD(&pd[0], &pd[0].proc, "key", "val", PMIX_STRING);
    PMIX_PDATA_RELEASE(pd);
    pmix_byte_object_t bo;
    PMIX_BYTE_OBJECT_CONSTRUCT(&bo);
    char *bytes = strdup("abc");
    size_t sz = 3;
    PMIX_BYTE_OBJECT_LOAD(&bo, bytes, sz);
    CHECK(bo.size == 3 && bytes == NULL, "BYTE_OBJECT_LOAD");
    PMIX_BYTE_OBJECT_DESTRUCT(&bo);
    pmix_envar_t ev;
    PMIX_ENVAR_CONSTRUCT(&ev);
    PMIX_ENVAR_LOAD(&ev, "PATH", "/bin", ':');
    CHECK(strcmp(ev.value, "/bin") == 0, "ENVAR_LOAD");
    PMIX_ENVAR_DESTRUCT(&ev);
    pmix_data_buffer_t *buf;
    PMIX_DATA_BUFFER_CREATE(buf);
    PMIX_DATA_BUFFER_LOAD(buf, strdup("xyz"), 3);
    char *out = NULL;
    size_t outsz = 0;
    PMIX_DATA_BUFFER_UNLOAD(buf, out, outsz);
    CHECK(outsz == 3 && out != NULL && memcmp(out, "xyz", 3) == 0, "DATA_BUFFER_LOAD/UNLOAD");
    free(out);
    PMIX_DATA_BUFFER_RELEASE(buf);
    pmix_coord_t *c;
    PMIX_COORD_CREATE(c, 2, 3);
    CHECK(c != NULL && c[1].dims == 3, "COORD_CREATE");
    PMIX_COORD_FREE(c, 2);
    pmix_regattr_t ra, rb;
    PMIX_REGATTR_CONSTRUCT(&ra);
    PMIX_REGATTR_LOAD(&ra, "name", PMIX_TIMEOUT, PMIX_INT, "seconds");
    PMIX_REGATTR_XFER(&rb, &ra);
    CHECK(strcmp(rb.description[0], "seconds") == 0, "REGATTR_LOAD/XFER");
    PMIX_REGATTR_DESTRUCT(&ra);
    PMIX_REGATTR_DESTRUCT(&rb);
    pmix_geometry_t *g;
    PMIX_GEOMETRY_CREATE(g, 1);
    PMIX_GEOMETRY_FREE(g, 1);
    pmix_device_distance_t *dd;
    PMIX_DEVICE_DIST_CREATE(dd, 1);
    CHECK(dd[0].mindist == UINT16_MAX, "DEVICE_DIST_CREATE");
    PMIX_DEVICE_DIST_FREE(dd, 1);
    pmix_endpoint_t *ep;
    PMIX_ENDPOINT_CREATE(ep, 1);
    PMIX_ENDPOINT_FREE(ep, 1);
    pmix_topology_t *topo;
    PMIX_TOPOLOGY_CREATE(topo, 1);
    PMIX_TOPOLOGY_FREE(topo, 1);
    CHECK(topo == NULL, "TOPOLOGY_FREE");
    pmix_fabric_t fab;
    PMIX_FABRIC_CONSTRUCT(&fab);
    CHECK(fab.info == NULL, "FABRIC_CONSTRUCT");
}

int main(void) {
    Infos();
    Values();
    Procs();
    Argv();
    Containers();
    CHECK(PMIx_Get_version() != NULL, "PMIx_Get_version");
    if (getenv("V4_MACROS_NEVER") != NULL) PMIx_Heartbeat(); /* linked, never run: no server */
    if (failed > 0) return fprintf(stderr, "v4_macros: %d of %d checks failed\n", failed, checks), 1;
    printf("v4_macros: %d checks passed\n", checks);
    return 0;
}
