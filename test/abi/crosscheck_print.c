/*
 * Cross-check output: a line buffer, and printers for every PMIx data type
 * that show content only (pointers print as "set"/"(nil)", never as numbers).
 */
#include "crosscheck.h"

#include <hwloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *section = "";
static char *line_buf;
static size_t line_len, line_cap;

void cc_section(const char *name) { section = name; }

void cc_put(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        return;
    }
    if (line_len + (size_t)n + 1 > line_cap) {
        line_cap = (line_len + (size_t)n + 1) * 2;
        line_buf = realloc(line_buf, line_cap);
        if (line_buf == NULL) {
            abort();
        }
    }
    va_start(ap, fmt);
    vsnprintf(line_buf + line_len, line_cap - line_len, fmt, ap);
    va_end(ap);
    line_len += (size_t)n;
}

void cc_flush(const char *label)
{
    printf("%s %s: %s\n", section, label, line_len ? line_buf : "");
    line_len = 0;
    if (line_buf) {
        line_buf[0] = '\0';
    }
    fflush(stdout);
}

void cc_line(const char *fmt, ...)
{
    va_list ap;
    printf("%s ", section);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

void cc_put_string(const char *s)
{
    if (s == NULL) {
        cc_put("(nil)");
        return;
    }
    cc_put("\"");
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            cc_put("\\%c", c);
        } else if (c < 0x20 || c >= 0x7f) {
            cc_put("\\x%02x", c);
        } else {
            cc_put("%c", c);
        }
    }
    cc_put("\"");
}

static void put_bytes(const char *bytes, size_t size)
{
    cc_put("bo{size=%zu,", size);
    if (bytes == NULL) {
        cc_put("(nil)}");
        return;
    }
    for (size_t i = 0; i < size; ++i) {
        cc_put("%02x", (unsigned char)bytes[i]);
    }
    cc_put("}");
}

static void put_argv(char **argv)
{
    if (argv == NULL) {
        cc_put("(nil)");
        return;
    }
    cc_put("[");
    for (size_t i = 0; argv[i] != NULL; ++i) {
        cc_put(i ? "," : "");
        cc_put_string(argv[i]);
    }
    cc_put("]");
}

static void put_proc(const pmix_proc_t *p)
{
    cc_put("proc{");
    cc_put_string(p->nspace);
    cc_put(",%u}", p->rank);
}

static void put_coord(const pmix_coord_t *c)
{
    cc_put("coord{view=%u,dims=%zu,", c->view, c->dims);
    if (c->coord == NULL) {
        cc_put("(nil)}");
        return;
    }
    for (size_t i = 0; i < c->dims; ++i) {
        cc_put(i ? ",%u" : "%u", c->coord[i]);
    }
    cc_put("}");
}

/* A cpuset's bitmap: hwloc's list form ("0-3,8"), only when the source
 * says it is hwloc's (a NULL bitmap prints "(nil)"). */
static void put_bitmap(const void *bitmap)
{
    char *text = NULL;
    if (bitmap == NULL || hwloc_bitmap_list_asprintf(&text, (hwloc_const_bitmap_t)bitmap) < 0) {
        cc_put(",bitmap=%s", bitmap ? "unprintable" : "(nil)");
        return;
    }
    cc_put(",bitmap=\"%s\"", text);
    free(text);
}

/* A topology: its PU, core, package and NUMA counts, complete cpuset and
 * I/O object counts (when it has any), which two copies of one machine's
 * topology share. */
static void put_topology(const void *topology)
{
    if (topology == NULL) {
        cc_put(",topology=(nil)");
        return;
    }
    hwloc_topology_t t = (hwloc_topology_t)topology;
    cc_put(",topology={pu=%d,core=%d,package=%d,numa=%d", hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU),
           hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE),
           hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE),
           hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE));
    put_bitmap(hwloc_topology_get_complete_cpuset(t));
    int bridges = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_BRIDGE);
    int pcidevs = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PCI_DEVICE);
    int osdevs = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_OS_DEVICE);
    if (bridges + pcidevs + osdevs > 0) {
        cc_put(",bridge=%d,pcidev=%d,osdev=%d", bridges, pcidevs, osdevs);
    }
    cc_put("}");
}

static void put_infos(const pmix_info_t *infos, size_t n)
{
    cc_put("[");
    for (size_t i = 0; infos != NULL && i < n; ++i) {
        cc_put(i ? "," : "");
        cc_put_info(&infos[i]);
    }
    cc_put(infos == NULL ? "(nil)]" : "]");
}

