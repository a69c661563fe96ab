/*
 * tool_iof PID JOB NPROCS MODE ...: a tool attached to a running pmixrun
 * (by its pid) that forwards the output of its job JOB (NPROCS processes
 * of iof_job, which wait for this tool's release event) and checks it.
 *
 *   show N CHANNELS [FMT...]  pull CHANNELS (out, err, both) of every rank
 *        with the format words FMT: tag rank ts xml merge raw local fonly
 *        pattern nocb file=PATH dir=PATH bsize=N btime=N; the library writes
 *        what it formats to this tool's stdout. A second pull with a callback
 *        counts the ends of the streams; unless nocb, the first one has a
 *        callback too, and the raw stdout it got must be iof_job's lines N.
 *   bulk BYTES   pull stdout slowly (a pause every 64 chunks), check each
 *        rank's bytes (the pattern of iof_job bulk) and their count, then
 *        print "VMHWM <kB>", pmixrun's peak memory (sampled while it ran).
 *   push         pull rank 0's stdout, push two lines to its stdin and the
 *        end of the stream; the echo must come back.
 *   pushstdin    the same with this tool's own stdin (PMIX_IOF_PUSH_STDIN).
 * Prints "PASS tool <check>" / "FAIL tool <check>: why" on stderr; exit 1
 * on a failure.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pmix_tool.h>

#define kToolRelease (PMIX_EXTERNAL_ERR_BASE - 11)
#define kMaxRanks 16

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int completes;                       /* ends of streams seen by the counting pull */
static char *raw[kMaxRanks];                /* stdout per rank, as the callback got it */
static size_t raw_len[kMaxRanks];
static unsigned long long bulk_bytes[kMaxRanks];
static int bulk_bad, chunks;
static int failures;

static void Report(const char *check, bool ok, const char *why) {
    /* on stderr: stdout is where the library writes forwarded output */
    if (ok) fprintf(stderr, "PASS tool %s\n", check);
    else fprintf(stderr, "FAIL tool %s: %s\n", check, why), failures++;
}

static bool IsComplete(pmix_info_t info[], size_t ninfo) {
    for (size_t i = 0; i < ninfo; ++i)
        if (PMIX_CHECK_KEY(&info[i], PMIX_IOF_COMPLETE)) return true;
    return false;
}

static void Counting(size_t id, pmix_iof_channel_t ch, pmix_proc_t *src, pmix_byte_object_t *bo,
                     pmix_info_t info[], size_t ninfo) {
    (void)id, (void)ch, (void)src, (void)bo;
    if (!IsComplete(info, ninfo)) return;
    pthread_mutex_lock(&mu);
    completes++;
    pthread_mutex_unlock(&mu);
}

static void Collect(size_t id, pmix_iof_channel_t ch, pmix_proc_t *src, pmix_byte_object_t *bo,
                    pmix_info_t info[], size_t ninfo) {
    (void)id, (void)info, (void)ninfo;
    if (!(ch & PMIX_FWD_STDOUT_CHANNEL) || src->rank >= kMaxRanks || bo->size == 0) return;
    pthread_mutex_lock(&mu);
    raw[src->rank] = realloc(raw[src->rank], raw_len[src->rank] + bo->size + 1);
    memcpy(raw[src->rank] + raw_len[src->rank], bo->bytes, bo->size);
    raw_len[src->rank] += bo->size;
    raw[src->rank][raw_len[src->rank]] = '\0';
    pthread_mutex_unlock(&mu);
}

static void Bulk(size_t id, pmix_iof_channel_t ch, pmix_proc_t *src, pmix_byte_object_t *bo,
                 pmix_info_t info[], size_t ninfo) {
    (void)id, (void)ch;
    if (src->rank < kMaxRanks) {
        unsigned long long at = bulk_bytes[src->rank];
        for (size_t i = 0; i < bo->size; ++i)
            if (bo->bytes[i] != (char)('a' + (at + i) % 26)) bulk_bad = 1;
        bulk_bytes[src->rank] += bo->size;
    }
    /* Counted last: the main thread reads the byte counts once it sees
     * every end (under mu, which orders these writes before its reads). */
    if (IsComplete(info, ninfo)) Counting(id, ch, src, bo, info, ninfo);
    if (++chunks % 64 == 0) { /* a slow reader */
        const struct timespec pause = {0, 2000000L};
        nanosleep(&pause, NULL);
    }
}

