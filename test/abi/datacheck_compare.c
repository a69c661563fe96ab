/*
 * Data round-trip check: field-by-field comparison of two elements of a
 * type. Written for this test (it does not use PMIx_Value_compare or any
 * other library function), so a library cannot pass by agreeing with itself.
 *
 * Conventions: floating point numbers must come back bit for bit; a NULL
 * argv equals an empty one (both mean "no entries"); a byte object of size 0
 * equals any other of size 0, whatever its pointer; strings must match
 * exactly, NULL included.
 */
#include "datacheck_compare.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static char why[1024];

const char *dc_why(void)
{
    return why;
}

/* path + field: "app" + "argv[1]" -> "app.argv[1]"; "" + "x" -> "x". */
const char *join(const char *path, const char *field, char *buf, size_t size)
{
    if (field[0] == '\0') {
        snprintf(buf, size, "%s", path);
    } else if (path[0] == '\0' || field[0] == '[') {
        snprintf(buf, size, "%s%s", path, field);
    } else {
        snprintf(buf, size, "%s.%s", path, field);
    }
    return buf;
}

bool differ(const char *path, const char *field, const char *fmt, ...)
{
    char where[256];
    join(path, field, where, sizeof where);
    int n = snprintf(why, sizeof why, "%s: ", where[0] == '\0' ? "element" : where);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why + n, sizeof why - (size_t)n, fmt, ap);
    va_end(ap);
    return false;
}

/* A short printable rendering of a string for messages. */
static const char *show(const char *s, char *buf, size_t size)
{
    if (s == NULL) {
        return "NULL";
    }
    size_t len = strlen(s);
    snprintf(buf, size, "\"%.40s%s\" (%zu chars)", s, len > 40 ? "..." : "", len);
    return buf;
}

bool eq_str(const char *path, const char *field, const char *w, const char *g)
{
    char a[96], b[96];
    if ((w == NULL) != (g == NULL) || (w != NULL && strcmp(w, g) != 0)) {
        return differ(path, field, "want %s, got %s", show(w, a, sizeof a), show(g, b, sizeof b));
    }
    return true;
}

bool eq_fixed(const char *path, const char *field, const char *w, const char *g,
                     size_t max)
{
    char a[96], b[96], ws[PMIX_MAX_NSLEN + 2], gs[PMIX_MAX_NSLEN + 2];
    if (strncmp(w, g, max + 1) != 0) {
        snprintf(ws, sizeof ws, "%.*s", (int)max, w);
        snprintf(gs, sizeof gs, "%.*s", (int)max, g);
        return differ(path, field, "want %s, got %s", show(ws, a, sizeof a), show(gs, b, sizeof b));
    }
    return true;
}

bool eq_u64(const char *path, const char *field, uint64_t w, uint64_t g)
{
    return w == g || differ(path, field, "want %" PRIu64 ", got %" PRIu64, w, g);
}

bool eq_i64(const char *path, const char *field, int64_t w, int64_t g)
{
    return w == g || differ(path, field, "want %" PRId64 ", got %" PRId64, w, g);
}

bool eq_float(const char *path, const char *field, float w, float g)
{
    return memcmp(&w, &g, sizeof w) == 0 || differ(path, field, "want %.9g, got %.9g", w, g);
}

bool eq_double(const char *path, const char *field, double w, double g)
{
    return memcmp(&w, &g, sizeof w) == 0 || differ(path, field, "want %.17g, got %.17g", w, g);
}

bool eq_tv(const char *path, const char *field, struct timeval w, struct timeval g)
{
    if (w.tv_sec != g.tv_sec || w.tv_usec != g.tv_usec) {
        return differ(path, field, "want {%ld, %ld}, got {%ld, %ld}", (long)w.tv_sec,
                      (long)w.tv_usec, (long)g.tv_sec, (long)g.tv_usec);
    }
    return true;
}

