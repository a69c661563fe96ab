/*
 * Cross-check of the reference headers' standard macros (most of them expand
 * to calls into the library: PMIx_Value_destruct, PMIx_Data_array_destruct,
 * PMIx_Info_load, PMIx_Data_load, ...), and of invalid input.
 */
#include "crosscheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Creates a data array of `n` elements of `type` with the macro, fills it,
 * prints it and frees it with PMIX_DATA_ARRAY_FREE (library destruct). */
static void check_darray_create(void)
{
    pmix_data_array_t *d;
    PMIX_DATA_ARRAY_CREATE(d, 3, PMIX_INFO);
    pmix_info_t *infos = d->array;
    uint64_t u64 = 1ULL << 40;
    PMIX_INFO_LOAD(&infos[0], "crosscheck.a", "text", PMIX_STRING);
    PMIX_INFO_LOAD(&infos[1], "crosscheck.b", &u64, PMIX_UINT64);
    PMIX_INFO_LOAD(&infos[2], "crosscheck.c", NULL, PMIX_BOOL);
    cc_put_datum(PMIX_DATA_ARRAY, d);
    cc_flush("DATA_ARRAY_CREATE info");
    PMIX_DATA_ARRAY_FREE(d);

    PMIX_DATA_ARRAY_CREATE(d, 2, PMIX_STRING);
    ((char **)d->array)[0] = strdup("one");
    ((char **)d->array)[1] = strdup("two");
    cc_put_datum(PMIX_DATA_ARRAY, d);
    cc_flush("DATA_ARRAY_CREATE string");
    PMIX_DATA_ARRAY_FREE(d);

    PMIX_DATA_ARRAY_CREATE(d, 2, PMIX_VALUE);
    pmix_value_t *values = d->array;
    int i = 5;
    PMIX_VALUE_LOAD(&values[0], &i, PMIX_INT);
    PMIX_VALUE_LOAD(&values[1], "str", PMIX_STRING);
    cc_put_datum(PMIX_DATA_ARRAY, d);
    cc_flush("DATA_ARRAY_CREATE value");
    PMIX_DATA_ARRAY_FREE(d);

    PMIX_DATA_ARRAY_CREATE(d, 2, PMIX_ENVAR);
    PMIX_ENVAR_LOAD(&((pmix_envar_t *)d->array)[0], "E1", "v1", ':');
    PMIX_ENVAR_LOAD(&((pmix_envar_t *)d->array)[1], "E2", "v2", ';');
    cc_put_datum(PMIX_DATA_ARRAY, d);
    cc_flush("DATA_ARRAY_CREATE envar");
    PMIX_DATA_ARRAY_FREE(d);

    PMIX_DATA_ARRAY_CREATE(d, 2, PMIX_PROC);
    PMIX_PROC_LOAD(&((pmix_proc_t *)d->array)[0], "ns.m", 1);
    PMIX_PROC_LOAD(&((pmix_proc_t *)d->array)[1], "ns.m", PMIX_RANK_WILDCARD);
    cc_put_datum(PMIX_DATA_ARRAY, d);
    cc_flush("DATA_ARRAY_CREATE proc");
    PMIX_DATA_ARRAY_FREE(d);

    pmix_data_array_t local;
    PMIX_DATA_ARRAY_CONSTRUCT(&local, 2, PMIX_BYTE_OBJECT);
    pmix_byte_object_t *bos = local.array;
    bos[0].bytes = malloc(3);
    memcpy(bos[0].bytes, "xyz", 3);
    bos[0].size = 3;
    cc_put_datum(PMIX_DATA_ARRAY, &local);
    cc_flush("DATA_ARRAY_CONSTRUCT byte_object");
    PMIX_DATA_ARRAY_DESTRUCT(&local);
    cc_put("size=%zu array=%s", local.size, local.array ? "set" : "(nil)");
    cc_flush("DATA_ARRAY_DESTRUCT leaves");
}