static long PeakKb(const char *pid);
static long peak_kb = -1; /* pmixrun's VmHWM, last seen while it ran */

/* Waits for `want` ends of streams; with `pid`, samples that process's
 * peak memory meanwhile (it may exit as soon as the last end left it). */
static bool WaitCompletes(int want, const char *pid) {
    const struct timespec tick = {0, 10000000L};
    for (int i = 0; i < 60000; ++i) { /* 600 s: 1 GiB on a loaded machine */
        if (pid != NULL) {
            long kb = PeakKb(pid);
            if (kb > peak_kb) peak_kb = kb;
        }
        pthread_mutex_lock(&mu);
        int got = completes;
        pthread_mutex_unlock(&mu);
        if (got >= want) return true;
        nanosleep(&tick, NULL);
    }
    return false;
}

static void Release(const char *job) {
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, job, PMIX_RANK_WILDCARD);
    pmix_info_t range;
    PMIX_INFO_LOAD(&range, PMIX_EVENT_CUSTOM_RANGE, &all, PMIX_PROC);
    pmix_status_t rc = PMIx_Notify_event(kToolRelease, NULL, PMIX_RANGE_CUSTOM, &range, 1, NULL, NULL);
    PMIX_INFO_DESTRUCT(&range);
    Report("release", rc == PMIX_SUCCESS, PMIx_Error_string(rc));
}

static pmix_status_t Pull(const char *job, pmix_rank_t rank, pmix_iof_channel_t channels,
                          pmix_info_t *dirs, size_t ndirs, pmix_iof_cbfunc_t cb) {
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, job, rank);
    return PMIx_IOF_pull(&p, 1, dirs, ndirs, channels, cb, NULL, NULL); /* blocking: the handle */
}

/* The format words as directives. */
static size_t Directives(int argc, char **argv, pmix_info_t *d, bool *nocb) {
    size_t n = 0;
    bool yes = true;
    for (int i = 0; i < argc; ++i) {
        const char *w = argv[i];
        uint32_t v;
        if (!strcmp(w, "tag")) PMIX_INFO_LOAD(&d[n++], PMIX_IOF_TAG_OUTPUT, &yes, PMIX_BOOL);
        else if (!strcmp(w, "rank")) PMIX_INFO_LOAD(&d[n++], PMIX_IOF_RANK_OUTPUT, &yes, PMIX_BOOL);
        else if (!strcmp(w, "ts")) PMIX_INFO_LOAD(&d[n++], PMIX_IOF_TIMESTAMP_OUTPUT, &yes, PMIX_BOOL);
        else if (!strcmp(w, "xml")) PMIX_INFO_LOAD(&d[n++], PMIX_IOF_XML_OUTPUT, &yes, PMIX_BOOL);
        else if (!strcmp(w, "merge")) PMIX_INFO_LOAD(&d[n++], PMIX_IOF_MERGE_STDERR_STDOUT, &yes, PMIX_BOOL);
        else if (!strcmp(w, "raw")) PMIX_INFO_LOAD(&d[n++], PMIX_IOF_OUTPUT_RAW, &yes, PMIX_BOOL);
        else if (!strcmp(w, "local")) PMIX_INFO_LOAD(&d[n++], PMIX_IOF_LOCAL_OUTPUT, &yes, PMIX_BOOL);
        else if (!strcmp(w, "fonly")) PMIX_INFO_LOAD(&d[n++], PMIX_IOF_FILE_ONLY, &yes, PMIX_BOOL);
        else if (!strcmp(w, "pattern")) PMIX_INFO_LOAD(&d[n++], PMIX_IOF_FILE_PATTERN, &yes, PMIX_BOOL);
        else if (!strncmp(w, "file=", 5)) PMIX_INFO_LOAD(&d[n++], PMIX_IOF_OUTPUT_TO_FILE, w + 5, PMIX_STRING);
        else if (!strncmp(w, "dir=", 4)) PMIX_INFO_LOAD(&d[n++], PMIX_IOF_OUTPUT_TO_DIRECTORY, w + 4, PMIX_STRING);
        else if (!strncmp(w, "bsize=", 6) && (v = (uint32_t)atoi(w + 6), 1))
            PMIX_INFO_LOAD(&d[n++], PMIX_IOF_BUFFERING_SIZE, &v, PMIX_UINT32);
        else if (!strncmp(w, "btime=", 6) && (v = (uint32_t)atoi(w + 6), 1))
            PMIX_INFO_LOAD(&d[n++], PMIX_IOF_BUFFERING_TIME, &v, PMIX_UINT32);
        else if (!strcmp(w, "nocb")) *nocb = true;
        else fprintf(stderr, "tool_iof: unknown format word %s\n", w), exit(2);
    }
    return n;
}

