/*
 * Cross-check of PMIx_Info_load/xfer/string, the info-list API and the
 * standard macros of the reference headers that call into the library.
 */
#include "crosscheck.h"
#include "crosscheck_samples.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Same exclusions as for PMIx_Value_string (see crosscheck_values.c). */
static bool printable(pmix_data_type_t type, const void *data)
{
    if (type == PMIX_DATA_ARRAY) {
        const pmix_data_array_t *d = data;
        if (d->size == 0) {
            return false;
        }
        type = d->type;
    }
    return type != PMIX_DEVTYPE && type != PMIX_PROC_INFO;
}

static void check_info_sample(const cc_sample_t *s)
{
    pmix_info_t info, copy;
    char key[64], label[96];

    snprintf(key, sizeof key, "crosscheck.%s", s->name);
    PMIX_INFO_CONSTRUCT(&info);
    pmix_status_t rc = PMIx_Info_load(&info, key, s->data, s->type);
    cc_put("rc=%d ", rc);
    cc_put_info(&info);
    snprintf(label, sizeof label, "load %s", s->name);
    cc_flush(label);

    PMIX_INFO_REQUIRED(&info);
    PMIX_INFO_CONSTRUCT(&copy);
    rc = PMIx_Info_xfer(&copy, &info);
    cc_put("rc=%d ", rc);
    cc_put_info(&copy);
    snprintf(label, sizeof label, "xfer %s", s->name);
    cc_flush(label);

    if (cc_initialized && printable(s->type, s->data)) {
        char *text = PMIx_Info_string(&info);
        cc_put_string(text);
        free(text);
        snprintf(label, sizeof label, "string %s", s->name);
        cc_flush(label);
    }
    PMIX_INFO_DESTRUCT(&copy);
    PMIX_INFO_DESTRUCT(&info);
}

/* Keys at and beyond PMIX_MAX_KEYLEN: what is stored, and the status. */
static void check_key_lengths(void)
{
    static const size_t kLengths[] = {0, 1, PMIX_MAX_KEYLEN - 1, PMIX_MAX_KEYLEN,
                                      PMIX_MAX_KEYLEN + 1, 2 * PMIX_MAX_KEYLEN};
    for (size_t i = 0; i < sizeof kLengths / sizeof kLengths[0]; ++i) {
        char *key = malloc(kLengths[i] + 1);
        memset(key, 'k', kLengths[i]);
        key[kLengths[i]] = '\0';
        pmix_info_t info;
        uint32_t value = 7;
        PMIX_INFO_CONSTRUCT(&info);
        pmix_status_t rc = PMIx_Info_load(&info, key, &value, PMIX_UINT32);
        cc_line("keylen %zu: rc=%d stored=%zu type=%u", kLengths[i], rc,
                strnlen(info.key, sizeof info.key), info.value.type);
        PMIX_INFO_DESTRUCT(&info);
        free(key);
    }
}

void cc_infos(void)
{
    size_t n;
    const cc_sample_t *samples = cc_samples(&n);
    for (size_t i = 0; i < n; ++i) {
        /* see cc_values: PMIX_REGEX crashes the reference before init */
        if (!cc_initialized && samples[i].type == PMIX_REGEX) {
            continue;
        }
        check_info_sample(&samples[i]);
    }
    check_key_lengths();
}

static void put_converted(pmix_status_t rc, pmix_data_array_t *d, const char *label)
{
    cc_put("rc=%d ", rc);
    cc_put_datum(PMIX_DATA_ARRAY, d);
    cc_flush(label);
    PMIx_Data_array_destruct(d);
}

void cc_info_lists(void)
{
    size_t n;
    const cc_sample_t *samples = cc_samples(&n);
    pmix_data_array_t d;
    void *list = PMIx_Info_list_start();
    cc_line("start: %s", list ? "set" : "(nil)");
    for (size_t i = 0; i < n; ++i) {
        if (!cc_initialized && samples[i].type == PMIX_REGEX) {
            continue;
        }
        cc_line("add %s: rc=%d", samples[i].name,
                PMIx_Info_list_add(list, samples[i].name, samples[i].data, samples[i].type));
    }
    pmix_info_t src;
    uint16_t u16 = 513;
    PMIX_INFO_CONSTRUCT(&src);
    PMIx_Info_load(&src, "crosscheck.xfer", &u16, PMIX_UINT16);
    PMIX_INFO_SET_QUALIFIER(&src);
    cc_line("xfer: rc=%d", PMIx_Info_list_xfer(list, &src));
    PMIX_INFO_DESTRUCT(&src);

    /* insert: the list refers to the caller's info, which the caller keeps
     * owning (it outlives the list and is freed after the release below) */
    pmix_info_t *inserted;
    PMIX_INFO_CREATE(inserted, 1);
    PMIx_Info_load(inserted, "crosscheck.insert", "inserted", PMIX_STRING);
    cc_line("insert: rc=%d", PMIx_Info_list_insert(list, inserted));

    memset(&d, 0, sizeof d);
    put_converted(PMIx_Info_list_convert(list, &d), &d, "convert");
    memset(&d, 0, sizeof d);
    put_converted(PMIx_Info_list_convert(list, &d), &d, "convert.again");
    PMIx_Info_list_release(list);
    cc_put_info(inserted);
    cc_flush("inserted after release");
    PMIX_INFO_FREE(inserted, 1);

    list = PMIx_Info_list_start();
    memset(&d, 0, sizeof d);
    put_converted(PMIx_Info_list_convert(list, &d), &d, "convert.empty");
    PMIx_Info_list_release(list);

    /* the macro spellings of the same API */
    pmix_status_t rc;
    bool yes = true;
    PMIX_INFO_LIST_START(list);
    PMIX_INFO_LIST_ADD(rc, list, "crosscheck.macro", &yes, PMIX_BOOL);
    cc_line("macro add: rc=%d", rc);
    memset(&d, 0, sizeof d);
    PMIX_INFO_LIST_CONVERT(rc, list, &d);
    put_converted(rc, &d, "macro convert");
    PMIX_INFO_LIST_RELEASE(list);
}
