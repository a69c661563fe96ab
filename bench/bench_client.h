/*
 * pmix_bench client role: the state of one client and its measured phases
 * (bench_client_get.c: job and proc keys; bench_client_blob.c: blob
 * fences). Every phase checks each value it reads against what the job's
 * layout (bench.h) says it must be and returns -1 after printing the
 * mismatch to stderr; timings cover the PMIx call alone, never the check.
 * Single-threaded.
 */
#ifndef PMIXX_BENCH_BENCH_CLIENT_H
#define PMIXX_BENCH_BENCH_CLIENT_H

#include "bench.h"

#include <strings.h> /* OpenPMIx's pmix_common.h uses strncasecmp */

#include <pmix.h>

typedef struct {
    pmix_proc_t me;
    pmix_proc_t wildcard;
    const BenchOptions *opt;
    double *samples;  /* scratch: max(iters, nprocs * passes) timings */
    size_t nsamples;
    double metric[kMetricFixed + kBlobMetrics * BENCH_MAX_BLOBS];
} Client;

/* K timed Gets each of PMIX_JOB_SIZE (wildcard) and of PMIX_HOSTNAME,
 * PMIX_NODEID, PMIX_LOCAL_RANK of ranks spread over the whole job;
 * stores the p50/p99 metrics. */
int BenchClientGets(Client *c);

/* For each blob size: Put + Commit (untimed), a barrier, the timed
 * Fence(PMIX_COLLECT_DATA), then the first and repeated Gets of every local
 * peer's blob, each compared with what that peer put; then R (--repeat)
 * isolated fences (commit, barrier, timed fence, barrier), their median
 * stored, and with R > 1 one more checked Get of every peer's blob. */
int BenchClientBlobs(Client *c);

/* An untimed barrier, so that no phase measures the launch skew of the
 * clients or the tail of the previous phase. */
int BenchAlign(Client *c);

/* Fills proc with (nspace, rank). */
void BenchLoadProc(pmix_proc_t *proc, const char *nspace, pmix_rank_t rank);

/* PMIx_Value_destruct + free; NULL is fine. */
void BenchReleaseValue(pmix_value_t *val);

#endif /* PMIXX_BENCH_BENCH_CLIENT_H */
