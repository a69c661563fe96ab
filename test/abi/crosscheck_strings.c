/*
 * Cross-check of the *_string functions over their whole domains, and of
 * PMIx_Get_attribute_string/name over every string-valued macro of the
 * reference headers (listed in the generated crosscheck_attrs.h).
 *
 * Domains are swept value by value; runs of values that give the same
 * string print as one line "[first..last]", so the output stays short but
 * every value is compared.
 */
#include "crosscheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef const char *(*NameOf)(long long value);

/* Prints fn over [lo, hi] as runs of equal results. */
static void sweep(const char *fn_name, NameOf fn, long long lo, long long hi)
{
    long long run_start = lo;
    const char *run_text = fn(lo);
    char *held = run_text ? strdup(run_text) : NULL;
    for (long long x = lo + 1; x <= hi + 1; ++x) {
        const char *text = x <= hi ? fn(x) : NULL;
        bool same = x <= hi && ((text == NULL && held == NULL) ||
                                (text != NULL && held != NULL && strcmp(text, held) == 0));
        if (same) {
            continue;
        }
        char label[160];
        if (run_start == x - 1) {
            snprintf(label, sizeof label, "%s(%lld)", fn_name, run_start);
        } else {
            snprintf(label, sizeof label, "%s[%lld..%lld]", fn_name, run_start, x - 1);
        }
        cc_put_string(held);
        cc_flush(label);
        free(held);
        held = text ? strdup(text) : NULL;
        run_start = x;
    }
    free(held);
}

static const char *error_s(long long v) { return PMIx_Error_string((pmix_status_t)v); }
static const char *proc_state_s(long long v) { return PMIx_Proc_state_string((pmix_proc_state_t)v); }
static const char *job_state_s(long long v) { return PMIx_Job_state_string((pmix_job_state_t)v); }
static const char *scope_s(long long v) { return PMIx_Scope_string((pmix_scope_t)v); }
static const char *persist_s(long long v) { return PMIx_Persistence_string((pmix_persistence_t)v); }
static const char *range_s(long long v) { return PMIx_Data_range_string((pmix_data_range_t)v); }
static const char *type_s(long long v) { return PMIx_Data_type_string((pmix_data_type_t)v); }
static const char *adir_s(long long v) { return PMIx_Alloc_directive_string((pmix_alloc_directive_t)v); }
static const char *iof_s(long long v) { return PMIx_IOF_channel_string((pmix_iof_channel_t)v); }
static const char *link_s(long long v) { return PMIx_Link_state_string((pmix_link_state_t)v); }
static const char *cmp_s(long long v) { return PMIx_Value_comparison_string((pmix_value_cmp_t)v); }

/* Device types are a 64-bit mask: sweep 0, each single bit, and a few unions. */
static void sweep_device_types(void)
{
    static const uint64_t kExtra[] = {0, 0x3, 0x6, 0x7f, 0xff, UINT64_MAX};
    char label[64];
    for (int bit = 0; bit < 64; ++bit) {
        snprintf(label, sizeof label, "Device_type_string(bit %d)", bit);
        cc_put_string(PMIx_Device_type_string((pmix_device_type_t)1 << bit));
        cc_flush(label);
    }
    for (size_t i = 0; i < sizeof kExtra / sizeof kExtra[0]; ++i) {
        snprintf(label, sizeof label, "Device_type_string(%#llx)", (unsigned long long)kExtra[i]);
        cc_put_string(PMIx_Device_type_string(kExtra[i]));
        cc_flush(label);
    }
}

/* Info directives are a 32-bit mask and the string is allocated. */
static void put_directives(uint32_t value)
{
    char label[64];
    char *text = PMIx_Info_directives_string(value);
    snprintf(label, sizeof label, "Info_directives_string(%#x)", value);
    cc_put_string(text);
    cc_flush(label);
    free(text);
}

static void sweep_directives(void)
{
    static const uint32_t kExtra[] = {0, 0x3, 0x1f, 0xffff0000u, 0xffffffffu};
    for (int bit = 0; bit < 32; ++bit) {
        put_directives(1u << bit);
    }
    for (size_t i = 0; i < sizeof kExtra / sizeof kExtra[0]; ++i) {
        put_directives(kExtra[i]);
    }
}

void cc_strings(void)
{
    sweep("Error_string", error_s, -3100, 100);
    sweep("Proc_state_string", proc_state_s, 0, UINT8_MAX);
    sweep("Job_state_string", job_state_s, 0, UINT8_MAX);
    sweep("Scope_string", scope_s, 0, UINT8_MAX);
    sweep("Persistence_string", persist_s, 0, UINT8_MAX);
    sweep("Data_range_string", range_s, 0, UINT8_MAX);
    sweep("Data_type_string", type_s, 0, UINT16_MAX);
    sweep("Alloc_directive_string", adir_s, 0, UINT8_MAX);
    sweep("IOF_channel_string", iof_s, 0, UINT8_MAX);
    for (int bit = 8; bit < 16; ++bit) {
        sweep("IOF_channel_string", iof_s, 1LL << bit, 1LL << bit);
    }
    sweep("IOF_channel_string", iof_s, UINT16_MAX, UINT16_MAX);
    sweep("Link_state_string", link_s, 0, UINT8_MAX);
    sweep("Value_comparison_string", cmp_s, -1, 16);
    sweep_device_types();
    sweep_directives();
    const char *version = PMIx_Get_version();
    cc_line("Get_version: first byte >= '3': %d", version != NULL && version[0] >= '3');
}

static void check_attribute(const char *macro_name, const char *value)
{
    const char *string = PMIx_Get_attribute_string(macro_name);
    const char *name = PMIx_Get_attribute_name(value);
    cc_put("string=");
    cc_put_string(string);
    cc_put(" (matches macro: %d) name=", string != NULL && strcmp(string, value) == 0);
    cc_put_string(name);
    cc_flush(macro_name);
}

void cc_attributes(void)
{
#define CC_ATTR(macro) check_attribute(#macro, macro);
#include "crosscheck_attrs.h"
#undef CC_ATTR
    static const char *kUnknown[] = {"PMIX_NO_SUCH_ATTRIBUTE", "pmix.no.such", "", "pmix"};
    for (size_t i = 0; i < sizeof kUnknown / sizeof kUnknown[0]; ++i) {
        check_attribute(kUnknown[i], kUnknown[i]);
    }
}