static void put_darray(const pmix_data_array_t *d)
{
    cc_put("darray{type=%u,size=%zu,", d->type, d->size);
    size_t esize = cc_element_size(d->type);
    if (d->array == NULL || esize == 0) {
        cc_put(d->array == NULL ? "(nil)}" : "set}");
        return;
    }
    cc_put("[");
    for (size_t i = 0; i < d->size; ++i) {
        cc_put(i ? "," : "");
        cc_put_datum(d->type, (const char *)d->array + i * esize);
    }
    cc_put("]}");
}

static void put_struct(pmix_data_type_t type, const void *data)
{
    switch (type) {
    case PMIX_PROC: put_proc(data); break;
    case PMIX_VALUE: cc_put_value(data); break;
    case PMIX_INFO: cc_put_info(data); break;
    case PMIX_DATA_ARRAY: put_darray(data); break;
    case PMIX_COORD: put_coord(data); break;
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
    case PMIX_COMPRESSED_BYTE_OBJECT:
    case PMIX_REGEX: {
        const pmix_byte_object_t *bo = data;
        put_bytes(bo->bytes, bo->size);
        break;
    }
    case PMIX_PDATA: {
        const pmix_pdata_t *pd = data;
        cc_put("pdata{");
        put_proc(&pd->proc);
        cc_put(",");
        cc_put_string(pd->key);
        cc_put(",");
        cc_put_value(&pd->value);
        cc_put("}");
        break;
    }
    case PMIX_PROC_INFO: {
        const pmix_proc_info_t *pi = data;
        cc_put("pinfo{");
        put_proc(&pi->proc);
        cc_put(",");
        cc_put_string(pi->hostname);
        cc_put(",");
        cc_put_string(pi->executable_name);
        cc_put(",pid=%d,exit=%d,state=%u}", (int)pi->pid, pi->exit_code, pi->state);
        break;
    }
    case PMIX_ENVAR: {
        const pmix_envar_t *e = data;
        cc_put("envar{");
        cc_put_string(e->envar);
        cc_put(",");
        cc_put_string(e->value);
        cc_put(",sep=%d}", e->separator);
        break;
    }
    case PMIX_APP: {
        const pmix_app_t *a = data;
        cc_put("app{");
        cc_put_string(a->cmd);
        cc_put(",argv=");
        put_argv(a->argv);
        cc_put(",env=");
        put_argv(a->env);
        cc_put(",cwd=");
        cc_put_string(a->cwd);
        cc_put(",maxprocs=%d,ninfo=%zu,", a->maxprocs, a->ninfo);
        put_infos(a->info, a->ninfo);
        cc_put("}");
        break;
    }
    case PMIX_QUERY: {
        const pmix_query_t *q = data;
        cc_put("query{keys=");
        put_argv(q->keys);
        cc_put(",nqual=%zu,", q->nqual);
        put_infos(q->qualifiers, q->nqual);
        cc_put("}");
        break;
    }
    case PMIX_REGATTR: {
        const pmix_regattr_t *r = data;
        cc_put("regattr{");
        cc_put_string(r->name);
        cc_put(",");
        cc_put_string(r->string);
        cc_put(",type=%u,descr=", r->type);
        put_argv(r->description);
        cc_put("}");
        break;
    }
    case PMIX_PROC_CPUSET: {
        const pmix_cpuset_t *c = data;
        cc_put("cpuset{");
        cc_put_string(c->source);
        put_bitmap(c->bitmap);
        cc_put("}");
        break;
    }
    case PMIX_TOPO: {
        const pmix_topology_t *t = data;
        cc_put("topo{");
        cc_put_string(t->source);
        put_topology(t->topology);
        cc_put("}");
        break;
    }
    case PMIX_GEOMETRY: {
        const pmix_geometry_t *g = data;
        cc_put("geometry{fabric=%zu,", g->fabric);
        cc_put_string(g->uuid);
        cc_put(",");
        cc_put_string(g->osname);
        cc_put(",ncoords=%zu,[", g->ncoords);
        for (size_t i = 0; g->coordinates != NULL && i < g->ncoords; ++i) {
            cc_put(i ? "," : "");
            put_coord(&g->coordinates[i]);
        }
        cc_put(g->coordinates == NULL ? "(nil)]}" : "]}");
        break;
    }
    case PMIX_DEVICE_DIST: {
        const pmix_device_distance_t *d = data;
        cc_put("devdist{");
        cc_put_string(d->uuid);
        cc_put(",");
        cc_put_string(d->osname);
        cc_put(",type=%llu,min=%u,max=%u}", (unsigned long long)d->type, d->mindist, d->maxdist);
        break;
    }
    case PMIX_ENDPOINT: {
        const pmix_endpoint_t *e = data;
        cc_put("endpoint{");
        cc_put_string(e->uuid);
        cc_put(",");
        cc_put_string(e->osname);
        cc_put(",");
        put_bytes(e->endpt.bytes, e->endpt.size);
        cc_put("}");
        break;
    }
    case PMIX_DATA_BUFFER: {
        const pmix_data_buffer_t *b = data;
        cc_put("dbuf{used=%zu,", b->bytes_used);
        put_bytes(b->base_ptr, b->bytes_used);
        cc_put("}");
        break;
    }
    case PMIX_PROC_STATS: {
        const pmix_proc_stats_t *s = data;
        cc_put("pstats{");
        cc_put_string(s->node);
        cc_put(",");
        put_proc(&s->proc);
        cc_put(",pid=%d,", (int)s->pid);
        cc_put_string(s->cmd);
        cc_put(",state=%d,time=%ld.%06ld,cpu=%.9g,prio=%d,threads=%u,pss=%.9g,vsize=%.9g,"
               "rss=%.9g,peak=%.9g,cpu#=%u,sample=%ld.%06ld}", s->state, (long)s->time.tv_sec,
               (long)s->time.tv_usec, s->percent_cpu, s->priority, s->num_threads, s->pss,
               s->vsize, s->rss, s->peak_vsize, s->processor, (long)s->sample_time.tv_sec,
               (long)s->sample_time.tv_usec);
        break;
    }
    case PMIX_DISK_STATS: {
        const pmix_disk_stats_t *s = data;
        cc_put("dkstats{");
        cc_put_string(s->disk);
        cc_put(",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu}",
               (unsigned long long)s->num_reads_completed, (unsigned long long)s->num_reads_merged,
               (unsigned long long)s->num_sectors_read, (unsigned long long)s->milliseconds_reading,
               (unsigned long long)s->num_writes_completed,
               (unsigned long long)s->num_writes_merged, (unsigned long long)s->num_sectors_written,
               (unsigned long long)s->milliseconds_writing,
               (unsigned long long)s->num_ios_in_progress, (unsigned long long)s->milliseconds_io,
               (unsigned long long)s->weighted_milliseconds_io);
        break;
    }
    case PMIX_NET_STATS: {
        const pmix_net_stats_t *s = data;
        cc_put("netstats{");
        cc_put_string(s->net_interface);
        cc_put(",%llu,%llu,%llu,%llu,%llu,%llu}", (unsigned long long)s->num_bytes_recvd,
               (unsigned long long)s->num_packets_recvd, (unsigned long long)s->num_recv_errs,
               (unsigned long long)s->num_bytes_sent, (unsigned long long)s->num_packets_sent,
               (unsigned long long)s->num_send_errs);
        break;
    }
    case PMIX_NODE_STATS: {
        const pmix_node_stats_t *s = data;
        cc_put("ndstats{");
        cc_put_string(s->node);
        cc_put(",la=%.9g,%.9g,%.9g,mem=%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,sample=%ld.%06ld,"
               "ndisk=%zu,nnet=%zu,[", s->la, s->la5, s->la15, s->total_mem, s->free_mem,
               s->buffers, s->cached, s->swap_cached, s->swap_total, s->swap_free, s->mapped,
               (long)s->sample_time.tv_sec, (long)s->sample_time.tv_usec, s->ndiskstats,
               s->nnetstats);
        for (size_t i = 0; s->diskstats != NULL && i < s->ndiskstats; ++i) {
            put_struct(PMIX_DISK_STATS, &s->diskstats[i]);
        }
        cc_put("],[");
        for (size_t i = 0; s->netstats != NULL && i < s->nnetstats; ++i) {
            put_struct(PMIX_NET_STATS, &s->netstats[i]);
        }
        cc_put("]}");
        break;
    }
    default:
        cc_put("<type %u not printable>", type);
    }
}

