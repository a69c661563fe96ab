/*
 * Data round-trip check: field-by-field comparison of the struct types that
 * hold no values (proc info, coords, regattrs, fabric structs, envars,
 * statistics, hwloc objects, data buffers). See datacheck_compare.c.
 */
#include "datacheck_compare.h"

#include <hwloc.h>
#include <stdio.h>
#include <string.h>

static bool eq_proc_info(const char *path, const pmix_proc_info_t *w, const pmix_proc_info_t *g)
{
    char sub[256];
    SUB(PMIX_PROC, proc);
    STR(hostname);
    STR(executable_name);
    SGN(pid);
    SGN(exit_code);
    UNS(state);
    return true;
}

static bool eq_coord(const char *path, const pmix_coord_t *w, const pmix_coord_t *g)
{
    UNS(view);
    ARRAY(PMIX_UINT32, coord, dims);
    return true;
}

static bool eq_regattr(const char *path, const pmix_regattr_t *w, const pmix_regattr_t *g)
{
    STR(name);
    KEY(string);
    UNS(type);
    ARGV(description);
    return true;
}

static bool eq_geometry(const char *path, const pmix_geometry_t *w, const pmix_geometry_t *g)
{
    UNS(fabric);
    STR(uuid);
    STR(osname);
    ARRAY(PMIX_COORD, coordinates, ncoords);
    return true;
}

static bool eq_distance(const char *path, const pmix_device_distance_t *w,
                        const pmix_device_distance_t *g)
{
    STR(uuid);
    STR(osname);
    UNS(type);
    UNS(mindist);
    UNS(maxdist);
    return true;
}

static bool eq_endpoint(const char *path, const pmix_endpoint_t *w, const pmix_endpoint_t *g)
{
    STR(uuid);
    STR(osname);
    return eq_bytes(path, "endpt", w->endpt.bytes, w->endpt.size, g->endpt.bytes, g->endpt.size);
}

static bool eq_envar(const char *path, const pmix_envar_t *w, const pmix_envar_t *g)
{
    STR(envar);
    STR(value);
    SGN(separator);
    return true;
}

static bool eq_proc_stats(const char *path, const pmix_proc_stats_t *w, const pmix_proc_stats_t *g)
{
    char sub[256];
    STR(node);
    SUB(PMIX_PROC, proc);
    SGN(pid);
    STR(cmd);
    SGN(state);
    TV(time);
    FLT(percent_cpu);
    SGN(priority);
    UNS(num_threads);
    FLT(pss);
    FLT(vsize);
    FLT(rss);
    FLT(peak_vsize);
    UNS(processor);
    TV(sample_time);
    return true;
}

static bool eq_disk_stats(const char *path, const pmix_disk_stats_t *w, const pmix_disk_stats_t *g)
{
    STR(disk);
    UNS(num_reads_completed);
    UNS(num_reads_merged);
    UNS(num_sectors_read);
    UNS(milliseconds_reading);
    UNS(num_writes_completed);
    UNS(num_writes_merged);
    UNS(num_sectors_written);
    UNS(milliseconds_writing);
    UNS(num_ios_in_progress);
    UNS(milliseconds_io);
    UNS(weighted_milliseconds_io);
    return true;
}

static bool eq_net_stats(const char *path, const pmix_net_stats_t *w, const pmix_net_stats_t *g)
{
    STR(net_interface);
    UNS(num_bytes_recvd);
    UNS(num_packets_recvd);
    UNS(num_recv_errs);
    UNS(num_bytes_sent);
    UNS(num_packets_sent);
    UNS(num_send_errs);
    return true;
}

static bool eq_node_stats(const char *path, const pmix_node_stats_t *w, const pmix_node_stats_t *g)
{
    STR(node);
    FLT(la);
    FLT(la5);
    FLT(la15);
    FLT(total_mem);
    FLT(free_mem);
    FLT(buffers);
    FLT(cached);
    FLT(swap_cached);
    FLT(swap_total);
    FLT(swap_free);
    FLT(mapped);
    TV(sample_time);
    ARRAY(PMIX_DISK_STATS, diskstats, ndiskstats);
    ARRAY(PMIX_NET_STATS, netstats, nnetstats);
    return true;
}

