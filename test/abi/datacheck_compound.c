/*
 * Data round-trip check: the samples of the compound types, made at run time
 * from the samples of the other types so that every type appears inside them:
 *
 *   value       one per sample of every type a value can hold, an undefined
 *               value, a boxed type with a NULL pointer, nested data arrays;
 *   info        one per value (keys of every length up to PMIX_MAX_KEYLEN);
 *   pdata, app, query   a few each, with NULL and empty fields;
 *   data_array  one per element type (all samples of that type), empty
 *               arrays, arrays of arrays two and three levels deep.
 *
 * Everything is built by hand (never through the library under test), and
 * lives until the process exits.
 */
#include "datacheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool dc_boxed(pmix_data_type_t type)
{
    switch (type) {
    case PMIX_PROC: case PMIX_PROC_INFO: case PMIX_DATA_ARRAY: case PMIX_COORD:
    case PMIX_REGATTR: case PMIX_PROC_CPUSET: case PMIX_GEOMETRY: case PMIX_DEVICE_DIST:
    case PMIX_ENDPOINT: case PMIX_TOPO: case PMIX_PROC_NSPACE: case PMIX_PROC_STATS:
    case PMIX_DISK_STATS: case PMIX_NET_STATS: case PMIX_NODE_STATS: case PMIX_DATA_BUFFER:
        return true;
    default:
        return false;
    }
}

bool dc_value_storable(pmix_data_type_t type)
{
    return type != PMIX_VALUE && type != PMIX_INFO && type != PMIX_PDATA && type != PMIX_APP &&
           type != PMIX_QUERY;
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n == 0 ? 1 : n, size);
    if (p == NULL) {
        fprintf(stderr, "datacheck: out of memory\n");
        exit(2);
    }
    return p;
}

static const char *label2(const char *a, const char *b)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s.%s", a, b);
    return strdup(buf);
}

/* A value holding `element` of `type`, made by hand. A regular expression is
 * held as a byte object (the string with its NUL), as pmix_value_t stores it. */
static void value_set(pmix_value_t *v, pmix_data_type_t type, void *element)
{
    memset(v, 0, sizeof *v);
    v->type = type;
    if (type == PMIX_REGEX) {
        char *regex = *(char **)element;
        v->data.bo.bytes = regex;
        v->data.bo.size = strlen(regex) + 1;
    } else if (dc_boxed(type)) {
        v->data.ptr = element;
    } else {
        const dc_type_t *t = dc_type_slot(type);
        memcpy(&v->data, element, t->size);
    }
}

/* Growing sample lists for the run-time types. */
typedef struct {
    dc_type_t *slot;
    size_t capacity;
} list_t;

static list_t open_list(pmix_data_type_t type, size_t capacity)
{
    list_t l = {dc_type_slot(type), capacity};
    l.slot->array = xcalloc(capacity, l.slot->size);
    l.slot->labels = xcalloc(capacity, sizeof(char *));
    l.slot->count = 0;
    return l;
}

/* Appends a zeroed element labelled `label`; returns it for filling. */
static void *add(list_t *l, const char *label)
{
    if (l->slot->count == l->capacity) {
        fprintf(stderr, "datacheck: too many %s samples\n", l->slot->name);
        exit(2);
    }
    l->slot->labels[l->slot->count] = label;
    return dc_sample(l->slot, l->slot->count++);
}

static bool is_compound(pmix_data_type_t type)
{
    return !dc_value_storable(type) || type == PMIX_DATA_ARRAY;
}

/* Data arrays of every simple and struct type, holding all its samples, and
 * empty arrays. */
static void add_element_arrays(list_t *arrays)
{
    /* the table lists the simple and struct types first, from PMIX_BOOL on */
    for (dc_type_t *t = dc_type_slot(PMIX_BOOL); !is_compound(t->type); ++t) {
        pmix_data_array_t *a = add(arrays, t->name);
        a->type = t->type;
        a->size = t->count;
        a->array = t->array;
    }
    pmix_data_array_t *e = add(arrays, "empty.uint32");
    e->type = PMIX_UINT32;
    e = add(arrays, "empty.info");
    e->type = PMIX_INFO;
    e = add(arrays, "empty.data_array");
    e->type = PMIX_DATA_ARRAY;
}

static void build_values(list_t *values, const dc_type_t *arrays, size_t narrays)
{
    for (dc_type_t *t = dc_type_slot(PMIX_BOOL); !is_compound(t->type); ++t) {
        for (size_t i = 0; i < t->count; ++i) {
            value_set(add(values, label2(t->name, dc_label(t, i))), t->type, dc_sample(t, i));
        }
    }
    for (size_t i = 0; i < narrays; ++i) {
        pmix_data_array_t *a = dc_sample(arrays, i);
        value_set(add(values, label2("data_array", arrays->labels[i])), PMIX_DATA_ARRAY, a);
    }
    add(values, "undef");  /* PMIX_UNDEF, all zero */
    pmix_value_t *v = add(values, "proc.null_pointer");
    v->type = PMIX_PROC;
}