void cc_put_datum(pmix_data_type_t type, const void *data)
{
    if (data == NULL) {
        cc_put("(nil)");
        return;
    }
    switch (type) {
    case PMIX_BOOL: cc_put("%s", *(const bool *)data ? "true" : "false"); break;
    case PMIX_BYTE:
    case PMIX_UINT8:
    case PMIX_PERSIST:
    case PMIX_SCOPE:
    case PMIX_DATA_RANGE:
    case PMIX_PROC_STATE:
    case PMIX_ALLOC_DIRECTIVE:
    case PMIX_JOB_STATE:
    case PMIX_LINK_STATE:
    case PMIX_COMMAND: cc_put("%u", *(const uint8_t *)data); break;
    case PMIX_STRING: cc_put_string(*(char *const *)data); break;
    case PMIX_SIZE: cc_put("%zu", *(const size_t *)data); break;
    case PMIX_PID: cc_put("%d", (int)*(const pid_t *)data); break;
    case PMIX_INT:
    case PMIX_STATUS: cc_put("%d", *(const int *)data); break;
    case PMIX_INT8: cc_put("%d", *(const int8_t *)data); break;
    case PMIX_INT16: cc_put("%d", *(const int16_t *)data); break;
    case PMIX_INT32: cc_put("%d", (int)*(const int32_t *)data); break;
    case PMIX_INT64: cc_put("%lld", (long long)*(const int64_t *)data); break;
    case PMIX_UINT: cc_put("%u", *(const unsigned *)data); break;
    case PMIX_UINT16:
    case PMIX_DATA_TYPE:
    case PMIX_IOF_CHANNEL:
    case PMIX_LOCTYPE:
    case PMIX_STOR_ACCESS_TYPE: cc_put("%u", *(const uint16_t *)data); break;
    case PMIX_UINT32:
    case PMIX_PROC_RANK:
    case PMIX_INFO_DIRECTIVES: cc_put("%u", *(const uint32_t *)data); break;
    case PMIX_UINT64:
    case PMIX_DEVTYPE:
    case PMIX_STOR_MEDIUM:
    case PMIX_STOR_ACCESS:
    case PMIX_STOR_PERSIST:
        cc_put("%llu", (unsigned long long)*(const uint64_t *)data);
        break;
    case PMIX_FLOAT: cc_put("%.9g", *(const float *)data); break;
    case PMIX_DOUBLE: cc_put("%.17g", *(const double *)data); break;
    case PMIX_TIMEVAL: {
        const struct timeval *tv = data;
        cc_put("%ld.%06ld", (long)tv->tv_sec, (long)tv->tv_usec);
        break;
    }
    case PMIX_TIME: cc_put("%lld", (long long)*(const time_t *)data); break;
    case PMIX_POINTER: cc_put("ptr:%s", *(void *const *)data ? "set" : "(nil)"); break;
    case PMIX_PROC_NSPACE: cc_put_string(data); break;
    default: put_struct(type, data);
    }
}

