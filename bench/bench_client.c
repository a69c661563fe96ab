/*
 * pmix_bench client role: measures one process's view of the library.
 *
 * Steps (status code on failure in brackets):
 *   PMIx_Init [1]; K x Get(PMIX_JOB_SIZE, wildcard) [2]; the modex:
 *   Put + Commit + Fence(PMIX_COLLECT_DATA) + Get of every peer's blob, each
 *   compared with the blob that peer must have put [3]; VmRSS; K x Get of
 *   rank (r+1)%N's blob [4]; K x barrier Fence [5]; PMIx_Finalize [6].
 * An untimed barrier precedes each timed phase [same step number].
 * The result line goes to --fd in one write() (< PIPE_BUF, so lines from
 * concurrent clients never interleave). SIGALRM bounds the whole run.
 */
#define _XOPEN_SOURCE 700

#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h> /* OpenPMIx's pmix_common.h uses strncasecmp */

#include <pmix.h>
#include <unistd.h>

typedef struct {
    pmix_proc_t me;
    pmix_proc_t wildcard;
    uint32_t size;
    const BenchOptions *opt;
    uint8_t *expect;  /* scratch buffer of blob_size bytes */
    double metric[kMetricCount];
} Client;

static void LoadProc(pmix_proc_t *proc, const char *nspace, pmix_rank_t rank)
{
    memset(proc, 0, sizeof(*proc));
    snprintf(proc->nspace, sizeof(proc->nspace), "%s", nspace);
    proc->rank = rank;
}

static void ReleaseValue(pmix_value_t *val)
{
    if (NULL != val) {
        PMIx_Value_destruct(val);
        free(val);
    }
}

/* Reads PMIX_JOB_SIZE once and checks it against the host's N. */
static int CheckJobSize(Client *c)
{
    pmix_value_t *val = NULL;
    pmix_status_t rc = PMIx_Get(&c->wildcard, PMIX_JOB_SIZE, NULL, 0, &val);
    int ok = PMIX_SUCCESS == rc && NULL != val && PMIX_UINT32 == val->type &&
             val->data.uint32 == (uint32_t)c->opt->nprocs;
    if (!ok) {
        fprintf(stderr, "pmix_bench client %u: PMIX_JOB_SIZE: %s (type %d)\n", c->me.rank,
                PMIx_Error_string(rc), NULL == val ? -1 : (int)val->type);
    } else {
        c->size = val->data.uint32;
    }
    ReleaseValue(val);
    return ok ? 0 : -1;
}

static int TimeGetJob(Client *c)
{
    double t0;
    int i;
    if (0 != CheckJobSize(c)) {
        return -1;
    }
    t0 = BenchNowUs();
    for (i = 0; i < c->opt->iters; ++i) {
        pmix_value_t *val = NULL;
        if (PMIX_SUCCESS != PMIx_Get(&c->wildcard, PMIX_JOB_SIZE, NULL, 0, &val)) {
            fprintf(stderr, "pmix_bench client %u: Get(JOB_SIZE) failed\n", c->me.rank);
            return -1;
        }
        ReleaseValue(val);
    }
    c->metric[kMetricGetJob] = (BenchNowUs() - t0) / c->opt->iters;
    return 0;
}

/* Gets rank's blob; when verify is set, compares it with the expected bytes. */
static int GetBlob(Client *c, uint32_t rank, int verify)
{
    pmix_proc_t peer;
    pmix_value_t *val = NULL;
    pmix_status_t rc;
    int ok;
    LoadProc(&peer, c->me.nspace, rank);
    rc = PMIx_Get(&peer, BENCH_BLOB_KEY, NULL, 0, &val);
    ok = PMIX_SUCCESS == rc && NULL != val;
    if (ok && verify) {
        BenchFillBlob(c->expect, c->opt->blob_size, rank);
        ok = PMIX_BYTE_OBJECT == val->type && val->data.bo.size == c->opt->blob_size &&
             0 == memcmp(val->data.bo.bytes, c->expect, c->opt->blob_size);
    }
    if (!ok && PMIX_SUCCESS != rc) {
        fprintf(stderr, "pmix_bench client %u: Get blob of rank %u: %s\n", c->me.rank, rank,
                PMIx_Error_string(rc));
    } else if (!ok) {
        fprintf(stderr, "pmix_bench client %u: blob of rank %u differs from what it put"
                " (type %d, %zu bytes)\n", c->me.rank, rank, NULL == val ? -1 : (int)val->type,
                NULL == val ? (size_t)0 : val->data.bo.size);
    }
    ReleaseValue(val);
    return ok ? 0 : -1;
}

