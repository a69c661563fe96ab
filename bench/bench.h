/*
 * pmix_bench: shared declarations of the client/server benchmark.
 *
 * One program, two roles (see bench/README.md):
 *   host   - a PMIx server (PMIx_server_init + a minimal host module) that
 *            registers a job of S procs over S/N nodes, N per node, of which
 *            node 0 (ranks 0..N-1) is this one; forks N copies of this
 *            program in the client role, gathers one result line from each
 *            through a pipe and prints the statistics;
 *   client - PMIx_Init, timed Gets of job and proc keys, blob fences,
 *            verifies every value it reads, writes one result line,
 *            PMIx_Finalize.
 * With S = N (the default) the job is a single node of N procs (the modex
 * mode); with S = 1000 x N it is a big job with N local clients (the
 * job-size mode). Same code, same checks.
 *
 * Only the public API (pmix.h, pmix_server.h) is used, so one binary runs on
 * any libpmix.so.2 with the 4.2 ABI: swap LD_LIBRARY_PATH.
 * Single-threaded except where bench_host_module.h says otherwise.
 */
#ifndef PMIXX_BENCH_BENCH_H
#define PMIXX_BENCH_BENCH_H

#include <stddef.h>
#include <stdint.h>

/* Prefix of the keys the clients put and read back: "bench.blob.<size>". */
#define BENCH_BLOB_KEY "bench.blob"

/* At most this many blob sizes in one run. */
#define BENCH_MAX_BLOBS 8

/* Command-line options of both roles. */
typedef struct {
    int nprocs;        /* N: local clients = procs per node */
    uint32_t job_size; /* S: procs in the job, a multiple of N (0: N) */
    int iters;         /* K timed Gets of each key */
    int fences;        /* timed barrier fences */
    int repeat;        /* R isolated collect fences per blob size (median) */
    size_t blobs[BENCH_MAX_BLOBS]; /* blob sizes, one collect fence each */
    int nblobs;
    int timeout_s;     /* bound on the whole run, seconds */
    int result_fd;     /* client: where its result lines go */
    int nodes;         /* nodes with processes: 1, or 2 (node 1 served by a
                        * second host the first one forks) */
    int node;          /* the node this host or client is on */
} BenchOptions;

/* ---- the job's layout: a pure function of (S, N) -------------------- */

/* Node of rank: ranks are placed by slot, N per node; node 0 is the
 * host's (and, with --nodes 2, node 1 its peer host's). */
static inline uint32_t BenchNodeOf(const BenchOptions *o, uint32_t rank)
{
    return rank / (uint32_t)o->nprocs;
}
static inline uint16_t BenchLocalRankOf(const BenchOptions *o, uint32_t rank)
{
    return (uint16_t)(rank % (uint32_t)o->nprocs);
}
static inline uint32_t BenchNumNodes(const BenchOptions *o)
{
    return o->job_size / (uint32_t)o->nprocs;
}
/* The first rank of this host's or client's node. */
static inline uint32_t BenchFirstRank(const BenchOptions *o)
{
    return (uint32_t)o->node * (uint32_t)o->nprocs;
}
/* The ranks that have processes: 0 .. this - 1. */
static inline uint32_t BenchLiveRanks(const BenchOptions *o)
{
    return (uint32_t)o->nodes * (uint32_t)o->nprocs;
}
/* "node00042": the host name of node id (buf of >= 16 bytes). */
void BenchHostName(uint32_t node, char *buf, size_t len);

/* ---- metrics ---------------------------------------------------------- */

/* One client's measurements, in the order of its result line; then three
 * per blob size b: fence, first Get, repeated Get (BenchBlobMetric). */
typedef enum {
    kMetricInit = 0,  /* PMIx_Init wall time, us */
    kMetricRssInit,   /* VmRSS after init, KiB */
    kMetricHwmInit,   /* VmHWM after init, KiB */
    kMetricJob50,     /* Get(wildcard, PMIX_JOB_SIZE) p50 / p99, us */
    kMetricJob99,
    kMetricHost50,    /* Get(rank, PMIX_HOSTNAME), ranks over the job */
    kMetricHost99,
    kMetricNode50,    /* Get(rank, PMIX_NODEID) */
    kMetricNode99,
    kMetricLrank50,   /* Get(rank, PMIX_LOCAL_RANK) */
    kMetricLrank99,
    kMetricBarrier,   /* mean barrier PMIx_Fence, us */
    kMetricRssEnd,    /* VmRSS / VmHWM after the blob fences, KiB */
    kMetricHwmEnd,
    kMetricFinalize,  /* PMIx_Finalize wall time, us */
    kMetricFixed
} BenchMetric;

typedef enum {
    kBlobFence = 0, /* Fence(PMIX_COLLECT_DATA) alone, us */
    kBlobGetFirst,  /* mean first Get of a peer's blob, us */
    kBlobGetAgain,  /* mean repeated Get of a peer's blob, us */
    kBlobFenceIso,  /* the same fence again, between barriers: median of R, us */
    kBlobModex,     /* the first fence and the first Get of every peer's blob, us */
    kBlobMetrics
} BenchBlobMetric;

static inline int BenchMetricCount(const BenchOptions *o)
{
    return kMetricFixed + kBlobMetrics * o->nblobs;
}
static inline int BenchBlobIndex(int blob, BenchBlobMetric m)
{
    return kMetricFixed + kBlobMetrics * blob + (int)m;
}
/* Name ("get_host_p50", "fence_64K") and unit ("us", "KiB") of metric m. */
void BenchMetricName(const BenchOptions *o, int m, char *buf, size_t len);
const char *BenchMetricUnit(int m);

/* Result lines on the pipe, each in one write() (< PIPE_BUF, so lines from
 * concurrent clients never interleave):
 *   "init <rank>\n"  after PMIx_Init returned (the host samples its RSS
 *                    once every client sent it);
 *   "bench <rank> <status> <metric0> ... <metricM-1>\n" at the end.
 * status 0 = every check passed; otherwise the failing step's number.
 * A metric not measured (the client failed before it) reads "nan". */
#define BENCH_LINE_TAG "bench"
#define BENCH_INIT_TAG "init"
#define BENCH_LINE_MAX 1024

/* Roles. Each returns the process exit status. */
int BenchHostMain(const BenchOptions *opt, const char *self_exe);
int BenchClientMain(const BenchOptions *opt);

/* Monotonic clock in microseconds. */
double BenchNowUs(void);

/* A "VmRSS:" / "VmHWM:" line of /proc/self/status in KiB, or -1. */
long BenchStatusKib(const char *field);

/* Fills buf with the deterministic content of rank's blob. */
void BenchFillBlob(uint8_t *buf, size_t size, uint32_t rank);
/* Whether buf holds what BenchFillBlob writes for rank (1) or not (0). */
int BenchCheckBlob(const uint8_t *buf, size_t size, uint32_t rank);

/* Sorts v[0..n-1] and returns its q-quantile (nearest rank), 0 < q <= 1. */
double BenchQuantile(double *v, int n, double q);

/* Statistics table on stdout: the header, then one row per metric with the
 * median, mean, min and max of v[0..n-1] (n >= 1; sorts v in place), or
 * n/a if any value is NaN (not measured). */
void BenchPrintHeader(void);
void BenchPrintRow(const char *name, const char *unit, double *v, int n);

#endif /* PMIXX_BENCH_BENCH_H */
