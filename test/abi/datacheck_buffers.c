/*
 * Data round-trip check: the buffer sections.
 *
 *   sequence      samples of many types packed one group after another into
 *                 one buffer, unpacked in the same order;
 *   wrong_type    unpacking with another type than was packed must fail;
 *   count         the count argument of PMIx_Data_unpack and PMIx_Data_pack;
 *   copy_payload  PMIx_Data_copy_payload appends the unread part of one
 *                 buffer to another and leaves the source intact;
 *   unload_load   PMIx_Data_unload hands out the unread part of a buffer as
 *                 a byte object, PMIx_Data_load makes a buffer of it again.
 */
#include "datacheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* One group of samples of a type, packed into a buffer. */
typedef struct {
    const dc_type_t *t;
    char *want;
    size_t *index;
    size_t n;
} group_t;

static group_t pack_group(const char *prefix, pmix_data_buffer_t *buf, pmix_data_type_t type)
{
    group_t g = {dc_find_type(type), NULL, NULL, 0};
    char key[256];
    g.index = calloc(g.t->count + 1, sizeof *g.index);
    g.want = dc_gather(g.t, prefix, g.index, &g.n);
    pmix_status_t rc = PMIx_Data_pack(NULL, buf, g.want, (int32_t)g.n, type);
    snprintf(key, sizeof key, "%s%s.pack", prefix, g.t->name);
    dc_check(key, rc == PMIX_SUCCESS, "rc=%d (%zu values)", rc, g.n);
    return g;
}

static void unpack_group(const char *prefix, pmix_data_buffer_t *buf, const group_t *g)
{
    dc_unpack_and_compare(g->t, prefix, g->t->name, buf, g->want, g->index, g->n);
}

static void free_group(group_t *g)
{
    free(g->want);
    free(g->index);
}

static void sequence(void)
{
    static const pmix_data_type_t kTypes[] = {
        PMIX_INT32, PMIX_STRING, PMIX_BOOL, PMIX_PROC, PMIX_BYTE_OBJECT, PMIX_ENVAR,
        PMIX_INFO, PMIX_APP, PMIX_QUERY, PMIX_DATA_ARRAY, PMIX_VALUE, PMIX_UINT64, PMIX_DOUBLE,
        PMIX_PROC_RANK};
    group_t groups[N(kTypes)];
    pmix_data_buffer_t *buf;
    PMIX_DATA_BUFFER_CREATE(buf);
    for (size_t k = 0; k < N(kTypes); ++k) {
        groups[k] = pack_group("sequence.", buf, kTypes[k]);
    }
    for (size_t k = 0; k < N(kTypes); ++k) {
        unpack_group("sequence.", buf, &groups[k]);
        free_group(&groups[k]);
    }
    dc_check_drained(dc_find_type(PMIX_INT32), "sequence.drained", buf);
    PMIX_DATA_BUFFER_RELEASE(buf);
}

/* Packs sample 0 of `packed` and unpacks one element as `as`. */
static void wrong_type(const char *name, pmix_data_type_t packed, pmix_data_type_t as)
{
    char key[256];
    snprintf(key, sizeof key, "wrong_type.%s", name);
    if (dc_skip(key)) {
        return;
    }
    const dc_type_t *p = dc_find_type(packed), *u = dc_find_type(as);
    pmix_data_buffer_t *buf;
    PMIX_DATA_BUFFER_CREATE(buf);
    pmix_status_t rc = PMIx_Data_pack(NULL, buf, dc_sample(p, 0), 1, packed);
    if (rc != PMIX_SUCCESS) {
        dc_check(key, false, "packing the %s failed: rc=%d", p->name, rc);
    } else {
        void *got = calloc(1, u->size);
        int32_t count = 1;
        rc = PMIx_Data_unpack(NULL, buf, got, &count, as);
        dc_check(key, rc != PMIX_SUCCESS, "a %s unpacked as %s succeeded", p->name, u->name);
        if (rc == PMIX_SUCCESS) {
            dc_destruct(as, got);
        }
        free(got);
    }
    PMIX_DATA_BUFFER_RELEASE(buf);
}

