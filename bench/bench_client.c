/*
 * pmix_bench client role: measures one process's view of the library.
 *
 * Steps (status code on failure in brackets):
 *   PMIx_Init, checked rank and nspace [1]; VmRSS/VmHWM; the timed Gets of
 *   bench_client_get.c [2]; F barrier fences [3]; the blob fences of
 *   bench_client_blob.c [4]; VmRSS/VmHWM; PMIx_Finalize [5].
 * An untimed barrier precedes each timed phase [same step number].
 * Result lines go to --fd, each in one write(). SIGALRM bounds the run.
 */
#define _XOPEN_SOURCE 700

#include "bench_client.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void BenchLoadProc(pmix_proc_t *proc, const char *nspace, pmix_rank_t rank)
{
    memset(proc, 0, sizeof(*proc));
    snprintf(proc->nspace, sizeof(proc->nspace), "%s", nspace);
    proc->rank = rank;
}

void BenchReleaseValue(pmix_value_t *val)
{
    if (NULL != val) {
        PMIx_Value_destruct(val);
        free(val);
    }
}

int BenchAlign(Client *c)
{
    pmix_status_t rc = PMIx_Fence(NULL, 0, NULL, 0);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "pmix_bench client %u: barrier Fence: %s\n", c->me.rank,
                PMIx_Error_string(rc));
    }
    return PMIX_SUCCESS == rc ? 0 : -1;
}

static int TimeBarrier(Client *c)
{
    double t0 = BenchNowUs();
    int i;
    for (i = 0; i < c->opt->fences; ++i) {
        pmix_status_t rc = PMIx_Fence(NULL, 0, NULL, 0);
        if (PMIX_SUCCESS != rc) {
            fprintf(stderr, "pmix_bench client %u: barrier Fence: %s\n", c->me.rank,
                    PMIx_Error_string(rc));
            return -1;
        }
    }
    c->metric[kMetricBarrier] = (BenchNowUs() - t0) / c->opt->fences;
    return 0;
}

static void WriteLine(const Client *c, const char *line, int len)
{
    if (c->opt->result_fd >= 0 && len > 0 && len < BENCH_LINE_MAX) {
        if (write(c->opt->result_fd, line, (size_t)len) != (ssize_t)len) {
            perror("pmix_bench client: write result");
        }
    }
}

static void Report(const Client *c, int status)
{
    char line[BENCH_LINE_MAX];
    int len = snprintf(line, sizeof(line), "%s %u %d", BENCH_LINE_TAG, c->me.rank, status);
    int m, nm = BenchMetricCount(c->opt);
    for (m = 0; m < nm && len > 0 && len < (int)sizeof(line); ++m) {
        len += snprintf(line + len, sizeof(line) - (size_t)len, " %.3f", c->metric[m]);
    }
    if (len > 0 && len + 1 < (int)sizeof(line)) {
        line[len++] = '\n';
        WriteLine(c, line, len);
    }
}

static void Memory(Client *c, int rss, int hwm)
{
    c->metric[rss] = (double)BenchStatusKib("VmRSS:");
    c->metric[hwm] = (double)BenchStatusKib("VmHWM:");
}

/* Runs the measured steps; returns 0 or the number of the failing step. */
static int RunSteps(Client *c)
{
    if (0 != BenchClientGets(c)) {
        return 2;
    }
    if (0 != BenchAlign(c) || 0 != TimeBarrier(c)) {
        return 3;
    }
    if (0 != BenchClientBlobs(c)) {
        return 4;
    }
    Memory(c, kMetricRssEnd, kMetricHwmEnd);
    return 0 != BenchAlign(c) ? 4 : 0;
}

/* PMIx_Init, timed; 0 if we are one of the N local ranks of our job. */
static int Init(Client *c)
{
    char line[64];
    double t0 = BenchNowUs();
    pmix_status_t rc = PMIx_Init(&c->me, NULL, 0);
    c->metric[kMetricInit] = BenchNowUs() - t0;
    if (PMIX_SUCCESS != rc) {
        /* Our rank for the result line: the one the host's setup_fork gave. */
        const char *env = getenv("PMIX_RANK");
        c->me.rank = NULL != env ? (pmix_rank_t)strtoul(env, NULL, 10) : 0;
        fprintf(stderr, "pmix_bench client %u: PMIx_Init: %s\n", c->me.rank,
                PMIx_Error_string(rc));
        return -1;
    }
    Memory(c, kMetricRssInit, kMetricHwmInit);
    WriteLine(c, line, snprintf(line, sizeof(line), "%s %u\n", BENCH_INIT_TAG, c->me.rank));
    if (c->me.rank < BenchFirstRank(c->opt) ||
        c->me.rank >= BenchFirstRank(c->opt) + (pmix_rank_t)c->opt->nprocs) {
        fprintf(stderr, "pmix_bench client: PMIx_Init gave rank %u, not one of node %d's %d\n",
                c->me.rank, c->opt->node, c->opt->nprocs);
        return -1;
    }
    BenchLoadProc(&c->wildcard, c->me.nspace, PMIX_RANK_WILDCARD);
    return 0;
}

int BenchClientMain(const BenchOptions *opt)
{
    Client c;
    pmix_status_t rc;
    double t0;
    int status, m;

    memset(&c, 0, sizeof(c));
    c.opt = opt;
    for (m = 0; m < BenchMetricCount(opt); ++m) {
        c.metric[m] = NAN; /* "nan" on the line: not measured */
    }
    /* Default action: terminate. Later than the host's own deadline, so the
     * host normally sees and reports a timeout first. */
    alarm((unsigned)opt->timeout_s + 10);
    c.nsamples = (size_t)opt->iters;
    if (NULL == (c.samples = calloc(c.nsamples, sizeof(*c.samples)))) {
        return 1;
    }
    if (0 != Init(&c)) {
        Report(&c, 1);
        free(c.samples);
        return 1;
    }
    status = RunSteps(&c);
    t0 = BenchNowUs();
    rc = PMIx_Finalize(NULL, 0);
    c.metric[kMetricFinalize] = BenchNowUs() - t0;
    if (0 == status && PMIX_SUCCESS != rc) {
        fprintf(stderr, "pmix_bench client %u: PMIx_Finalize: %s\n", c.me.rank,
                PMIx_Error_string(rc));
        status = 5;
    }
    Report(&c, status);
    if (opt->result_fd >= 0) {
        close(opt->result_fd);
    }
    free(c.samples);
    return 0 == status ? 0 : 1;
}
