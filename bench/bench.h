/*
 * pmix_bench: shared declarations of the client/server benchmark.
 *
 * One program, two roles (see bench/README.md):
 *   host   - a single-node PMIx server (PMIx_server_init + a minimal host
 *            module) that registers a job of N local procs, forks N copies of
 *            this program in the client role, gathers one result line from
 *            each through a pipe and prints the statistics;
 *   client - PMIx_Init, timed Get/Put/Commit/Fence loops, verifies every
 *            peer's blob, writes one result line, PMIx_Finalize.
 *
 * Only the public API (pmix.h, pmix_server.h) is used, so one binary runs on
 * any libpmix.so.2 with the 4.2 ABI: swap LD_LIBRARY_PATH.
 * Single-threaded except where bench_host.c says otherwise.
 */
#ifndef PMIXX_BENCH_BENCH_H
#define PMIXX_BENCH_BENCH_H

#include <stddef.h>
#include <stdint.h>

/* The key every client puts and every client reads back. */
#define BENCH_BLOB_KEY "bench.blob"

/* Command-line options of both roles. */
typedef struct {
    int nprocs;        /* N clients (host), expected job size (client) */
    int iters;         /* K iterations of every latency loop */
    size_t blob_size;  /* bytes of the modex blob */
    int timeout_s;     /* bound on the whole run, seconds */
    int result_fd;     /* client: where its result line goes */
} BenchOptions;

/* One client's measurements, in the order of the result line. */
typedef enum {
    kMetricInit = 0,  /* PMIx_Init wall time, us */
    kMetricGetJob,    /* mean PMIx_Get(PMIX_JOB_SIZE, wildcard), us */
    kMetricGetPeer,   /* mean PMIx_Get(peer's blob) after the fence, us */
    kMetricFence,     /* mean barrier PMIx_Fence, us */
    kMetricModex,     /* Put+Commit+Fence(collect)+Get all peers, us */
    kMetricRss,       /* VmRSS after the modex, KiB */
    kMetricCount
} BenchMetric;

/* Name and unit of each metric, indexed by BenchMetric. */
extern const char *const kBenchMetricName[kMetricCount];
extern const char *const kBenchMetricUnit[kMetricCount];

/* Result line: "bench <rank> <status> <metric0> ... <metric5>\n".
 * status 0 = every check passed; otherwise the failing step's number.
 * A metric not measured (the client failed before it) reads "nan". */
#define BENCH_LINE_TAG "bench"
#define BENCH_LINE_MAX 512

/* Roles. Each returns the process exit status. */
int BenchHostMain(const BenchOptions *opt, const char *self_exe);
int BenchClientMain(const BenchOptions *opt);

/* Monotonic clock in microseconds. */
double BenchNowUs(void);

/* VmRSS of this process in KiB, or -1 if /proc is unreadable. */
long BenchRssKib(void);

/* Fills buf with the deterministic content of rank's blob. */
void BenchFillBlob(uint8_t *buf, size_t size, uint32_t rank);

/* Statistics table on stdout: the header, then one row per metric with the
 * median, mean, min and max of v[0..n-1] (n >= 1; sorts v in place), or
 * n/a if any value is NaN (not measured). */
void BenchPrintHeader(void);
void BenchPrintRow(const char *name, const char *unit, double *v, int n);

#endif /* PMIXX_BENCH_BENCH_H */
