/*
 * Cross-check of the hwloc and fabric structs: PMIX_PROC_CPUSET, PMIX_TOPO,
 * PMIX_GEOMETRY, PMIX_DEVICE_DIST and PMIX_ENDPOINT, each alone, inside a
 * pmix_value_t, inside an info and inside a data array, through
 * PMIx_Data_copy, PMIx_Data_print, PMIx_Value_load/xfer/compare/string and a
 * PMIx_Data_pack/unpack round trip in one library. Content only: a cpuset
 * prints as its bit list and a topology as its object counts. The topologies
 * are this machine's (exported once to $CROSSCHECK_MACHINE_XML) and a fake
 * node with I/O devices (the XML file named by $CROSSCHECK_TOPOLOGY_XML).
 *
 * On the reference each check runs in a child process: it crashes on several
 * of these inputs, and a crash shows as a line of its own
 * (crosscheck_deviations.txt lists them).
 */
#include "crosscheck.h"

#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
    const char *name;
    pmix_data_type_t type;
    void *data;
    size_t size; /* sizeof the struct */
} hw_sample_t;

static uint32_t coord_vals[3] = {4, 5, 6};
static pmix_coord_t coords[2] = {{PMIX_COORD_LOGICAL_VIEW, coord_vals, 3},
                                 {PMIX_COORD_PHYSICAL_VIEW, coord_vals, 1}};
static char endpt_bytes[] = {'e', 'p', 0, (char)0xfe};
static pmix_geometry_t geometry_full = {7, "uuid-g", "hfi1_0", coords, 2};
static pmix_geometry_t geometry_nulls = {0, NULL, NULL, NULL, 0};
static pmix_device_distance_t devdist_full = {"uuid-d", "mlx5_1", PMIX_DEVTYPE_NETWORK, 11, 22};
static pmix_device_distance_t devdist_nulls = {NULL, NULL, PMIX_DEVTYPE_UNKNOWN, 0, 0};
static pmix_endpoint_t endpoint_full = {"uuid-e", "ib1", {endpt_bytes, sizeof endpt_bytes}};
static pmix_endpoint_t endpoint_nulls = {NULL, NULL, {NULL, 0}};
static pmix_cpuset_t cpuset_bits, cpuset_empty;
static pmix_topology_t topology_loaded, topology_io;

static hw_sample_t samples[] = {
    {"cpuset.bits", PMIX_PROC_CPUSET, &cpuset_bits, sizeof(pmix_cpuset_t)},
    {"cpuset.empty", PMIX_PROC_CPUSET, &cpuset_empty, sizeof(pmix_cpuset_t)},
    /* Left out: a cpuset without bitmap and a topology without object. The
     * reference crashes copying the one and packing the other. */
    {"topology.loaded", PMIX_TOPO, &topology_loaded, sizeof(pmix_topology_t)},
    {"topology.io", PMIX_TOPO, &topology_io, sizeof(pmix_topology_t)},
    {"geometry.full", PMIX_GEOMETRY, &geometry_full, sizeof(pmix_geometry_t)},
    {"geometry.nulls", PMIX_GEOMETRY, &geometry_nulls, sizeof(pmix_geometry_t)},
    {"devdist.full", PMIX_DEVICE_DIST, &devdist_full, sizeof(pmix_device_distance_t)},
    {"devdist.nulls", PMIX_DEVICE_DIST, &devdist_nulls, sizeof(pmix_device_distance_t)},
    {"endpoint.full", PMIX_ENDPOINT, &endpoint_full, sizeof(pmix_endpoint_t)},
    {"endpoint.nulls", PMIX_ENDPOINT, &endpoint_nulls, sizeof(pmix_endpoint_t)},
};

