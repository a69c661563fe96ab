/*
 * pmix_bench host: job and client registration with the server library.
 * Called on the host's main thread after PMIx_server_init. Every wait ends
 * at deadline (absolute CLOCK_REALTIME seconds, see BenchRealNow).
 */
#ifndef PMIXX_BENCH_BENCH_HOST_JOB_H
#define PMIXX_BENCH_BENCH_HOST_JOB_H

#include "bench.h"

#include <strings.h> /* OpenPMIx's pmix_common.h uses strncasecmp */

#include <pmix.h>
#include <pmix_server.h>

/* Registers nspace: the job of o (bench_job_info.h) with o->nprocs local
 * procs; tmpdir is the server's. *regex_us gets the time of
 * PMIx_generate_regex/ppn, *register_us that of
 * PMIx_server_register_nspace until its callback. The description is freed
 * (and, with glibc, the heap trimmed) before returning. 0 on success, -1
 * after printing the cause. */
int BenchRegisterJob(const char *nspace, const BenchOptions *o, const char *tmpdir,
                     double deadline, double *regex_us, double *register_us);

/* Registers one client with this process's uid/gid; 0 or -1 as above. */
int BenchRegisterClient(const pmix_proc_t *proc, double deadline);

/* Deregisters all clients of nspace, then nspace; best effort. */
void BenchDeregisterJob(const char *nspace, const BenchOptions *o, double deadline);

#endif /* PMIXX_BENCH_BENCH_HOST_JOB_H */
