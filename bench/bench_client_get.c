/*
 * pmix_bench client: timed Gets of a job key and of other procs' keys.
 * See bench_client.h.
 *
 * Each key gets K individually timed Gets; p50 and p99 are this client's
 * quantiles. The proc keys are read for pseudo-random ranks over the whole
 * job (a different stream per key and per client), so at S = 100k almost
 * every read is of a remote proc seen for the first time, as in an MPI
 * library's start-up.
 *
 * One exception to "every miss fails": OpenPMIx 4.2 treats PMIX_NODEID as a
 * node-level key, looks it up in the info list of the proc's node, where it
 * keeps the node's id apart, and answers NOT-FOUND for the procs of other
 * nodes. On a library whose version string starts with "OpenPMIx", that
 * answer leaves get_nodeid unmeasured (n/a) instead of failing the run.
 */
#define _XOPEN_SOURCE 700

#include "bench_client.h"

#include <stdio.h>
#include <string.h>

/* What a Get must return for (rank, key). */
typedef enum { kKeyJobSize, kKeyHostName, kKeyNodeId, kKeyLocalRank } KeyKind;

typedef struct {
    const char *key;
    KeyKind kind;
    int p50, p99; /* metric slots */
    uint32_t seed;
} KeySpec;

static const KeySpec kKeys[] = {
    {PMIX_JOB_SIZE, kKeyJobSize, kMetricJob50, kMetricJob99, 0},
    {PMIX_HOSTNAME, kKeyHostName, kMetricHost50, kMetricHost99, 0x51ed27u},
    {PMIX_NODEID, kKeyNodeId, kMetricNode50, kMetricNode99, 0x2545f491u},
    {PMIX_LOCAL_RANK, kKeyLocalRank, kMetricLrank50, kMetricLrank99, 0x9e3779b9u},
};

/* Next rank of a key's stream (64-bit LCG, high bits). */
static uint32_t NextRank(uint64_t *x, uint32_t size)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((*x >> 33) % size);
}

/* 0 if val is what the job's layout says (rank, kind) must read. */
static int Check(const Client *c, KeyKind kind, uint32_t rank, const pmix_value_t *val)
{
    const BenchOptions *o = c->opt;
    char want[32];
    switch (kind) {
    case kKeyJobSize:
        return PMIX_UINT32 == val->type && val->data.uint32 == o->job_size ? 0 : -1;
    case kKeyHostName:
        BenchHostName(BenchNodeOf(o, rank), want, sizeof(want));
        return PMIX_STRING == val->type && NULL != val->data.string &&
                       0 == strcmp(val->data.string, want)
                   ? 0
                   : -1;
    case kKeyNodeId:
        return PMIX_UINT32 == val->type && val->data.uint32 == BenchNodeOf(o, rank) ? 0 : -1;
    default:
        return PMIX_UINT16 == val->type && val->data.uint16 == BenchLocalRankOf(o, rank) ? 0
                                                                                          : -1;
    }
}

static void Complain(const Client *c, const KeySpec *k, uint32_t rank, pmix_status_t rc,
                     const pmix_value_t *val)
{
    char text[64] = "";
    if (NULL != val && PMIX_STRING == val->type && NULL != val->data.string) {
        snprintf(text, sizeof(text), " \"%s\"", val->data.string);
    } else if (NULL != val && PMIX_UINT32 == val->type) {
        snprintf(text, sizeof(text), " %u", val->data.uint32);
    } else if (NULL != val && PMIX_UINT16 == val->type) {
        snprintf(text, sizeof(text), " %u", (unsigned)val->data.uint16);
    }
    fprintf(stderr, "pmix_bench client %u: Get(%s, rank %u): %s, type %d%s: wrong value\n",
            c->me.rank, k->key, rank, PMIx_Error_string(rc), NULL == val ? -1 : (int)val->type,
            text);
}

/* Whether (k, rc) is OpenPMIx's known gap described above. */
static int KnownGap(const KeySpec *k, pmix_status_t rc)
{
    return kKeyNodeId == k->kind && PMIX_ERR_NOT_FOUND == rc &&
           0 == strncmp(PMIx_Get_version(), "OpenPMIx", 8);
}

static int TimeKey(Client *c, const KeySpec *k)
{
    uint64_t x = k->seed ^ ((uint64_t)c->me.rank << 20);
    int i;
    for (i = 0; i < c->opt->iters; ++i) {
        pmix_proc_t target = c->wildcard;
        pmix_value_t *val = NULL;
        pmix_status_t rc;
        double t0;
        uint32_t rank = 0;
        if (kKeyJobSize != k->kind) {
            rank = NextRank(&x, c->opt->job_size);
            target.rank = rank;
        }
        t0 = BenchNowUs();
        rc = PMIx_Get(&target, k->key, NULL, 0, &val);
        c->samples[i] = BenchNowUs() - t0;
        if (KnownGap(k, rc)) {
            if (0 == c->me.rank) {
                fprintf(stderr, "pmix_bench client: %s answers NOT-FOUND for %s of rank %u:"
                        " %s not measured\n", PMIx_Get_version(), k->key, rank, k->key);
            }
            return 0;
        }
        if (PMIX_SUCCESS != rc || NULL == val || 0 != Check(c, k->kind, rank, val)) {
            Complain(c, k, rank, rc, val);
            BenchReleaseValue(val);
            return -1;
        }
        BenchReleaseValue(val);
    }
    c->metric[k->p50] = BenchQuantile(c->samples, c->opt->iters, 0.50);
    c->metric[k->p99] = BenchQuantile(c->samples, c->opt->iters, 0.99);
    return 0;
}

int BenchClientGets(Client *c)
{
    size_t i;
    for (i = 0; i < sizeof(kKeys) / sizeof(kKeys[0]); ++i) {
        if (0 != BenchAlign(c) || 0 != TimeKey(c, &kKeys[i])) {
            return -1;
        }
    }
    return 0;
}
