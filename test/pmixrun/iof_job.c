/*
 * iof_job MODE: a job process for the IO forwarding tests (tool_iof.c).
 * It waits (at most 60 s) for a tool's release event (kToolRelease), then:
 *   lines N   writes "out <rank> <i>" to stdout and "err <rank> <i>" to
 *             stderr for i = 1..N, the last stdout line without its newline
 *   bulk B    writes B bytes to stdout: the byte i is 'a' + i % 26
 *   echo      copies stdin to stdout until end of file
 * and finalizes; exit 1 when no release came.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pmix.h>

#define kToolRelease (PMIX_EXTERNAL_ERR_BASE - 11)

/* Set by the event handler (progress thread), polled by main: atomic. */
static int released;

static void OnRelease(size_t id, pmix_status_t status, const pmix_proc_t *source,
                      pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                      pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata) {
    (void)id, (void)status, (void)source, (void)info, (void)ninfo, (void)results, (void)nresults;
    __atomic_store_n(&released, 1, __ATOMIC_RELEASE);
    if (cbfunc) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

static void WriteAll(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w <= 0) exit(3);
        p += w;
        n -= (size_t)w;
    }
}

int main(int argc, char **argv) {
    pmix_proc_t me;
    if (argc < 2 || PMIx_Init(&me, NULL, 0) != PMIX_SUCCESS) return 2;
    pmix_status_t code = kToolRelease;
    PMIx_Register_event_handler(&code, 1, NULL, 0, OnRelease, NULL, NULL);
    const struct timespec tick = {0, 10000000L};
    for (int i = 0; i < 6000 && !__atomic_load_n(&released, __ATOMIC_ACQUIRE); ++i)
        nanosleep(&tick, NULL);
    if (!__atomic_load_n(&released, __ATOMIC_ACQUIRE)) {
        fprintf(stderr, "iof_job %u: no release\n", me.rank);
        return 1;
    }
    if (strcmp(argv[1], "lines") == 0 && argc > 2) {
        int n = atoi(argv[2]);
        char line[128];
        for (int i = 1; i <= n; ++i) {
            int len = snprintf(line, sizeof line, "out %u %d%s", me.rank, i, i < n ? "\n" : "");
            WriteAll(1, line, (size_t)len);
            len = snprintf(line, sizeof line, "err %u %d\n", me.rank, i);
            WriteAll(2, line, (size_t)len);
        }
    } else if (strcmp(argv[1], "bulk") == 0 && argc > 2) {
        unsigned long long total = strtoull(argv[2], NULL, 10), done = 0;
        /* a multiple of 26 long: every chunk starts the pattern afresh */
        static char buf[26 * 2520];
        for (size_t i = 0; i < sizeof buf; ++i) buf[i] = (char)('a' + i % 26);
        while (done < total) {
            size_t n = total - done < sizeof buf ? (size_t)(total - done) : sizeof buf;
            WriteAll(1, buf, n);
            done += n;
        }
    } else if (strcmp(argv[1], "echo") == 0) {
        char buf[4096];
        ssize_t n;
        while ((n = read(0, buf, sizeof buf)) > 0) WriteAll(1, buf, (size_t)n);
    }
    PMIx_Finalize(NULL, 0);
    return 0;
}
