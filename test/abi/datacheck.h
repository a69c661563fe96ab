/*
 * Data round-trip check (Ch.11): shared declarations.
 *
 * The program is compiled against the reference headers only (Debian's
 * OpenPMIx 4.2.x) and runs on whichever libpmix.so.2 LD_LIBRARY_PATH picks.
 * For every data type that can cross a process it packs several samples with
 * PMIx_Data_pack, unpacks them with PMIx_Data_unpack, compares each result
 * field by field with its sample, copies each sample with PMIx_Data_copy and
 * compares again; everything the library hands back is released with the
 * reference headers' macros. See datacheck.sh for how it is run.
 */
#ifndef PMIXX_TEST_ABI_DATACHECK_H
#define PMIXX_TEST_ABI_DATACHECK_H

#include <pmix.h>

#include <stdbool.h>
#include <stddef.h>

/* One data type and its samples: `count` elements of `size` bytes at
 * `array`, laid out as PMIx_Data_pack reads them (char* for PMIX_STRING,
 * pmix_proc_t for PMIX_PROC, ...). `labels` names each sample in the check
 * keys; NULL means the samples are named by their index. */
typedef struct {
    const char *name;
    pmix_data_type_t type;
    size_t size;
    void *array;
    size_t count;
    const char **labels;
} dc_type_t;

/* All types with their samples, built on the first call (some samples, such
 * as hwloc objects, values and data arrays of every type, are made at run
 * time). The table lives until the process exits. */
const dc_type_t *dc_types(size_t *count);
const dc_type_t *dc_find_type(pmix_data_type_t type);
/* The label of sample i of t ("3" when t has no labels); static storage,
 * overwritten by the next call. */
const char *dc_label(const dc_type_t *t, size_t i);
/* The address of sample i of t. */
void *dc_sample(const dc_type_t *t, size_t i);
/* The table entry of `type`, without building the samples (for the builders). */
dc_type_t *dc_type_slot(pmix_data_type_t type);

/* Values (datacheck_compound.c): the types a pmix_value_t holds through a
 * pointer (data.proc, data.darray, ...), and whether a value can hold a type
 * at all (it cannot hold an info, value, pdata, app or query). */
bool dc_boxed(pmix_data_type_t type);
bool dc_value_storable(pmix_data_type_t type);
/* Builds and frees the run-time samples (values, infos, data arrays). */
void dc_build_compound(void);

/* Comparison (datacheck_compare.c): true when `got` equals `want` field by
 * field. On a mismatch dc_why() describes the first difference found, with
 * the path of the field ("argv[1]: want \"x\", got \"y\""). */
bool dc_equal(pmix_data_type_t type, const char *path, const void *want, const void *got);
const char *dc_why(void);

/* Release (datacheck_release.c), with the reference headers' macros:
 * dc_destruct frees what one element owns (the element itself stays);
 * dc_release frees an element made by PMIx_Data_copy, storage included. */
void dc_destruct(pmix_data_type_t type, void *element);
void dc_release(pmix_data_type_t type, void *copy);

/* Reporting (datacheck.c). Every check prints "<key>: ok" or
 * "<key>: FAIL <detail>". dc_skip tells whether the check `key` is left out
 * of this run (only when running on the reference library: see the table in
 * datacheck.c) and prints "<key>: skip <reason>" when it is. */
bool dc_check(const char *key, bool ok, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
bool dc_skip(const char *key);
/* Whether this run is on the reference library (--reference), and the
 * number of checks skipped so far (datacheck_reference.c). */
extern bool dc_reference;
extern int dc_skips;

/* Round-trip helpers (datacheck.c), used by the buffer sections too. Keys
 * are "<prefix><type>[<label>].<stage>".
 * dc_gather: the samples of t this run packs (those whose ".unpacked" check
 *   is not skipped), copied shallowly into one new array; index[] (room for
 *   t->count) maps them back to t's samples; *n receives their number.
 * dc_unpack_and_compare: unpacks n elements of t from buf (one check
 *   "<prefix><what>.unpack" for the call, one per element against `want`),
 *   then releases them.
 * dc_check_drained: one more unpack of t must fail. */
void *dc_gather(const dc_type_t *t, const char *prefix, size_t *index, size_t *n);
void dc_unpack_and_compare(const dc_type_t *t, const char *prefix, const char *what,
                           pmix_data_buffer_t *buf, const char *want, const size_t *index,
                           size_t n);
void dc_check_drained(const dc_type_t *t, const char *key, pmix_data_buffer_t *buf);
/* The buffer sections (datacheck_buffers.c): "sequence", "wrong_type",
 * "count", "copy_payload", "unload_load". */
void dc_buffer_section(const char *name);

#endif
