/*
 * Data round-trip check: the comparison helpers shared by
 * datacheck_compare.c and datacheck_compare_structs.c. Each eq_* compares
 * one field (`field` of the element at `path`); on a mismatch it records the
 * difference for dc_why() and returns false.
 */
#ifndef PMIXX_TEST_ABI_DATACHECK_COMPARE_H
#define PMIXX_TEST_ABI_DATACHECK_COMPARE_H

#include "datacheck.h"

#include <stdint.h>
#include <sys/time.h>

/* path + field: "app" + "argv[1]" -> "app.argv[1]"; "" + "x" -> "x". */
const char *join(const char *path, const char *field, char *buf, size_t size);
/* Records the first difference; always returns false. */
bool differ(const char *path, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
bool eq_str(const char *path, const char *field, const char *w, const char *g);
bool eq_fixed(const char *path, const char *field, const char *w, const char *g, size_t max);
bool eq_u64(const char *path, const char *field, uint64_t w, uint64_t g);
bool eq_i64(const char *path, const char *field, int64_t w, int64_t g);
bool eq_float(const char *path, const char *field, float w, float g);
bool eq_double(const char *path, const char *field, double w, double g);
bool eq_tv(const char *path, const char *field, struct timeval w, struct timeval g);
bool eq_bytes(const char *path, const char *field, const char *wb, size_t ws, const char *gb,
              size_t gs);
bool eq_argv(const char *path, const char *field, char *const *w, char *const *g);
/* n elements of `type` at w and g. */
bool eq_elements(const char *path, const char *field, pmix_data_type_t type, const void *w,
                 const void *g, size_t n);

/* The struct types of datacheck_compare_structs.c; *handled is false for
 * any other type. */
bool dc_equal_struct(pmix_data_type_t type, const char *path, const void *w, const void *g,
                     bool *handled);

/* Field checks for the struct comparisons: they expect `path`, `w` (want)
 * and `g` (got) in scope, and `sub` (char[256]) for SUB. */
#define STR(f) if (!eq_str(path, #f, w->f, g->f)) return false
#define UNS(f) if (!eq_u64(path, #f, (uint64_t)w->f, (uint64_t)g->f)) return false
#define SGN(f) if (!eq_i64(path, #f, (int64_t)w->f, (int64_t)g->f)) return false
#define FLT(f) if (!eq_float(path, #f, w->f, g->f)) return false
#define TV(f) if (!eq_tv(path, #f, w->f, g->f)) return false
#define ARGV(f) if (!eq_argv(path, #f, w->f, g->f)) return false
#define KEY(f) if (!eq_fixed(path, #f, w->f, g->f, PMIX_MAX_KEYLEN)) return false
#define SUB(type, f) \
    if (!dc_equal(type, join(path, #f, sub, sizeof sub), &w->f, &g->f)) return false
#define COUNT(n) if (!eq_u64(path, #n, w->n, g->n)) return false
#define ARRAY(type, f, n) COUNT(n); if (!eq_elements(path, #f, type, w->f, g->f, w->n)) return false

#endif