static void wrong_types(void)
{
    static const struct {
        const char *name;
        pmix_data_type_t packed, as;
    } kCases[] = {
        {"int32_as_string", PMIX_INT32, PMIX_STRING},
        {"string_as_int32", PMIX_STRING, PMIX_INT32},
        {"int64_as_int32", PMIX_INT64, PMIX_INT32},
        {"uint16_as_uint32", PMIX_UINT16, PMIX_UINT32},
        {"bool_as_byte", PMIX_BOOL, PMIX_BYTE},
        {"proc_as_info", PMIX_PROC, PMIX_INFO},
        {"info_as_proc", PMIX_INFO, PMIX_PROC},
        {"value_as_info", PMIX_VALUE, PMIX_INFO},
        {"data_array_as_value", PMIX_DATA_ARRAY, PMIX_VALUE},
        {"byte_object_as_string", PMIX_BYTE_OBJECT, PMIX_STRING},
        {"app_as_query", PMIX_APP, PMIX_QUERY},
    };
    for (size_t i = 0; i < N(kCases); ++i) {
        wrong_type(kCases[i].name, kCases[i].packed, kCases[i].as);
    }
}

/* The int32 samples, packed into a new buffer. */
static pmix_data_buffer_t *packed_int32s(size_t *n)
{
    const dc_type_t *t = dc_find_type(PMIX_INT32);
    pmix_data_buffer_t *buf;
    PMIX_DATA_BUFFER_CREATE(buf);
    *n = t->count;
    if (PMIx_Data_pack(NULL, buf, t->array, (int32_t)t->count, PMIX_INT32) != PMIX_SUCCESS) {
        *n = 0;
    }
    return buf;
}

/* Unpacking with room for more values than were packed gives the packed
 * ones; with room for fewer, or none, fails. */
static void counts(void)
{
    size_t n;
    pmix_data_buffer_t *buf = packed_int32s(&n);
    int32_t got[16] = {0}, count = 16;
    pmix_status_t rc = PMIx_Data_unpack(NULL, buf, got, &count, PMIX_INT32);
    const dc_type_t *t = dc_find_type(PMIX_INT32);
    dc_check("count.larger", n > 0 && rc == PMIX_SUCCESS && count == (int32_t)n &&
                                 memcmp(got, t->array, n * sizeof got[0]) == 0,
             "rc=%d count=%d (want %zu values, as packed)", rc, count, n);
    PMIX_DATA_BUFFER_RELEASE(buf);
    if (!dc_skip("count.smaller")) {
        buf = packed_int32s(&n);
        count = (int32_t)n - 1;
        rc = PMIx_Data_unpack(NULL, buf, got, &count, PMIX_INT32);
        dc_check("count.smaller", n > 0 && rc != PMIX_SUCCESS, "rc=%d count=%d", rc, count);
        PMIX_DATA_BUFFER_RELEASE(buf);
    }
    buf = packed_int32s(&n);
    count = 0;
    rc = PMIx_Data_unpack(NULL, buf, got, &count, PMIX_INT32);
    dc_check("count.zero", n > 0 && rc != PMIX_SUCCESS, "rc=%d count=%d", rc, count);
    rc = PMIx_Data_pack(NULL, buf, got, -1, PMIX_INT32);
    dc_check("count.pack_negative", rc != PMIX_SUCCESS, "rc=%d", rc);
    PMIX_DATA_BUFFER_RELEASE(buf);
    PMIX_DATA_BUFFER_CREATE(buf);
    count = 1;
    rc = PMIx_Data_unpack(NULL, buf, got, &count, PMIX_INT32);
    dc_check("count.empty_buffer", rc != PMIX_SUCCESS, "rc=%d count=%d", rc, count);
    PMIX_DATA_BUFFER_RELEASE(buf);
}

/* src holds int32s (read), strings, procs; dest holds uint8s. After the copy,
 * dest yields uint8s, strings, procs and src still yields strings, procs. */