static void check_value_macros(void)
{
    pmix_value_t *v;
    pmix_status_t rc;
    PMIX_VALUE_CREATE(v, 2);
    PMIX_VALUE_LOAD(&v[0], "first", PMIX_STRING);
    double d = 0.25;
    PMIX_VALUE_LOAD(&v[1], &d, PMIX_DOUBLE);
    cc_put_value(&v[0]);
    cc_put(" ");
    cc_put_value(&v[1]);
    cc_flush("VALUE_CREATE/LOAD");

    pmix_value_t *copy = NULL;
    PMIX_VALUE_XFER(rc, copy, &v[0]);
    cc_put("rc=%d ", rc);
    cc_put_value(copy);
    cc_flush("VALUE_XFER into NULL");
    PMIX_VALUE_RELEASE(copy);
    cc_put("%s", copy ? "set" : "(nil)");
    cc_flush("VALUE_RELEASE leaves");

    int64_t n = 0;
    PMIX_VALUE_GET_NUMBER(rc, &v[1], n, int64_t);
    cc_line("VALUE_GET_NUMBER double: rc=%d n=%lld", rc, (long long)n);
    PMIX_VALUE_GET_NUMBER(rc, &v[0], n, int64_t);
    cc_line("VALUE_GET_NUMBER string: rc=%d", rc);
    PMIX_VALUE_FREE(v, 2);
    cc_line("VALUE_FREE leaves: %s", v ? "set" : "(nil)");
}

static void check_info_macros(void)
{
    pmix_info_t *info;
    PMIX_INFO_CREATE(info, 4);
    bool no = false;
    PMIX_INFO_LOAD(&info[0], "crosscheck.t", NULL, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], "crosscheck.f", &no, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[2], "crosscheck.s", "yes", PMIX_STRING);
    PMIX_INFO_XFER(&info[3], &info[2]);
    PMIX_INFO_SET_END(&info[3]);
    for (int i = 0; i < 4; ++i) {
        cc_put_info(&info[i]);
        cc_put(" true=%d bool=%d end=%d", PMIX_INFO_TRUE(&info[i]),
               PMIX_CHECK_BOOL(&info[i].value), PMIX_INFO_IS_END(&info[i]));
        char label[40];
        snprintf(label, sizeof label, "INFO_CREATE/LOAD/XFER[%d]", i);
        cc_flush(label);
    }
    cc_line("CHECK_KEY: %d %d", PMIX_CHECK_KEY(&info[0], "crosscheck.t"),
            PMIX_CHECK_KEY(&info[0], "crosscheck.x"));
    PMIX_INFO_FREE(info, 4);
    cc_line("INFO_FREE leaves: %s", info ? "set" : "(nil)");

    pmix_pdata_t *pd;
    pmix_proc_t proc;
    PMIX_PROC_LOAD(&proc, "ns.pd", 4);
    PMIX_PDATA_CREATE(pd, 2);
    PMIX_PDATA_LOAD(&pd[0], &proc, "crosscheck.pd", "payload", PMIX_STRING);
    PMIX_PDATA_XFER(&pd[1], &pd[0]);
    cc_put_datum(PMIX_PDATA, &pd[1]);
    cc_flush("PDATA_LOAD/XFER");
    PMIX_PDATA_FREE(pd, 2);

    pmix_status_t argv_rc;
    pmix_app_t *app;
    PMIX_APP_CREATE(app, 1);
    app->cmd = strdup("prog");
    PMIX_ARGV_APPEND(argv_rc, app->argv, "prog");
    PMIX_INFO_CREATE(app->info, 1);
    app->ninfo = 1;
    PMIX_INFO_LOAD(&app->info[0], "crosscheck.app", "x", PMIX_STRING);
    cc_put_datum(PMIX_APP, app);
    cc_flush("APP_CREATE");
    PMIX_APP_FREE(app, 1);

    pmix_query_t *q;
    PMIX_QUERY_CREATE(q, 1);
    PMIX_ARGV_APPEND(argv_rc, q->keys, PMIX_QUERY_NAMESPACES);
    PMIX_QUERY_QUALIFIERS_CREATE(q, 1);
    PMIX_INFO_LOAD(&q->qualifiers[0], PMIX_NSPACE, "ns.q", PMIX_STRING);
    cc_put_datum(PMIX_QUERY, q);
    cc_flush("QUERY_CREATE");
    PMIX_QUERY_FREE(q, 1);
    cc_line("argv appends: rc=%d", argv_rc);
}

