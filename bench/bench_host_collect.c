/*
 * pmix_bench host: collection of the clients' result lines and reaping.
 * See bench_host.h.
 */
#define _XOPEN_SOURCE 700

#include "bench_host.h"

#include "bench_host_module.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Seconds the other clients get to report once one reported a failure. */
enum { kGraceS = 3 };

/* Index of a rank of this node among its clients, or -1. */
static int LocalIndex(const Host *h, int rank)
{
    int first = (int)BenchFirstRank(h->opt);
    return rank >= first && rank < first + h->opt->nprocs ? rank - first : -1;
}

/* "init <rank>": counts it; the last one samples the host's RSS. */
static int TakeInitLine(Host *h, const char *line)
{
    char tag[16];
    int rank;
    if (2 != sscanf(line, "%15s %d", tag, &rank) || (rank = LocalIndex(h, rank)) < 0 ||
        h->inited[rank]) {
        fprintf(stderr, "pmix_bench host: bad init line '%s'\n", line);
        return -1;
    }
    h->inited[rank] = 1;
    if (++h->ninited == h->opt->nprocs) {
        h->host[kHostRssConn] = (double)BenchStatusKib("VmRSS:");
    }
    return 0;
}

/* Parses one result line; returns 0 if it is well formed. A failed client
 * only shortens the deadline: the others' partial results are still wanted. */
static int TakeLine(Host *h, const char *line)
{
    char tag[16];
    const char *p = line;
    char *end;
    int rank, idx = -1, status, used, m, nm = BenchMetricCount(h->opt);
    double v[kMetricFixed + kBlobMetrics * BENCH_MAX_BLOBS];
    if (0 == strncmp(line, BENCH_INIT_TAG " ", sizeof(BENCH_INIT_TAG))) {
        return TakeInitLine(h, line);
    }
    if (3 != sscanf(line, "%15s %d %d%n", tag, &rank, &status, &used) ||
        0 != strcmp(tag, BENCH_LINE_TAG) || (idx = LocalIndex(h, rank)) < 0 || h->reported[idx]) {
        fprintf(stderr, "pmix_bench host: bad result line '%s'\n", line);
        return -1;
    }
    for (p = line + used, m = 0; m < nm; ++m, p = end) {
        v[m] = strtod(p, &end);
        if (end == p) {
            fprintf(stderr, "pmix_bench host: short result line '%s'\n", line);
            return -1;
        }
    }
    h->reported[idx] = 1;
    ++h->nreported;
    for (m = 0; m < nm; ++m) {
        h->values[m * h->opt->nprocs + idx] = v[m];
    }
    if (0 != status && h->failed_rank < 0) {
        fprintf(stderr, "pmix_bench host: client %d failed at step %d\n", rank, status);
        h->failed_rank = rank;
        h->failed_step = status;
        if (h->deadline > BenchRealNow() + kGraceS) {
            h->deadline = BenchRealNow() + kGraceS;
        }
    }
    return 0;
}

/* Reaps exited clients; returns -1 if one failed or left without reporting. */
int BenchReap(Host *h, int options)
{
    int r, failed = 0;
    for (r = 0; r < h->opt->nprocs; ++r) {
        int st;
        pid_t got;
        if (h->exited[r]) {
            continue;
        }
        got = h->pids[r] > 0 ? waitpid(h->pids[r], &st, options) : -1;
        if (got <= 0) {
            continue;
        }
        h->exited[r] = 1;
        h->pids[r] = 0;
        if (!WIFEXITED(st) || 0 != WEXITSTATUS(st) || !h->reported[r]) {
            fprintf(stderr, "pmix_bench host: client %d ended badly (%s %d)\n", r,
                    WIFEXITED(st) ? "exit" : "signal",
                    WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
            failed = 1;
        }
    }
    return failed ? -1 : 0;
}

/* Buffered reader of the result pipe. */
typedef struct {
    int fd;
    size_t used;
    char buf[BENCH_LINE_MAX * 4];
} LineReader;

/* Reads what arrives within wait_ms and takes every complete line.
 * Returns 1 if data came, 0 if none, -1 on EOF, a bad line or an error. */
static int ReadLines(Host *h, LineReader *in, int wait_ms)
{
    struct pollfd pfd = {in->fd, POLLIN, 0};
    ssize_t got;
    char *nl;
    if (poll(&pfd, 1, wait_ms) <= 0) {
        return 0;
    }
    got = read(in->fd, in->buf + in->used, sizeof(in->buf) - 1 - in->used);
    if (got <= 0) {
        fprintf(stderr, "pmix_bench host: result pipe closed early\n");
        return -1;
    }
    in->used += (size_t)got;
    in->buf[in->used] = '\0';
    while (NULL != (nl = strchr(in->buf, '\n'))) {
        *nl = '\0';
        if (0 != TakeLine(h, in->buf)) {
            return -1;
        }
        in->used -= (size_t)(nl + 1 - in->buf);
        memmove(in->buf, nl + 1, in->used + 1);
    }
    return in->used + 1 < sizeof(in->buf) ? 1 : -1; /* full: no line is this long */
}

/* Whether a client exited without reporting. */
static int AnyLost(const Host *h)
{
    int r;
    for (r = 0; r < h->opt->nprocs; ++r) {
        if (h->exited[r] && !h->reported[r]) {
            return 1;
        }
    }
    return 0;
}

/* Reads result lines until every client reported, one died without
 * reporting, or the deadline passed. */
int BenchCollect(Host *h, int read_fd)
{
    LineReader in;
    in.fd = read_fd;
    in.used = 0;
    while (h->nreported < h->opt->nprocs) {
        int rc;
        if (BenchRealNow() > h->deadline) {
            fprintf(stderr, "pmix_bench host: %s\n", h->failed_rank < 0
                                                          ? "timeout waiting for results"
                                                          : "no more results after the failure");
            return -1;
        }
        rc = ReadLines(h, &in, 200);
        if (0 == rc) {
            (void)BenchReap(h, WNOHANG);
            /* A line written just before exiting is in the pipe by now. */
            while (AnyLost(h) && 1 == (rc = ReadLines(h, &in, 0))) {
            }
            if (AnyLost(h)) {
                return -1;
            }
        }
        if (rc < 0) {
            return -1;
        }
    }
    return 0;
}
