/*
 * pmix_bench client: the modex, two collect fences per blob size.
 * See bench_client.h.
 *
 * Per size: Put + Commit, a barrier, the timed fence (fence_<B>), the Gets
 * of every peer's blob (get1, get2; modex_<B>: from the fence's start to
 * the end of the first pass, checks included: when this process holds
 * every peer's data); then, R times (--repeat), the blob
 * committed again, a barrier, the same fence timed again and a barrier
 * (fenceiso_<B>: this client's median of the R). On a node with more
 * processes than cores the first measure holds what the processes released
 * first do meanwhile (their Gets compete for the CPUs with the release of
 * the others); the second is the fence alone. With R > 1 every peer's blob
 * is read once more (untimed) after the last repeat and checked: the data
 * a repeated fence delivers must be right too.
 *
 * Sizes run in the given order in one job, each under its own key, so a
 * library that re-sends earlier commits with every fence pays for it here
 * as a real application would. Peers are the ranks with processes: this
 * node's, and with --nodes 2 the other node's too (the hosts exchange the
 * fence contributions); the other nodes' ranks have no processes, and
 * their contributions are empty.
 */
#define _XOPEN_SOURCE 700

#include "bench_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Repeated Gets: at least this many in all, in whole passes over the peers. */
enum { kMinRepeats = 64 };

static void BlobKey(size_t size, char *key, size_t len)
{
    snprintf(key, len, "%s.%zu", BENCH_BLOB_KEY, size);
}

/* One timed Get of rank's blob into *us; compared with what rank put. */
static int GetBlob(Client *c, uint32_t rank, size_t size, double *us)
{
    pmix_proc_t peer;
    pmix_value_t *val = NULL;
    pmix_status_t rc;
    char key[PMIX_MAX_KEYLEN + 1];
    double t0;
    int ok;
    BlobKey(size, key, sizeof(key));
    BenchLoadProc(&peer, c->me.nspace, rank);
    t0 = BenchNowUs();
    rc = PMIx_Get(&peer, key, NULL, 0, &val);
    *us = BenchNowUs() - t0;
    ok = PMIX_SUCCESS == rc && NULL != val;
    ok = ok && PMIX_BYTE_OBJECT == val->type && val->data.bo.size == size &&
         BenchCheckBlob((const uint8_t *)val->data.bo.bytes, size, rank);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "pmix_bench client %u: Get %s of rank %u: %s\n", c->me.rank, key, rank,
                PMIx_Error_string(rc));
    } else if (!ok) {
        fprintf(stderr, "pmix_bench client %u: %s of rank %u differs from what it put"
                " (type %d, %zu bytes)\n", c->me.rank, key, rank,
                NULL == val ? -1 : (int)val->type, NULL == val ? (size_t)0 : val->data.bo.size);
    }
    BenchReleaseValue(val);
    return ok ? 0 : -1;
}

static int PutAndCommit(Client *c, size_t size)
{
    pmix_value_t blob;
    pmix_status_t rc;
    char key[PMIX_MAX_KEYLEN + 1];
    uint8_t *mine = malloc(size);
    if (NULL == mine) {
        return -1;
    }
    BlobKey(size, key, sizeof(key));
    BenchFillBlob(mine, size, c->me.rank);
    memset(&blob, 0, sizeof(blob));
    blob.type = PMIX_BYTE_OBJECT;
    blob.data.bo.bytes = (char *)mine;
    blob.data.bo.size = size;
    rc = PMIx_Put(PMIX_GLOBAL, key, &blob);
    free(mine);
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Commit();
    }
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "pmix_bench client %u: Put/Commit %s: %s\n", c->me.rank, key,
                PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

static int CollectFence(Client *c, double *us)
{
    pmix_info_t collect;
    bool yes = true;
    pmix_status_t rc;
    double t0;
    memset(&collect, 0, sizeof(collect));
    PMIx_Info_load(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    t0 = BenchNowUs();
    rc = PMIx_Fence(&c->wildcard, 1, &collect, 1);
    *us = BenchNowUs() - t0;
    PMIx_Value_destruct(&collect.value);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "pmix_bench client %u: Fence(collect): %s\n", c->me.rank,
                PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

/* passes over every peer (and, untimed, ourselves); mean us. */
static int GetPeers(Client *c, size_t size, int passes, double *mean)
{
    uint32_t n = BenchLiveRanks(c->opt), r;
    double sum = 0, us;
    int p, count = 0;
    for (p = 0; p < passes; ++p) {
        for (r = 0; r < n; ++r) {
            if (r == c->me.rank) {
                continue;
            }
            if (0 != GetBlob(c, r, size, &us)) {
                return -1;
            }
            sum += us;
            ++count;
        }
    }
    *mean = count > 0 ? sum / count : 0;
    /* Our own blob must read back too. */
    return GetBlob(c, c->me.rank, size, &us);
}

/* R times: the blob committed again (untimed), a barrier, the collect fence
 * timed into times[r], a barrier after it, so that no client runs anything
 * while others wait for their release. *median: the median of the R
 * (nearest rank: the lower one for an even R). */
static int IsolatedFences(Client *c, size_t size, double *times, double *median)
{
    int r;
    for (r = 0; r < c->opt->repeat; ++r) {
        if (0 != PutAndCommit(c, size) || 0 != BenchAlign(c) || 0 != CollectFence(c, &times[r]) ||
            0 != BenchAlign(c)) {
            return -1;
        }
    }
    *median = BenchQuantile(times, c->opt->repeat, 0.5);
    return 0;
}

static int OneSize(Client *c, int b, double *times)
{
    double unused;
    size_t size = c->opt->blobs[b];
    int npeers = (int)BenchLiveRanks(c->opt) - 1;
    int passes = npeers > 0 ? (kMinRepeats + npeers - 1) / npeers : 1;
    double t0;
    if (0 != PutAndCommit(c, size) || 0 != BenchAlign(c)) {
        return -1;
    }
    t0 = BenchNowUs();
    if (0 != CollectFence(c, &c->metric[BenchBlobIndex(b, kBlobFence)]) ||
        0 != GetPeers(c, size, 1, &c->metric[BenchBlobIndex(b, kBlobGetFirst)])) {
        return -1;
    }
    c->metric[BenchBlobIndex(b, kBlobModex)] = BenchNowUs() - t0;
    if (0 != GetPeers(c, size, passes, &c->metric[BenchBlobIndex(b, kBlobGetAgain)])) {
        return -1;
    }
    if (0 != IsolatedFences(c, size, times, &c->metric[BenchBlobIndex(b, kBlobFenceIso)])) {
        return -1;
    }
    /* R = 1 reads nothing more, as before --repeat existed. */
    return c->opt->repeat > 1 ? GetPeers(c, size, 1, &unused) : 0;
}

int BenchClientBlobs(Client *c)
{
    double *times = malloc((size_t)c->opt->repeat * sizeof(*times));
    int b, rc = 0;
    if (NULL == times) {
        return -1;
    }
    for (b = 0; 0 == rc && b < c->opt->nblobs; ++b) {
        rc = OneSize(c, b, times);
    }
    free(times);
    return rc;
}