bool eq_bytes(const char *path, const char *field, const char *wb, size_t ws,
                     const char *gb, size_t gs)
{
    if (ws != gs) {
        return differ(path, field, "want %zu bytes, got %zu", ws, gs);
    }
    if (ws > 0 && gb == NULL) {
        return differ(path, field, "want %zu bytes, got a NULL pointer", ws);
    }
    for (size_t i = 0; i < ws; ++i) {
        if (wb[i] != gb[i]) {
            return differ(path, field, "byte %zu: want 0x%02x, got 0x%02x", i,
                          (unsigned char)wb[i], (unsigned char)gb[i]);
        }
    }
    return true;
}

static size_t argc_of(char *const *argv)
{
    size_t n = 0;
    while (argv != NULL && argv[n] != NULL) {
        ++n;
    }
    return n;
}

bool eq_argv(const char *path, const char *field, char *const *w, char *const *g)
{
    size_t n = argc_of(w);
    if (argc_of(g) != n) {
        return differ(path, field, "want %zu entries, got %zu", n, argc_of(g));
    }
    char where[256], item[32];
    join(path, field, where, sizeof where);
    for (size_t i = 0; i < n; ++i) {
        snprintf(item, sizeof item, "[%zu]", i);
        if (!eq_str(where, item, w[i], g[i])) {
            return false;
        }
    }
    return true;
}

/* n elements of `type` at w and g. */
bool eq_elements(const char *path, const char *field, pmix_data_type_t type,
                        const void *w, const void *g, size_t n)
{
    const dc_type_t *t = dc_find_type(type);
    if (n > 0 && t == NULL) {
        return differ(path, field, "the test cannot compare elements of type %u", type);
    }
    if (n > 0 && (w == NULL || g == NULL)) {
        return differ(path, field, "want %zu elements, got a NULL array", n);
    }
    char where[256], item[300];
    join(path, field, where, sizeof where);
    for (size_t i = 0; i < n; ++i) {
        snprintf(item, sizeof item, "%s[%zu]", where, i);
        if (!dc_equal(type, item, (const char *)w + i * t->size, (const char *)g + i * t->size)) {
            return false;
        }
    }
    return true;
}

static bool eq_proc(const char *path, const pmix_proc_t *w, const pmix_proc_t *g)
{
    if (!eq_fixed(path, "nspace", w->nspace, g->nspace, PMIX_MAX_NSLEN)) return false;
    UNS(rank);
    return true;
}

static bool eq_value(const char *path, const pmix_value_t *w, const pmix_value_t *g)
{
    char sub[256];
    UNS(type);
    if (w->type == PMIX_UNDEF) {
        return true;
    }
    if (w->type == PMIX_REGEX) {  /* held as a byte object */
        return eq_bytes(path, "data.bo", w->data.bo.bytes, w->data.bo.size, g->data.bo.bytes,
                        g->data.bo.size);
    }
    if (!dc_boxed(w->type)) {
        return dc_equal(w->type, join(path, "data", sub, sizeof sub), &w->data, &g->data);
    }
    if ((w->data.ptr == NULL) != (g->data.ptr == NULL)) {
        return differ(path, "data", "want %s pointer, got %s", w->data.ptr ? "a" : "a NULL",
                      g->data.ptr ? "one" : "NULL");
    }
    return w->data.ptr == NULL ||
           dc_equal(w->type, join(path, "data", sub, sizeof sub), w->data.ptr, g->data.ptr);
}

static bool eq_info(const char *path, const pmix_info_t *w, const pmix_info_t *g)
{
    char sub[256];
    KEY(key);
    UNS(flags);
    SUB(PMIX_VALUE, value);
    return true;
}

static bool eq_pdata(const char *path, const pmix_pdata_t *w, const pmix_pdata_t *g)
{
    char sub[256];
    SUB(PMIX_PROC, proc);
    KEY(key);
    SUB(PMIX_VALUE, value);
    return true;
}

static bool eq_app(const char *path, const pmix_app_t *w, const pmix_app_t *g)
{
    STR(cmd);
    ARGV(argv);
    ARGV(env);
    STR(cwd);
    SGN(maxprocs);
    ARRAY(PMIX_INFO, info, ninfo);
    return true;
}

static bool eq_query(const char *path, const pmix_query_t *w, const pmix_query_t *g)
{
    ARGV(keys);
    ARRAY(PMIX_INFO, qualifiers, nqual);
    return true;
}