/* The hwloc samples: cpus 0-3 and 8, an empty bitmap, this machine. */
static bool build_samples(void)
{
    hwloc_bitmap_t bits = hwloc_bitmap_alloc();
    hwloc_bitmap_set_range(bits, 0, 3);
    hwloc_bitmap_set(bits, 8);
    cpuset_bits.source = "hwloc";
    cpuset_bits.bitmap = bits;
    cpuset_empty.source = "hwloc";
    cpuset_empty.bitmap = hwloc_bitmap_alloc();
    /* This machine's topology, as crosscheck.sh exported it once
     * ($CROSSCHECK_MACHINE_XML): discovered in each run it would differ
     * under valgrind, where hwloc's x86 backend is off. */
    const char *machine = getenv("CROSSCHECK_MACHINE_XML");
    hwloc_topology_t topo = NULL;
    if (hwloc_topology_init(&topo) != 0 ||
        (machine != NULL && hwloc_topology_set_xml(topo, machine) != 0) ||
        hwloc_topology_load(topo) != 0) {
        return false;
    }
    topology_loaded.source = "hwloc";
    topology_loaded.topology = topo;
    /* A node with PCI and OS devices (a NIC, an HCA, a GPU): the XML file
     * crosscheck.sh names, all its I/O objects kept. */
    const char *xml = getenv("CROSSCHECK_TOPOLOGY_XML");
    topo = NULL;
    if (xml == NULL || hwloc_topology_init(&topo) != 0 || hwloc_topology_set_xml(topo, xml) != 0 ||
        hwloc_topology_set_all_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_ALL) != 0 ||
        hwloc_topology_load(topo) != 0) {
        return false;
    }
    topology_io.source = "hwloc";
    topology_io.topology = topo;
    return true;
}

static void free_samples(void)
{
    hwloc_bitmap_free(cpuset_bits.bitmap);
    hwloc_bitmap_free(cpuset_empty.bitmap);
    hwloc_topology_destroy(topology_loaded.topology);
    hwloc_topology_destroy(topology_io.topology);
}

/* Releases a struct of `type` the library allocated (with its contents),
 * the way a pmix_value_t holding it releases it. */
static void release_struct(pmix_data_type_t type, void *p)
{
    if (p == NULL) {
        return;
    }
    pmix_value_t holder;
    PMIX_VALUE_CONSTRUCT(&holder);
    holder.type = type;
    holder.data.ptr = p;
    PMIx_Value_destruct(&holder);
}

static void check_copy(const char *name, pmix_data_type_t type, const void *data, size_t size)
{
    (void)size;
    void *out = NULL;
    char label[96];
    pmix_status_t rc = PMIx_Data_copy(&out, (void *)data, type);
    cc_put("rc=%d ", rc);
    if (rc == PMIX_SUCCESS) {
        cc_put_datum(type, out);
    }
    snprintf(label, sizeof label, "copy %s", name);
    cc_flush(label);
    if (type == PMIX_DATA_ARRAY) {
        pmix_data_array_t *d = out;
        if (d != NULL) {
            PMIX_DATA_ARRAY_FREE(d);
        }
    } else {
        release_struct(type, out);
    }
}

static void check_print(const char *name, pmix_data_type_t type, const void *data, size_t size)
{
    (void)size;
    char *text = NULL, label[96];
    pmix_status_t rc = PMIx_Data_print(&text, "pfx>", (void *)data, type);
    cc_put("rc=%d ", rc);
    cc_put_string(text);
    free(text);
    snprintf(label, sizeof label, "print %s", name);
    cc_flush(label);
}

static void check_value(const char *name, pmix_data_type_t type, const void *data, size_t size)
{
    (void)size;
    pmix_value_t v, copy;
    char label[96];
    PMIX_VALUE_CONSTRUCT(&v);
    PMIX_VALUE_CONSTRUCT(&copy);
    pmix_status_t rc = PMIx_Value_load(&v, data, type);
    pmix_status_t xrc = PMIx_Value_xfer(&copy, &v);
    cc_put("load=%d xfer=%d compare=%d ", rc, xrc, (int)PMIx_Value_compare(&v, &copy));
    cc_put_value(&copy);
    snprintf(label, sizeof label, "value %s", name);
    cc_flush(label);
    char *text = PMIx_Value_string(&copy);
    cc_put_string(text);
    free(text);
    snprintf(label, sizeof label, "value_string %s", name);
    cc_flush(label);
    PMIx_Value_destruct(&copy);
    PMIx_Value_destruct(&v);
}

/* Packs `data` (num elements of `type`) into a fresh buffer and unpacks
 * one element into calloc'ed storage of `size` bytes; prints both
 * statuses, whether the buffer was used up, and what came back. */