static void Show(const char *job, int nprocs, int nlines, const char *which, int argc, char **argv) {
    pmix_iof_channel_t ch = !strcmp(which, "out") ? PMIX_FWD_STDOUT_CHANNEL
                          : !strcmp(which, "err") ? PMIX_FWD_STDERR_CHANNEL
                                                  : (PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL);
    int nch = ch == (PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL) ? 2 : 1;
    pmix_info_t d[16];
    bool nocb = false;
    size_t n = Directives(argc, argv, d, &nocb);
    pmix_status_t h1 = Pull(job, PMIX_RANK_WILDCARD, ch, d, n, nocb ? NULL : Collect);
    pmix_status_t h2 = Pull(job, PMIX_RANK_WILDCARD, ch, NULL, 0, Counting);
    Report("pull", h1 >= 0 && h2 >= 0 && h1 != h2, "pull failed");
    Release(job);
    Report("complete", WaitCompletes(nprocs * nch, NULL), "the streams did not all end");
    pmix_status_t d1 = PMIx_IOF_deregister((size_t)h1, NULL, 0, NULL, NULL);
    pmix_status_t d2 = PMIx_IOF_deregister((size_t)h2, NULL, 0, NULL, NULL);
    Report("deregister", d1 == PMIX_SUCCESS && d2 == PMIX_SUCCESS,
           PMIx_Error_string(d1 != PMIX_SUCCESS ? d1 : d2));
    Report("deregister-twice", PMIx_IOF_deregister((size_t)h1, NULL, 0, NULL, NULL) != PMIX_SUCCESS,
           "a second deregistration succeeded");
    for (size_t i = 0; i < n; ++i) PMIX_INFO_DESTRUCT(&d[i]); /* file=, dir= hold copies */
    if (nocb || !(ch & PMIX_FWD_STDOUT_CHANNEL)) return;
    for (int r = 0; r < nprocs; ++r) {
        char want[4096] = "";
        for (int i = 1; i <= nlines; ++i) {
            size_t len = strlen(want);
            snprintf(want + len, sizeof want - len, "out %d %d%s", r, i, i < nlines ? "\n" : "");
        }
        bool ok = raw[r] != NULL && strcmp(raw[r], want) == 0;
        Report("raw-callback-data", ok, raw[r] ? raw[r] : "(nothing)");
    }
}

static long PeakKb(const char *pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%s/status", pid);
    FILE *f = fopen(path, "r");
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6)) kb = atol(line + 6);
    if (f) fclose(f);
    return kb;
}

static void BulkMode(const char *pid, const char *job, int nprocs, unsigned long long bytes) {
    pmix_status_t h = Pull(job, PMIX_RANK_WILDCARD, PMIX_FWD_STDOUT_CHANNEL, NULL, 0, Bulk);
    Report("pull", h >= 0, PMIx_Error_string(h));
    Release(job);
    Report("complete", WaitCompletes(nprocs, pid), "the streams did not all end");
    for (int r = 0; r < nprocs; ++r)
        Report("all-bytes", bulk_bytes[r] == bytes, "a rank's byte count differs");
    Report("in-order", !bulk_bad, "bytes out of order or changed");
    printf("VMHWM %ld\n", peak_kb);
}

