/*
 * pmix_bench host: the state of one run, shared by bench_host.c (server,
 * launch, report) and bench_host_collect.c (result lines, reaping).
 * Main thread only (the SIGALRM handler reads pids).
 */
#ifndef PMIXX_BENCH_BENCH_HOST_H
#define PMIXX_BENCH_BENCH_HOST_H

#include "bench.h"

#include <strings.h> /* OpenPMIx's pmix_common.h uses strncasecmp */

#include <pmix_common.h>
#include <sys/types.h>

/* The host's own measurements, printed once each. */
typedef enum {
    kHostRegex = 0,  /* PMIx_generate_regex + PMIx_generate_ppn, us */
    kHostRegister,   /* PMIx_server_register_nspace until its callback, us */
    kHostSetup,      /* the above + building the description + clients, us */
    kHostRssBase,    /* VmRSS after PMIx_server_init, KiB */
    kHostRssReg,     /* ... after the registration */
    kHostRssConn,    /* ... once every client returned from PMIx_Init */
    kHostRssEnd,     /* ... once every client exited */
    kHostDeregister, /* deregister every client and the nspace, us */
    kHostJobWall,    /* first fork to last exit, us */
    kHostMetrics
} HostMetric;

typedef struct {
    const BenchOptions *opt;
    const char *self_exe;
    char tmpdir[64];
    char nspace[PMIX_MAX_NSLEN + 1];
    double deadline;  /* CLOCK_REALTIME seconds */
    char ***envs;     /* per rank, from PMIx_server_setup_fork */
    pid_t *pids;      /* per rank; 0 once reaped, so no recycled pid is hit */
    int *reported;    /* per rank: result line seen */
    int *inited;      /* per rank: init line seen */
    int *exited;      /* per rank: reaped */
    double *values;   /* [metric * nprocs + rank] */
    double host[kHostMetrics];
    int nreported;
    int ninited;
    int failed_rank;  /* first client that reported a failure, or -1 */
    int failed_step;
} Host;

/* Reads result lines from read_fd until every client reported (0), or a
 * client died without reporting, a line was malformed, or h->deadline passed
 * (-1). A client reporting a failure shortens the deadline to a short grace
 * for the others' lines and sets failed_rank/failed_step. The init line of
 * the last client to send one samples host[kHostRssConn]. */
int BenchCollect(Host *h, int read_fd);

/* Reaps exited clients (waitpid options: 0 or WNOHANG); -1 if one exited
 * abnormally, non-zero or without reporting (each is printed once). */
int BenchReap(Host *h, int options);

#endif /* PMIXX_BENCH_BENCH_HOST_H */