static bool eq_cpuset(const char *path, const pmix_cpuset_t *w, const pmix_cpuset_t *g)
{
    STR(source);
    if ((w->bitmap == NULL) != (g->bitmap == NULL)) {
        return differ(path, "bitmap", "want %s, got %s", w->bitmap ? "a bitmap" : "NULL",
                      g->bitmap ? "a bitmap" : "NULL");
    }
    if (w->bitmap != NULL && !hwloc_bitmap_isequal(w->bitmap, g->bitmap)) {
        char a[128], b[128];
        hwloc_bitmap_list_snprintf(a, sizeof a, w->bitmap);
        hwloc_bitmap_list_snprintf(b, sizeof b, g->bitmap);
        return differ(path, "bitmap", "want {%s}, got {%s}", a, b);
    }
    return true;
}

/* Topologies are equal when they have as many objects of each main kind and
 * the same complete cpuset. */
static bool eq_topology(const char *path, const pmix_topology_t *w, const pmix_topology_t *g)
{
    static const hwloc_obj_type_t kinds[] = {HWLOC_OBJ_PACKAGE, HWLOC_OBJ_NUMANODE,
                                             HWLOC_OBJ_CORE, HWLOC_OBJ_PU};
    STR(source);
    if ((w->topology == NULL) != (g->topology == NULL)) {
        return differ(path, "topology", "want %s, got %s", w->topology ? "an object" : "NULL",
                      g->topology ? "an object" : "NULL");
    }
    if (w->topology == NULL) {
        return true;
    }
    hwloc_topology_t wt = w->topology, gt = g->topology;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) {
        int a = hwloc_get_nbobjs_by_type(wt, kinds[k]), b = hwloc_get_nbobjs_by_type(gt, kinds[k]);
        if (a != b) {
            return differ(path, "topology", "want %d %s objects, got %d", a,
                          hwloc_obj_type_string(kinds[k]), b);
        }
    }
    if (!hwloc_bitmap_isequal(hwloc_topology_get_complete_cpuset(wt),
                              hwloc_topology_get_complete_cpuset(gt))) {
        return differ(path, "topology", "complete cpusets differ");
    }
    return true;
}

static bool eq_dbuf(const char *path, const pmix_data_buffer_t *w, const pmix_data_buffer_t *g)
{
    if (!eq_bytes(path, "bytes", w->base_ptr, w->bytes_used, g->base_ptr, g->bytes_used)) {
        return false;
    }
    uint64_t wo = w->unpack_ptr == NULL ? 0 : (uint64_t)(w->unpack_ptr - w->base_ptr);
    uint64_t go = g->unpack_ptr == NULL ? 0 : (uint64_t)(g->unpack_ptr - g->base_ptr);
    return eq_u64(path, "unpack offset", wo, go);
}

#define AS(T) (const T *)w, (const T *)g

bool dc_equal_struct(pmix_data_type_t type, const char *path, const void *w, const void *g,
                     bool *handled)
{
    *handled = true;
    switch (type) {
    case PMIX_PROC_INFO: return eq_proc_info(path, AS(pmix_proc_info_t));
    case PMIX_ENVAR: return eq_envar(path, AS(pmix_envar_t));
    case PMIX_COORD: return eq_coord(path, AS(pmix_coord_t));
    case PMIX_REGATTR: return eq_regattr(path, AS(pmix_regattr_t));
    case PMIX_GEOMETRY: return eq_geometry(path, AS(pmix_geometry_t));
    case PMIX_DEVICE_DIST: return eq_distance(path, AS(pmix_device_distance_t));
    case PMIX_ENDPOINT: return eq_endpoint(path, AS(pmix_endpoint_t));
    case PMIX_PROC_STATS: return eq_proc_stats(path, AS(pmix_proc_stats_t));
    case PMIX_DISK_STATS: return eq_disk_stats(path, AS(pmix_disk_stats_t));
    case PMIX_NET_STATS: return eq_net_stats(path, AS(pmix_net_stats_t));
    case PMIX_NODE_STATS: return eq_node_stats(path, AS(pmix_node_stats_t));
    case PMIX_PROC_CPUSET: return eq_cpuset(path, AS(pmix_cpuset_t));
    case PMIX_TOPO: return eq_topology(path, AS(pmix_topology_t));
    case PMIX_DATA_BUFFER: return eq_dbuf(path, AS(pmix_data_buffer_t));
    default:
        *handled = false;
        return false;
    }
}