static void PushMode(const char *job, bool own_stdin) {
    pmix_status_t h = Pull(job, 0, PMIX_FWD_STDOUT_CHANNEL, NULL, 0, Collect);
    pmix_status_t h2 = Pull(job, 0, PMIX_FWD_STDOUT_CHANNEL, NULL, 0, Counting);
    Report("pull", h >= 0 && h2 >= 0, "pull failed");
    Release(job);
    pmix_proc_t rank0;
    PMIX_LOAD_PROCID(&rank0, job, 0);
    pmix_info_t dir;
    bool yes = true;
    pmix_status_t rc;
    if (own_stdin) {
        PMIX_INFO_LOAD(&dir, PMIX_IOF_PUSH_STDIN, &yes, PMIX_BOOL);
        rc = PMIx_IOF_push(&rank0, 1, NULL, &dir, 1, NULL, NULL);
        Report("push-stdin", rc == PMIX_SUCCESS, PMIx_Error_string(rc));
    } else {
        pmix_byte_object_t a = {"hello tool\n", 11}, b = {"second line\n", 12};
        rc = PMIx_IOF_push(&rank0, 1, &a, NULL, 0, NULL, NULL);
        Report("push-1", rc == PMIX_SUCCESS, PMIx_Error_string(rc));
        rc = PMIx_IOF_push(&rank0, 1, &b, NULL, 0, NULL, NULL);
        Report("push-2", rc == PMIX_SUCCESS, PMIx_Error_string(rc));
        PMIX_INFO_LOAD(&dir, PMIX_IOF_COMPLETE, &yes, PMIX_BOOL);
        rc = PMIx_IOF_push(&rank0, 1, NULL, &dir, 1, NULL, NULL);
        Report("push-eof", rc == PMIX_SUCCESS, PMIx_Error_string(rc));
    }
    PMIX_INFO_DESTRUCT(&dir);
    Report("complete", WaitCompletes(1, NULL), "rank 0's stdout did not end");
    const char *want = "hello tool\nsecond line\n";
    Report("echo", raw[0] != NULL && strcmp(raw[0], want) == 0, raw[0] ? raw[0] : "(nothing)");
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: tool_iof PID JOB NPROCS MODE ...\n");
        return 2;
    }
    pid_t pid = (pid_t)atoi(argv[1]);
    int nprocs = atoi(argv[3]);
    pmix_info_t info[3];
    bool yes = true;
    int timeout = 30;
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_PIDINFO, &pid, PMIX_PID);
    PMIX_INFO_LOAD(&info[1], PMIX_WAIT_FOR_CONNECTION, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[2], PMIX_TIMEOUT, &timeout, PMIX_INT);
    pmix_proc_t me;
    pmix_status_t rc = PMIx_tool_init(&me, info, 3);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "FAIL tool init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    const char *mode = argv[4];
    if (!strcmp(mode, "show") && argc > 6) Show(argv[2], nprocs, atoi(argv[5]), argv[6], argc - 7, argv + 7);
    else if (!strcmp(mode, "bulk") && argc > 5) BulkMode(argv[1], argv[2], nprocs, strtoull(argv[5], NULL, 10));
    else if (!strcmp(mode, "push")) PushMode(argv[2], false);
    else if (!strcmp(mode, "pushstdin")) PushMode(argv[2], true);
    else fprintf(stderr, "tool_iof: bad mode %s\n", mode), failures++;
    PMIx_tool_finalize();
    for (int i = 0; i < 3; ++i) PMIX_INFO_DESTRUCT(&info[i]);
    for (int r = 0; r < kMaxRanks; ++r) free(raw[r]);
    return failures ? 1 : 0;
}