static void copy_payload(void)
{
    pmix_data_buffer_t *src, *dest;
    PMIX_DATA_BUFFER_CREATE(src);
    PMIX_DATA_BUFFER_CREATE(dest);
    group_t ints = pack_group("copy_payload.src.", src, PMIX_INT32);
    group_t strings = pack_group("copy_payload.src.", src, PMIX_STRING);
    group_t procs = pack_group("copy_payload.src.", src, PMIX_PROC);
    group_t bytes = pack_group("copy_payload.dest.", dest, PMIX_UINT8);
    unpack_group("copy_payload.src.", src, &ints);
    size_t before = dest->bytes_used;
    pmix_status_t rc = PMIx_Data_copy_payload(dest, src);
    dc_check("copy_payload.rc", rc == PMIX_SUCCESS, "rc=%d", rc);
    dc_check("copy_payload.grown", dest->bytes_used > before, "dest has %zu bytes, had %zu",
             dest->bytes_used, before);
    unpack_group("copy_payload.dest.", dest, &bytes);
    unpack_group("copy_payload.dest.", dest, &strings);
    unpack_group("copy_payload.dest.", dest, &procs);
    dc_check_drained(procs.t, "copy_payload.dest.drained", dest);
    unpack_group("copy_payload.src_after.", src, &strings);
    unpack_group("copy_payload.src_after.", src, &procs);
    dc_check_drained(procs.t, "copy_payload.src_after.drained", src);
    PMIX_DATA_BUFFER_RELEASE(src);
    /* an empty source adds nothing */
    PMIX_DATA_BUFFER_CREATE(src);
    before = dest->bytes_used;
    rc = PMIx_Data_copy_payload(dest, src);
    dc_check("copy_payload.empty_source", rc == PMIX_SUCCESS && dest->bytes_used == before,
             "rc=%d, dest has %zu bytes, had %zu", rc, dest->bytes_used, before);
    PMIX_DATA_BUFFER_RELEASE(src);
    PMIX_DATA_BUFFER_RELEASE(dest);
    free_group(&ints);
    free_group(&strings);
    free_group(&procs);
    free_group(&bytes);
}

/* buf holds strings (read), infos, int32s; its unread part is unloaded into
 * a byte object and loaded into a second buffer, which yields infos, int32s. */
static void unload_load(void)
{
    pmix_data_buffer_t *buf, *again;
    PMIX_DATA_BUFFER_CREATE(buf);
    group_t strings = pack_group("unload_load.", buf, PMIX_STRING);
    group_t infos = pack_group("unload_load.", buf, PMIX_INFO);
    group_t ints = pack_group("unload_load.", buf, PMIX_INT32);
    unpack_group("unload_load.first.", buf, &strings);
    pmix_byte_object_t bo = PMIX_BYTE_OBJECT_STATIC_INIT;
    pmix_status_t rc = PMIx_Data_unload(buf, &bo);
    dc_check("unload_load.unload", rc == PMIX_SUCCESS && bo.bytes != NULL && bo.size > 0,
             "rc=%d, %zu bytes", rc, bo.size);
    dc_check_drained(ints.t, "unload_load.unloaded_buffer_empty", buf);
    PMIX_DATA_BUFFER_CREATE(again);
    rc = PMIx_Data_load(again, &bo);
    dc_check("unload_load.load", rc == PMIX_SUCCESS && bo.bytes == NULL && bo.size == 0,
             "rc=%d, byte object left with %zu bytes", rc, bo.size);
    unpack_group("unload_load.loaded.", again, &infos);
    unpack_group("unload_load.loaded.", again, &ints);
    dc_check_drained(ints.t, "unload_load.loaded.drained", again);
    PMIX_BYTE_OBJECT_DESTRUCT(&bo);
    PMIX_DATA_BUFFER_RELEASE(again);
    PMIX_DATA_BUFFER_RELEASE(buf);
    free_group(&strings);
    free_group(&infos);
    free_group(&ints);
}

void dc_buffer_section(const char *name)
{
    static const struct {
        const char *name;
        void (*run)(void);
    } kSections[] = {{"sequence", sequence},         {"wrong_type", wrong_types},
                     {"count", counts},              {"copy_payload", copy_payload},
                     {"unload_load", unload_load}};
    for (size_t i = 0; i < N(kSections); ++i) {
        if (strcmp(kSections[i].name, name) == 0) {
            kSections[i].run();
        }
    }
}