bool cc_held_by_pointer(pmix_data_type_t type)
{
    static const pmix_data_type_t kTypes[] = {
        PMIX_PROC, PMIX_PROC_INFO, PMIX_DATA_ARRAY, PMIX_COORD, PMIX_TOPO, PMIX_PROC_CPUSET,
        PMIX_GEOMETRY, PMIX_DEVICE_DIST, PMIX_ENDPOINT, PMIX_DATA_BUFFER, PMIX_PROC_STATS,
        PMIX_DISK_STATS, PMIX_NET_STATS, PMIX_NODE_STATS, PMIX_PROC_NSPACE, PMIX_REGATTR,
        PMIX_APP, PMIX_QUERY, PMIX_PDATA, PMIX_INFO, PMIX_VALUE};
    for (size_t i = 0; i < sizeof kTypes / sizeof kTypes[0]; ++i) {
        if (kTypes[i] == type) {
            return true;
        }
    }
    return false;
}

void cc_put_value(const pmix_value_t *value)
{
    if (value == NULL) {
        cc_put("(nil)");
        return;
    }
    cc_put("v{%u:", value->type);
    if (value->type == PMIX_UNDEF) {
        cc_put("undef");
    } else if (value->type == PMIX_POINTER) {
        cc_put("ptr:%s", value->data.ptr ? "set" : "(nil)");
    } else if (cc_held_by_pointer(value->type)) {
        cc_put_datum(value->type, value->data.ptr);
    } else {
        cc_put_datum(value->type, &value->data);
    }
    cc_put("}");
}