static void check_round_trip(const char *name, pmix_data_type_t type, const void *data,
                             size_t size)
{
    pmix_data_buffer_t buf;
    char label[96];
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    pmix_status_t prc = PMIx_Data_pack(NULL, &buf, (void *)data, 1, type);
    void *out = calloc(1, size);
    int32_t n = 1;
    pmix_status_t urc = prc == PMIX_SUCCESS ? PMIx_Data_unpack(NULL, &buf, out, &n, type) : prc;
    cc_put("pack=%d unpack=%d n=%d ", prc, urc, n);
    if (prc == PMIX_SUCCESS && urc == PMIX_SUCCESS) {
        int32_t more = 1;
        char spare[sizeof(pmix_info_t)];
        cc_put("rest=%s ", PMIx_Data_unpack(NULL, &buf, spare, &more, type) == PMIX_SUCCESS
                               ? "more"
                               : "empty");
        cc_put_datum(type, out);
    }
    snprintf(label, sizeof label, "roundtrip %s", name);
    cc_flush(label);
    if (urc == PMIX_SUCCESS) {
        switch (type) {
        case PMIX_VALUE:
            PMIx_Value_destruct(out);
            free(out);
            break;
        case PMIX_INFO:
            PMIX_INFO_DESTRUCT((pmix_info_t *)out);
            free(out);
            break;
        case PMIX_DATA_ARRAY: {
            pmix_data_array_t *d = out;
            PMIX_DATA_ARRAY_FREE(d);
            break;
        }
        default:
            release_struct(type, out);
        }
    } else {
        free(out);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
}

typedef void (*check_fn)(const char *name, pmix_data_type_t type, const void *data, size_t size);

/* Whether the library is OpenPMIx (the reference), which crashes on some
 * of these inputs. */
static bool is_reference(void)
{
    return strncmp(PMIx_Get_version(), "OpenPMIx", 8) == 0;
}

/* Runs one check. On the reference it runs in a child process, so that an
 * input the reference crashes on costs that check only: the crash prints as
 * its own line ("crash <what> <name>: signal N") in place of the check's.
 * Ours runs it in this process, where valgrind sees every allocation (a
 * forked child would lose the progress thread and look leaky). */
static void guarded(const char *what, check_fn fn, const char *name, pmix_data_type_t type,
                    const void *data, size_t size)
{
    if (!is_reference()) {
        fn(name, type, data, size);
        return;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        fn(name, type, data, size);
        fflush(stdout);
        _exit(0);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) {
        cc_line("crash %s %s: cannot run the check", what, name);
    } else if (WIFSIGNALED(status)) {
        cc_line("crash %s %s: signal %d", what, name, WTERMSIG(status));
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        cc_line("crash %s %s: exit %d", what, name, WEXITSTATUS(status));
    }
}

/* The checks of one datum of `type`: copy, print, value, round trip. */
static void check_datum(const char *name, pmix_data_type_t type, const void *data, size_t size)
{
    guarded("copy", check_copy, name, type, data, size);
    guarded("print", check_print, name, type, data, size);
    guarded("value", check_value, name, type, data, size);
    guarded("roundtrip", check_round_trip, name, type, data, size);
}

/* The sample inside a value and inside an info, packed and unpacked. */
static void check_wrapped(const char *name, pmix_data_type_t type, const void *data, size_t size)
{
    char label[96];
    (void)size;
    pmix_value_t v;
    PMIX_VALUE_CONSTRUCT(&v);
    if (PMIx_Value_load(&v, data, type) == PMIX_SUCCESS) {
        snprintf(label, sizeof label, "value.%s", name);
        check_round_trip(label, PMIX_VALUE, &v, sizeof v);
    }
    PMIx_Value_destruct(&v);

    pmix_info_t info;
    PMIX_INFO_CONSTRUCT(&info);
    if (PMIx_Info_load(&info, "crosscheck.hw", data, type) == PMIX_SUCCESS) {
        snprintf(label, sizeof label, "info.%s", name);
        check_round_trip(label, PMIX_INFO, &info, sizeof info);
        char *text = PMIx_Info_string(&info);
        cc_put_string(text);
        free(text);
        snprintf(label, sizeof label, "info_string %s", name);
        cc_flush(label);
    }
    PMIX_INFO_DESTRUCT(&info);
}

static void check_sample(const hw_sample_t *s)
{
    char name[96];
    check_datum(s->name, s->type, s->data, s->size);
    guarded("wrapped", check_wrapped, s->name, s->type, s->data, s->size);

    /* two of it in a data array */
    char *pair = malloc(2 * s->size);
    memcpy(pair, s->data, s->size);
    memcpy(pair + s->size, s->data, s->size);
    pmix_data_array_t da = {s->type, 2, pair};
    snprintf(name, sizeof name, "darray.%s", s->name);
    check_datum(name, PMIX_DATA_ARRAY, &da, sizeof da);
    free(pair);
}

void cc_hwtypes(void)
{
    if (!build_samples()) {
        cc_line("hwtypes: cannot load this machine's hwloc topology or $CROSSCHECK_TOPOLOGY_XML");
        return;
    }
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; ++i) {
        check_sample(&samples[i]);
    }
    free_samples();
}
