/*
 * Data round-trip check of PMIx_Data_pack / unpack / copy (Ch.11), compiled
 * against the reference headers only and run on either library.
 *
 * usage: datacheck list
 *        datacheck [--reference] [--isolate] [section...]
 *
 * A section is a data type (its samples are packed into one buffer, unpacked,
 * compared field by field, then copied one by one and compared again) or one
 * of the buffer sections (sequence, wrong_type, count, copy_payload,
 * unload_load). Without a section, all run. Prints one line per check,
 * "<key>: ok" or "<key>: FAIL <detail>", then
 * "datacheck: N checks, M failed, S skipped" and exits 1 when M > 0.
 *
 * --reference says that the library is the reference (Debian's OpenPMIx):
 * the checks it is known to fail or crash on are then skipped (the table
 * below says why for each). On our library nothing is skipped.
 * --isolate (diagnosis only) runs each sample of the type sections in a
 * process of its own and names the samples the library crashes on.
 */
#include "datacheck.h"

#include <pmix_tool.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int checks, failures;

bool dc_check(const char *key, bool ok, const char *fmt, ...)
{
    if (dc_skip(key)) {
        return false;  /* checks that depend on this one do not run either */
    }
    ++checks;
    if (ok) {
        printf("%s: ok\n", key);
        return true;
    }
    ++failures;
    printf("%s: FAIL ", key);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    return false;
}

void *dc_gather(const dc_type_t *t, const char *prefix, size_t *index, size_t *n)
{
    char *array = calloc(t->count == 0 ? 1 : t->count, t->size);
    *n = 0;
    for (size_t i = 0; i < t->count; ++i) {
        char key[256];
        snprintf(key, sizeof key, "%s%s[%s].unpacked", prefix, t->name, dc_label(t, i));
        if (!dc_skip(key)) {
            memcpy(array + *n * t->size, dc_sample(t, i), t->size);
            index[(*n)++] = i;
        }
    }
    return array;
}

void dc_unpack_and_compare(const dc_type_t *t, const char *prefix, const char *what,
                           pmix_data_buffer_t *buf, const char *want, const size_t *index, size_t n)
{
    char key[256];
    char *got = calloc(n, t->size);
    int32_t count = (int32_t)n;
    pmix_status_t rc = PMIx_Data_unpack(NULL, buf, got, &count, t->type);
    snprintf(key, sizeof key, "%s%s.unpack", prefix, what);
    if (dc_check(key, rc == PMIX_SUCCESS && count == (int32_t)n, "rc=%d count=%d (want %zu)", rc,
                 count, n)) {
        for (size_t i = 0; i < n; ++i) {
            snprintf(key, sizeof key, "%s%s[%s].unpacked", prefix, t->name,
                     dc_label(t, index[i]));
            dc_check(key, dc_equal(t->type, "", want + i * t->size, got + i * t->size), "%s",
                     dc_why());
        }
    }
    for (size_t i = 0; i < n; ++i) {  /* zeroed elements are released harmlessly */
        dc_destruct(t->type, got + i * t->size);
    }
    free(got);
}

void dc_check_drained(const dc_type_t *t, const char *key, pmix_data_buffer_t *buf)
{
    char *extra = calloc(1, t->size);
    int32_t count = 1;
    pmix_status_t rc = PMIx_Data_unpack(NULL, buf, extra, &count, t->type);
    dc_check(key, rc != PMIX_SUCCESS, "unpacking past the end succeeded (rc=%d count=%d)", rc,
             count);
    if (rc == PMIX_SUCCESS) {
        dc_destruct(t->type, extra);
    }
    free(extra);
}

/* Packs n samples of t into one buffer, unpacks and compares them. `what`
 * names the group in the keys ("<what>.pack"). When packing the group fails
 * and `one_by_one` is set, each sample is tried alone ("<type>[<label>]"),
 * so that one sample the library rejects does not hide the others. */
static void roundtrip_group(const dc_type_t *t, const char *what, const char *want,
                            const size_t *index, size_t n, bool one_by_one)
{
    char key[256];
    pmix_data_buffer_t *buf;
    PMIX_DATA_BUFFER_CREATE(buf);
    pmix_status_t rc = PMIx_Data_pack(NULL, buf, (void *)want, (int32_t)n, t->type);
    snprintf(key, sizeof key, "%s.pack", what);
    if (dc_check(key, rc == PMIX_SUCCESS, "rc=%d (%zu values)", rc, n)) {
        dc_unpack_and_compare(t, "", what, buf, want, index, n);
        snprintf(key, sizeof key, "%s.drained", what);
        dc_check_drained(t, key, buf);
    } else if (one_by_one && n > 1) {
        for (size_t i = 0; i < n; ++i) {
            char one[256];
            snprintf(one, sizeof one, "%s[%s]", t->name, dc_label(t, index[i]));
            roundtrip_group(t, one, want + i * t->size, index + i, 1, false);
        }
    }
    PMIX_DATA_BUFFER_RELEASE(buf);
}