static void check_data_buffer(void)
{
    pmix_data_buffer_t *buf;
    PMIX_DATA_BUFFER_CREATE(buf);
    char *bytes = malloc(5);
    memcpy(bytes, "\x01\x02\x03\x04\x05", 5);
    size_t size = 5;
    PMIX_DATA_BUFFER_LOAD(buf, bytes, size);
    /* The macro drops PMIx_Data_load's status; when the buffer did not
     * take the bytes (the call failed, e.g. PMIX_ERR_NOT_SUPPORTED, which
     * the standard allows), they are still ours to free. */
    if (buf->base_ptr != bytes) {
        free(bytes);
    }
    cc_put_datum(PMIX_DATA_BUFFER, buf);
    cc_flush("DATA_BUFFER_LOAD");

    pmix_value_t v, copy;
    PMIX_VALUE_CONSTRUCT(&v);
    PMIX_VALUE_CONSTRUCT(&copy);
    /* Left out before init: the reference crashes loading a data buffer
     * value when its bfrops framework is not open yet. */
    if (cc_initialized) {
        pmix_status_t rc = PMIx_Value_load(&v, buf, PMIX_DATA_BUFFER);
        cc_put("load rc=%d ", rc);
        cc_put_value(&v);
        rc = PMIx_Value_xfer(&copy, &v);
        cc_put(" xfer rc=%d ", rc);
        cc_put_value(&copy);
        cc_flush("value DATA_BUFFER");
        PMIx_Value_destruct(&v);
        PMIx_Value_destruct(&copy);
    }

    char *out = NULL;
    size_t out_size = 0;
    PMIX_DATA_BUFFER_UNLOAD(buf, out, out_size);
    cc_put("size=%zu first=%d", out_size, out ? out[0] : -1);
    cc_flush("DATA_BUFFER_UNLOAD");
    free(out);
    PMIX_DATA_BUFFER_RELEASE(buf);
}

static void check_argv(void)
{
    char **argv = NULL;
    int rc;
    PMIX_ARGV_APPEND(rc, argv, "b");
    PMIX_ARGV_PREPEND(rc, argv, "a");
    PMIX_ARGV_APPEND_UNIQUE(rc, &argv, "b");
    PMIX_ARGV_APPEND_UNIQUE(rc, &argv, "c");
    int count;
    PMIX_ARGV_COUNT(count, argv);
    char *joined;
    PMIX_ARGV_JOIN(joined, argv, ',');
    cc_line("ARGV: rc=%d count=%d joined=%s", rc, count, joined);
    char **split;
    PMIX_ARGV_SPLIT(split, "x::y:z", ':');
    char **copy;
    PMIX_ARGV_COPY(copy, split);
    PMIX_ARGV_COUNT(count, copy);
    cc_line("ARGV_SPLIT/COPY: count=%d first=%s", count, copy[0]);
    char **env = NULL;
    PMIX_SETENV(rc, "CROSSCHECK_VAR", "1", &env);
    PMIX_SETENV(rc, "CROSSCHECK_VAR", "2", &env);
    cc_line("SETENV: rc=%d env0=%s", rc, env ? env[0] : "(nil)");
    free(joined);
    PMIX_ARGV_FREE(argv);
    PMIX_ARGV_FREE(split);
    PMIX_ARGV_FREE(copy);
    PMIX_ARGV_FREE(env);
}

void cc_macros(void)
{
    check_darray_create();
    check_value_macros();
    check_info_macros();
    check_data_buffer();
    check_argv();
}
