/*
 * Helpers of the test tools (header-only, C99, public pmix_tool.h API).
 * Exit codes: 0 success, 1 a check failed, 3 PMIx_tool_init failed.
 */
#ifndef PMIXX_TEST_HOST_TOOL_UTIL_H
#define PMIXX_TEST_HOST_TOOL_UTIL_H

#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmix_tool.h"

/* The event a tool raises to let the job's processes (client_tool_peer) go. */
#define kToolRelease (PMIX_EXTERNAL_ERR_BASE - 11)

static inline void ToolFail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "[tool %d] FAIL: ", (int)getpid());
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

#define TCHECK(cond, ...)                   \
    do {                                    \
        if (!(cond)) ToolFail(__VA_ARGS__); \
    } while (0)

#define TCHECK_RC(rc, want, what)                                                       \
    do {                                                                                \
        pmix_status_t trc_ = (rc);                                                      \
        if (trc_ != (want))                                                             \
            ToolFail("%s: got %s (%d), want %s", what, PMIx_Error_string(trc_), trc_,   \
                     PMIx_Error_string(want));                                          \
    } while (0)

static inline const char *ToolEnv(const char *name) {
    const char *v = getenv(name);
    if (!v || !*v) ToolFail("%s is not set", name);
    return v;
}

/* The first line of a file (a URI written with PMIX_TCP_REPORT_URI). */
static inline char *FirstLine(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) ToolFail("cannot open %s", path);
    static char line[4096];
    if (!fgets(line, sizeof line, f)) ToolFail("%s is empty", path);
    fclose(f);
    line[strcspn(line, "\n")] = '\0';
    return line;
}

/* A query of one key with up to one string qualifier; the caller frees. */
static inline pmix_status_t QueryOne(const char *key, const char *qkey, const char *qval,
                                     pmix_info_t **results, size_t *nresults) {
    pmix_query_t q;
    PMIX_QUERY_CONSTRUCT(&q);
    char *keys[2] = {(char *)key, NULL};
    q.keys = keys;
    pmix_info_t qual;
    if (qkey) {
        PMIX_INFO_LOAD(&qual, qkey, qval, PMIX_STRING);
        q.qualifiers = &qual;
        q.nqual = 1;
    }
    pmix_status_t rc = PMIx_Query_info(&q, 1, results, nresults);
    if (qkey) PMIX_INFO_DESTRUCT(&qual);
    return rc;
}

/* Releases the job `nspace` (every client_tool_peer of it). */
static inline void ReleaseJob(const char *nspace) {
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, nspace, PMIX_RANK_WILDCARD);
    pmix_info_t range;
    PMIX_INFO_LOAD(&range, PMIX_EVENT_CUSTOM_RANGE, &job, PMIX_PROC);
    pmix_status_t rc = PMIx_Notify_event(kToolRelease, NULL, PMIX_RANGE_CUSTOM, &range, 1, NULL, NULL);
    PMIX_INFO_DESTRUCT(&range);
    TCHECK(rc == PMIX_SUCCESS || rc == PMIX_OPERATION_SUCCEEDED, "PMIx_Notify_event(release): %s",
           PMIx_Error_string(rc));
}

#endif