static int Modex(Client *c)
{
    pmix_value_t blob;
    pmix_info_t collect;
    bool yes = true;
    pmix_status_t rc;
    uint32_t r;
    double t0;
    uint8_t *mine = malloc(c->opt->blob_size);
    if (NULL == mine) {
        return -1;
    }
    BenchFillBlob(mine, c->opt->blob_size, c->me.rank);
    memset(&blob, 0, sizeof(blob));
    blob.type = PMIX_BYTE_OBJECT;
    blob.data.bo.bytes = (char *)mine;
    blob.data.bo.size = c->opt->blob_size;
    memset(&collect, 0, sizeof(collect));
    PMIx_Info_load(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);

    t0 = BenchNowUs();
    rc = PMIx_Put(PMIX_GLOBAL, BENCH_BLOB_KEY, &blob);
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Commit();
    }
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Fence(&c->wildcard, 1, &collect, 1);
    }
    free(mine);
    PMIx_Value_destruct(&collect.value);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "pmix_bench client %u: Put/Commit/Fence: %s\n", c->me.rank,
                PMIx_Error_string(rc));
        return -1;
    }
    for (r = 0; r < c->size; ++r) {
        if (r != c->me.rank && 0 != GetBlob(c, r, 1)) {
            return -1;
        }
    }
    c->metric[kMetricModex] = BenchNowUs() - t0;
    /* Our own blob must read back too (outside the timed region). */
    return GetBlob(c, c->me.rank, 1);
}

static int TimeGetPeer(Client *c)
{
    uint32_t peer = (c->me.rank + 1) % c->size;
    double t0 = BenchNowUs();
    int i;
    for (i = 0; i < c->opt->iters; ++i) {
        if (0 != GetBlob(c, peer, 0)) {
            return -1;
        }
    }
    c->metric[kMetricGetPeer] = (BenchNowUs() - t0) / c->opt->iters;
    return GetBlob(c, peer, 1);
}

static int TimeFence(Client *c)
{
    double t0 = BenchNowUs();
    int i;
    for (i = 0; i < c->opt->iters; ++i) {
        pmix_status_t rc = PMIx_Fence(NULL, 0, NULL, 0);
        if (PMIX_SUCCESS != rc) {
            fprintf(stderr, "pmix_bench client %u: barrier Fence: %s\n", c->me.rank,
                    PMIx_Error_string(rc));
            return -1;
        }
    }
    c->metric[kMetricFence] = (BenchNowUs() - t0) / c->opt->iters;
    return 0;
}

static void Report(const Client *c, int status)
{
    char line[BENCH_LINE_MAX];
    int len = snprintf(line, sizeof(line), "%s %u %d %.3f %.3f %.3f %.3f %.3f %.0f\n",
                       BENCH_LINE_TAG, c->me.rank, status, c->metric[kMetricInit],
                       c->metric[kMetricGetJob], c->metric[kMetricGetPeer],
                       c->metric[kMetricFence], c->metric[kMetricModex], c->metric[kMetricRss]);
    if (c->opt->result_fd >= 0 && len > 0 && len < (int)sizeof(line)) {
        if (write(c->opt->result_fd, line, (size_t)len) != (ssize_t)len) {
            perror("pmix_bench client: write result");
        }
        close(c->opt->result_fd);
    }
}

/* An untimed barrier before each phase, so that no phase measures the
 * launch skew of the clients or the tail of the previous phase. */
static int Align(Client *c)
{
    pmix_status_t rc = PMIx_Fence(NULL, 0, NULL, 0);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "pmix_bench client %u: barrier Fence: %s\n", c->me.rank,
                PMIx_Error_string(rc));
    }
    return PMIX_SUCCESS == rc ? 0 : -1;
}

/* Runs the measured steps; returns 0 or the number of the failing step. */
static int RunSteps(Client *c)
{
    if (0 != Align(c) || 0 != TimeGetJob(c)) {
        return 2;
    }
    if (0 != Align(c) || 0 != Modex(c)) {
        return 3;
    }
    c->metric[kMetricRss] = (double)BenchRssKib();
    if (0 != Align(c) || 0 != TimeGetPeer(c)) {
        return 4;
    }
    return 0 != Align(c) || 0 != TimeFence(c) ? 5 : 0;
}

int BenchClientMain(const BenchOptions *opt)
{
    Client c;
    pmix_status_t rc;
    double t0;
    int status, m;

    memset(&c, 0, sizeof(c));
    c.opt = opt;
    for (m = 0; m < kMetricCount; ++m) {
        c.metric[m] = NAN;  /* "nan" on the line: not measured */
    }
    /* Default action: terminate. Later than the host's own deadline, so the
     * host normally sees and reports a timeout first. */
    alarm((unsigned)opt->timeout_s + 10);
    c.expect = malloc(opt->blob_size);
    if (NULL == c.expect) {
        return 1;
    }
    t0 = BenchNowUs();
    rc = PMIx_Init(&c.me, NULL, 0);
    c.metric[kMetricInit] = BenchNowUs() - t0;
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "pmix_bench client: PMIx_Init: %s\n", PMIx_Error_string(rc));
        Report(&c, 1);
        return 1;
    }
    LoadProc(&c.wildcard, c.me.nspace, PMIX_RANK_WILDCARD);
    status = RunSteps(&c);
    rc = PMIx_Finalize(NULL, 0);
    if (0 == status && PMIX_SUCCESS != rc) {
        fprintf(stderr, "pmix_bench client %u: PMIx_Finalize: %s\n", c.me.rank,
                PMIx_Error_string(rc));
        status = 6;
    }
    Report(&c, status);
    free(c.expect);
    return 0 == status ? 0 : 1;
}
