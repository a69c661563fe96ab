/*
 * pmix_bench host: job and client registration with the server library.
 * Called on the host's main thread after PMIx_server_init. Every wait ends
 * at deadline (absolute CLOCK_REALTIME seconds, see BenchRealNow).
 */
#ifndef PMIXX_BENCH_BENCH_HOST_JOB_H
#define PMIXX_BENCH_BENCH_HOST_JOB_H

#include <strings.h> /* OpenPMIx's pmix_common.h uses strncasecmp */

#include <pmix.h>
#include <pmix_server.h>

/* Registers nspace with nprocs local procs on this node; 0 on success,
 * -1 after printing the cause. */
int BenchRegisterJob(const char *nspace, int nprocs, double deadline);

/* Registers one client with this process's uid/gid; 0 or -1 as above. */
int BenchRegisterClient(const pmix_proc_t *proc, double deadline);

/* Deregisters all clients of nspace, then nspace; best effort. */
void BenchDeregisterJob(const char *nspace, int nprocs, double deadline);

#endif /* PMIXX_BENCH_BENCH_HOST_JOB_H */
