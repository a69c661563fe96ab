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

typedef struct {
    const BenchOptions *opt;
    const char *self_exe;
    char tmpdir[64];
    char nspace[PMIX_MAX_NSLEN + 1];
    double deadline;  /* CLOCK_REALTIME seconds */
    char ***envs;     /* per rank, from PMIx_server_setup_fork */
    pid_t *pids;      /* per rank; 0 once reaped, so no recycled pid is hit */
    int *reported;    /* per rank: result line seen */
    int *exited;      /* per rank: reaped */
    double *values;   /* [metric * nprocs + rank] */
    double host_setup_us;
    double job_wall_us;
    int nreported;
    int failed_rank;  /* first client that reported a failure, or -1 */
    int failed_step;
} Host;

/* Reads result lines from read_fd until every client reported (0), or a
 * client died without reporting, a line was malformed, or h->deadline passed
 * (-1). A client reporting a failure shortens the deadline to a short grace
 * for the others' lines and sets failed_rank/failed_step. */
int BenchCollect(Host *h, int read_fd);

/* Reaps exited clients (waitpid options: 0 or WNOHANG); -1 if one exited
 * abnormally, non-zero or without reporting (each is printed once). */
int BenchReap(Host *h, int options);

#endif /* PMIXX_BENCH_BENCH_HOST_H */