static void build_infos(list_t *infos, const dc_type_t *values)
{
    static const pmix_info_directives_t flags[] = {0, PMIX_INFO_REQD, PMIX_INFO_REQD_PROCESSED,
                                                   PMIX_INFO_ARRAY_END};
    for (size_t i = 0; i < values->count; ++i) {
        pmix_info_t *info = add(infos, values->labels[i]);
        snprintf(info->key, sizeof info->key, "dc.%s", values->labels[i]);
        info->flags = flags[i % 4];
        info->value = *(pmix_value_t *)dc_sample(values, i);
    }
    pmix_info_t *info = add(infos, "max_key");
    memset(info->key, 'k', PMIX_MAX_KEYLEN);
    info->value.type = PMIX_INT;
    info->value.data.integer = 1;
    info = add(infos, "empty_key");
    info->value.type = PMIX_STRING;
    info->value.data.string = "value of an empty key";
}

/* pdata, apps and queries: `infos` holds at least 3 infos for their fields. */
static pmix_info_t *some_infos;

/* A value holding an array of all infos (infos inside values inside infos). */
static void add_nested_value(list_t *values, const dc_type_t *infos)
{
    static pmix_data_array_t all_infos;
    all_infos = (pmix_data_array_t){PMIX_INFO, infos->count, infos->array};
    value_set(add(values, "data_array.infos"), PMIX_DATA_ARRAY, &all_infos);
}

static void build_pdata(list_t *pdata, const dc_type_t *values)
{
    pmix_pdata_t *p = add(pdata, "int");
    PMIX_LOAD_PROCID(&p->proc, "ns.pd", 2);
    strcpy(p->key, "dc.pdata");
    p->value.type = PMIX_INT;
    p->value.data.integer = -2;
    p = add(pdata, "string");
    p->proc.rank = PMIX_RANK_WILDCARD;
    memset(p->key, 'p', PMIX_MAX_KEYLEN);
    p->value.type = PMIX_STRING;
    p->value.data.string = "published";
    add(pdata, "undef");
    p = add(pdata, "nested");
    PMIX_LOAD_PROCID(&p->proc, "ns.pd", PMIX_RANK_UNDEF);
    strcpy(p->key, "dc.nested");
    p->value = *(pmix_value_t *)dc_sample(values, values->count - 1);  /* the nested one */
}

static void build_apps(list_t *apps)
{
    static char *argv[] = {"a.out", "-x", "", NULL};
    static char *env[] = {"A=1", "B=", NULL};
    static char *empty[] = {NULL};
    pmix_app_t *a = add(apps, "full");
    *a = (pmix_app_t){"a.out", argv, env, "/tmp", 4, some_infos, 3};
    add(apps, "nulls");
    a = add(apps, "empty");
    *a = (pmix_app_t){"", empty, empty, "", -1, NULL, 0};
}

static void build_queries(list_t *queries)
{
    static char *keys[] = {PMIX_QUERY_NAMESPACES, PMIX_QUERY_PROC_TABLE, NULL};
    static char *one[] = {"", NULL};
    pmix_query_t *q = add(queries, "full");
    *q = (pmix_query_t){keys, some_infos, 2};
    add(queries, "nulls");
    q = add(queries, "empty_key");
    *q = (pmix_query_t){one, NULL, 0};
}

/* Arrays of the compound types and arrays of arrays. */
static void add_compound_arrays(list_t *arrays, size_t nelement_arrays)
{
    static const pmix_data_type_t kinds[] = {PMIX_VALUE, PMIX_INFO, PMIX_PDATA, PMIX_APP,
                                             PMIX_QUERY};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) {
        const dc_type_t *t = dc_type_slot(kinds[k]);
        pmix_data_array_t *a = add(arrays, t->name);
        *a = (pmix_data_array_t){t->type, t->count, t->array};
    }
    /* two levels: the arrays of every element type; three levels: an array
     * holding that one and an empty array */
    pmix_data_array_t *two = add(arrays, "nested2");
    *two = (pmix_data_array_t){PMIX_DATA_ARRAY, nelement_arrays, arrays->slot->array};
    static pmix_data_array_t level3[2];
    level3[0] = *two;
    level3[1] = (pmix_data_array_t){PMIX_STRING, 0, NULL};
    pmix_data_array_t *three = add(arrays, "nested3");
    *three = (pmix_data_array_t){PMIX_DATA_ARRAY, 2, level3};
}

void dc_build_compound(void)
{
    list_t arrays = open_list(PMIX_DATA_ARRAY, 128);
    add_element_arrays(&arrays);
    size_t nelement_arrays = arrays.slot->count;
    list_t values = open_list(PMIX_VALUE, 512);
    build_values(&values, arrays.slot, nelement_arrays);
    list_t infos = open_list(PMIX_INFO, 512);
    build_infos(&infos, values.slot);
    some_infos = infos.slot->array;
    add_nested_value(&values, infos.slot);
    list_t pdata = open_list(PMIX_PDATA, 8);
    build_pdata(&pdata, values.slot);
    list_t apps = open_list(PMIX_APP, 8);
    build_apps(&apps);
    list_t queries = open_list(PMIX_QUERY, 8);
    build_queries(&queries);
    add_compound_arrays(&arrays, nelement_arrays);
}