static bool eq_darray(const char *path, const pmix_data_array_t *w, const pmix_data_array_t *g)
{
    UNS(type);
    ARRAY(w->type, array, size);
    return true;
}

#define AS(T) (const T *)w, (const T *)g

/* Scalars: a switch on the C type of each PMIx type. */
static bool eq_scalar(pmix_data_type_t type, const char *path, const void *w, const void *g,
                      bool *handled)
{
    *handled = true;
#define U(T) return eq_u64(path, "", *(const T *)w, *(const T *)g)
#define S(T) return eq_i64(path, "", *(const T *)w, *(const T *)g)
    switch (type) {
    case PMIX_BOOL: U(bool);
    case PMIX_BYTE: case PMIX_UINT8: case PMIX_PERSIST: case PMIX_SCOPE: case PMIX_DATA_RANGE:
    case PMIX_COMMAND: case PMIX_PROC_STATE: case PMIX_ALLOC_DIRECTIVE: case PMIX_JOB_STATE:
    case PMIX_LINK_STATE: U(uint8_t);
    case PMIX_UINT16: case PMIX_DATA_TYPE: case PMIX_IOF_CHANNEL: case PMIX_LOCTYPE:
    case PMIX_STOR_ACCESS_TYPE: U(uint16_t);
    case PMIX_UINT32: case PMIX_INFO_DIRECTIVES: case PMIX_PROC_RANK: U(uint32_t);
    case PMIX_UINT64: case PMIX_DEVTYPE: case PMIX_STOR_MEDIUM: case PMIX_STOR_ACCESS:
    case PMIX_STOR_PERSIST: U(uint64_t);
    case PMIX_SIZE: U(size_t);
    case PMIX_UINT: U(unsigned);
    case PMIX_INT8: S(int8_t);
    case PMIX_INT16: S(int16_t);
    case PMIX_INT32: case PMIX_STATUS: S(int32_t);
    case PMIX_INT64: S(int64_t);
    case PMIX_INT: S(int);
    case PMIX_PID: S(pid_t);
    case PMIX_TIME: S(time_t);
    case PMIX_FLOAT: return eq_float(path, "", *(const float *)w, *(const float *)g);
    case PMIX_DOUBLE: return eq_double(path, "", *(const double *)w, *(const double *)g);
    case PMIX_TIMEVAL:
        return eq_tv(path, "", *(const struct timeval *)w, *(const struct timeval *)g);
    default:
        *handled = false;
        return false;
    }
#undef U
#undef S
}

bool dc_equal(pmix_data_type_t type, const char *path, const void *w, const void *g)
{
    bool handled;
    bool same = eq_scalar(type, path, w, g, &handled);
    if (!handled) {
        same = dc_equal_struct(type, path, w, g, &handled);
    }
    if (handled) {
        return same;
    }
    switch (type) {
    case PMIX_STRING: case PMIX_REGEX:
        return eq_str(path, "", *(char *const *)w, *(char *const *)g);
    case PMIX_PROC_NSPACE: return eq_fixed(path, "", w, g, PMIX_MAX_NSLEN);
    case PMIX_BYTE_OBJECT: case PMIX_COMPRESSED_STRING: case PMIX_COMPRESSED_BYTE_OBJECT: {
        const pmix_byte_object_t *a = w, *b = g;
        return eq_bytes(path, "", a->bytes, a->size, b->bytes, b->size);
    }
    case PMIX_PROC: return eq_proc(path, AS(pmix_proc_t));
    case PMIX_VALUE: return eq_value(path, AS(pmix_value_t));
    case PMIX_INFO: return eq_info(path, AS(pmix_info_t));
    case PMIX_PDATA: return eq_pdata(path, AS(pmix_pdata_t));
    case PMIX_APP: return eq_app(path, AS(pmix_app_t));
    case PMIX_QUERY: return eq_query(path, AS(pmix_query_t));
    case PMIX_DATA_ARRAY: return eq_darray(path, AS(pmix_data_array_t));
    default:
        return differ(path, "", "the test cannot compare type %u", type);
    }
}
