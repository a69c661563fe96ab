/*
 * Cross-check sample data: a table of (name, PMIx type, pointer to a datum of
 * that type), covering every type a pmix_value_t can hold, including data
 * arrays of several element types and nested arrays of infos. The data is
 * static and read-only for the tests.
 */
#ifndef PMIXX_TEST_ABI_CROSSCHECK_SAMPLES_H
#define PMIXX_TEST_ABI_CROSSCHECK_SAMPLES_H

#include <pmix.h>

typedef struct {
    const char *name;
    pmix_data_type_t type;
    const void *data;  /* what PMIx_Value_load takes for `type` */
} cc_sample_t;

/* The table; *count receives its length. */
const cc_sample_t *cc_samples(size_t *count);

#endif