void cc_put_info(const pmix_info_t *info)
{
    if (info == NULL) {
        cc_put("(nil)");
        return;
    }
    cc_put("i{");
    cc_put_string(info->key);
    cc_put(",f=%#x,", info->flags);
    cc_put_value(&info->value);
    cc_put("}");
}

size_t cc_element_size(pmix_data_type_t type)
{
    static const struct {
        pmix_data_type_t type;
        size_t size;
    } kSizes[] = {
        {PMIX_BOOL, sizeof(bool)}, {PMIX_BYTE, 1}, {PMIX_STRING, sizeof(char *)},
        {PMIX_SIZE, sizeof(size_t)}, {PMIX_PID, sizeof(pid_t)}, {PMIX_INT, sizeof(int)},
        {PMIX_INT8, 1}, {PMIX_INT16, 2}, {PMIX_INT32, 4}, {PMIX_INT64, 8},
        {PMIX_UINT, sizeof(unsigned)}, {PMIX_UINT8, 1}, {PMIX_UINT16, 2}, {PMIX_UINT32, 4},
        {PMIX_UINT64, 8}, {PMIX_FLOAT, sizeof(float)}, {PMIX_DOUBLE, sizeof(double)},
        {PMIX_TIMEVAL, sizeof(struct timeval)}, {PMIX_TIME, sizeof(time_t)},
        {PMIX_STATUS, sizeof(pmix_status_t)}, {PMIX_VALUE, sizeof(pmix_value_t)},
        {PMIX_PROC, sizeof(pmix_proc_t)}, {PMIX_APP, sizeof(pmix_app_t)},
        {PMIX_INFO, sizeof(pmix_info_t)}, {PMIX_PDATA, sizeof(pmix_pdata_t)},
        {PMIX_BYTE_OBJECT, sizeof(pmix_byte_object_t)}, {PMIX_PERSIST, 1}, {PMIX_SCOPE, 1},
        {PMIX_DATA_RANGE, 1}, {PMIX_INFO_DIRECTIVES, 4}, {PMIX_DATA_TYPE, 2},
        {PMIX_PROC_STATE, 1}, {PMIX_PROC_INFO, sizeof(pmix_proc_info_t)},
        {PMIX_DATA_ARRAY, sizeof(pmix_data_array_t)}, {PMIX_PROC_RANK, 4},
        {PMIX_QUERY, sizeof(pmix_query_t)}, {PMIX_COMPRESSED_STRING, sizeof(pmix_byte_object_t)},
        {PMIX_ALLOC_DIRECTIVE, 1}, {PMIX_IOF_CHANNEL, 2}, {PMIX_ENVAR, sizeof(pmix_envar_t)},
        {PMIX_COORD, sizeof(pmix_coord_t)}, {PMIX_REGATTR, sizeof(pmix_regattr_t)},
        {PMIX_REGEX, sizeof(pmix_byte_object_t)}, {PMIX_JOB_STATE, 1}, {PMIX_LINK_STATE, 1},
        {PMIX_PROC_CPUSET, sizeof(pmix_cpuset_t)}, {PMIX_GEOMETRY, sizeof(pmix_geometry_t)},
        {PMIX_DEVICE_DIST, sizeof(pmix_device_distance_t)},
        {PMIX_ENDPOINT, sizeof(pmix_endpoint_t)}, {PMIX_TOPO, sizeof(pmix_topology_t)},
        {PMIX_DEVTYPE, 8}, {PMIX_LOCTYPE, 2},
        {PMIX_COMPRESSED_BYTE_OBJECT, sizeof(pmix_byte_object_t)},
        {PMIX_PROC_NSPACE, sizeof(pmix_nspace_t)}, {PMIX_PROC_STATS, sizeof(pmix_proc_stats_t)},
        {PMIX_DISK_STATS, sizeof(pmix_disk_stats_t)}, {PMIX_NET_STATS, sizeof(pmix_net_stats_t)},
        {PMIX_NODE_STATS, sizeof(pmix_node_stats_t)},
        {PMIX_DATA_BUFFER, sizeof(pmix_data_buffer_t)}, {PMIX_STOR_MEDIUM, 8},
        {PMIX_STOR_ACCESS, 8}, {PMIX_STOR_PERSIST, 8}, {PMIX_STOR_ACCESS_TYPE, 2},
    };
    for (size_t i = 0; i < sizeof kSizes / sizeof kSizes[0]; ++i) {
        if (kSizes[i].type == type) {
            return kSizes[i].size;
        }
    }
    return 0;
}