static void roundtrip(const dc_type_t *t)
{
    size_t *index = calloc(t->count + 1, sizeof *index);
    size_t n = 0;
    char *want = dc_gather(t, "", index, &n);
    if (n > 0) {
        roundtrip_group(t, t->name, want, index, n, true);
    }
    free(want);
    free(index);
}

/* PMIx_Data_copy of each sample: a string (and a regular expression) is
 * passed as the string itself and comes back as a new string; any other
 * type as a pointer to the element, coming back as a new element. */
static void copies(const dc_type_t *t)
{
    bool by_string = t->type == PMIX_STRING || t->type == PMIX_REGEX;
    for (size_t i = 0; i < t->count; ++i) {
        char key[256];
        void *sample = dc_sample(t, i);
        void *src = by_string ? *(char **)sample : sample;
        snprintf(key, sizeof key, "%s[%s].copy", t->name, dc_label(t, i));
        if (src == NULL || dc_skip(key)) {  /* nothing to copy from a NULL string */
            continue;
        }
        void *copy = NULL;
        pmix_status_t rc = PMIx_Data_copy(&copy, src, t->type);
        if (rc != PMIX_SUCCESS || copy == NULL) {
            dc_check(key, false, "rc=%d copy=%s", rc, copy ? "set" : "NULL");
        } else {
            dc_check(key, dc_equal(t->type, "", sample, by_string ? (void *)&copy : copy), "%s",
                     dc_why());
        }
        dc_release(t->type, copy);
    }
}

/* Diagnosis (--isolate): each sample of t in a process of its own, so that
 * the samples a library crashes on show up one by one. */
static void isolated(const dc_type_t *t)
{
    for (size_t i = 0; i < t->count; ++i) {
        dc_type_t one = *t;
        const char *label = strdup(dc_label(t, i));
        one.array = dc_sample(t, i);
        one.count = 1;
        one.labels = &label;
        printf("# sample %s[%s]\n", t->name, label);
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            roundtrip(&one);
            copies(&one);
            fflush(stdout);
            _exit(0);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        if (WIFSIGNALED(status)) {
            printf("%s[%s]: crashed (signal %d)\n", t->name, label, WTERMSIG(status));
        }
        free((void *)label);
    }
}

/* Initializes the library as a tool that does not connect to a server: the
 * reference packs nothing before some init call (PMIX_ERR_NOT_FOUND). The
 * result is informational; the checks show what works either way. */
static bool init_tool(void)
{
    pmix_proc_t me;
    pmix_info_t info;
    memset(&info, 0, sizeof info);
    strncpy(info.key, PMIX_TOOL_DO_NOT_CONNECT, PMIX_MAX_KEYLEN);
    info.value.type = PMIX_BOOL;
    info.value.data.flag = true;
    pmix_status_t rc = PMIx_tool_init(&me, &info, 1);
    printf("# PMIx_tool_init: rc=%d\n", rc);
    return rc == PMIX_SUCCESS;
}

static bool wanted(int nsections, char **sections, const char *name)
{
    for (int i = 0; i < nsections; ++i) {
        if (strcmp(sections[i], name) == 0) {
            return true;
        }
    }
    return nsections == 0;
}

static const char *const kBufferSections[] = {"sequence", "wrong_type", "count", "copy_payload",
                                              "unload_load"};

int main(int argc, char **argv)
{
    size_t ntypes;
    const dc_type_t *types = dc_types(&ntypes);
    const size_t nbuffer = sizeof kBufferSections / sizeof kBufferSections[0];
    if (argc > 1 && strcmp(argv[1], "list") == 0) {
        for (size_t i = 0; i < ntypes; ++i) {
            printf("%s\n", types[i].name);
        }
        for (size_t i = 0; i < nbuffer; ++i) {
            printf("%s\n", kBufferSections[i]);
        }
        return 0;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);  /* a crash keeps the lines before it */
    int first = 1;
    bool isolate = false;
    for (; first < argc && strncmp(argv[first], "--", 2) == 0; ++first) {
        dc_reference = dc_reference || strcmp(argv[first], "--reference") == 0;
        isolate = isolate || strcmp(argv[first], "--isolate") == 0;
    }
    bool initialized = init_tool();
    for (size_t i = 0; i < ntypes; ++i) {
        if (wanted(argc - first, argv + first, types[i].name)) {
            if (isolate) {
                isolated(&types[i]);
            } else {
                roundtrip(&types[i]);
                copies(&types[i]);
            }
        }
    }
    for (size_t i = 0; i < nbuffer; ++i) {
        if (wanted(argc - first, argv + first, kBufferSections[i])) {
            dc_buffer_section(kBufferSections[i]);
        }
    }
    if (initialized) {
        PMIx_tool_finalize();
    }
    printf("datacheck: %d checks, %d failed, %d skipped\n", checks, failures, dc_skips);
    return failures == 0 ? 0 : 1;
}
