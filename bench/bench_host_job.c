/*
 * pmix_bench host: registers the benchmark's job (bench_job_info.c builds
 * the description) and its local clients with the server library.
 */
#define _XOPEN_SOURCE 700

#include "bench_host_job.h"

#include "bench_host_module.h"
#include "bench_job_info.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int BenchRegisterJob(const char *nspace, const BenchOptions *o, const char *tmpdir,
                     double deadline, double *regex_us, double *register_us)
{
    InfoVec job = {NULL, 0, 0};
    BenchWaiter *w = NULL;
    pmix_status_t rc = PMIX_ERR_NOMEM;
    double t0;
    if (0 == BenchBuildJobInfo(&job, o, nspace, tmpdir, regex_us) &&
        NULL != (w = BenchWaiterNew())) {
        t0 = BenchNowUs();
        rc = PMIx_server_register_nspace(nspace, o->nprocs, job.info, job.n, BenchWaiterOpCb, w);
        rc = BenchWaiterFinish(w, rc, deadline);
        *register_us = BenchNowUs() - t0;
    }
    /* After a timeout the library may still read the array: leak it. */
    if (PMIX_ERR_TIMEOUT != rc) {
        BenchInfoFree(&job);
    }
#ifdef __GLIBC__
    /* Hand the freed description back to the system, so that the host's
     * RSS shows what the library keeps, not the host's garbage. */
    malloc_trim(0);
#endif
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "pmix_bench host: register_nspace: %s\n", PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

int BenchRegisterClient(const pmix_proc_t *proc, double deadline)
{
    BenchWaiter *w = BenchWaiterNew();
    pmix_status_t rc = PMIX_ERR_NOMEM;
    if (NULL != w) {
        rc = PMIx_server_register_client(proc, getuid(), getgid(), NULL, BenchWaiterOpCb, w);
        rc = BenchWaiterFinish(w, rc, deadline);
    }
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "pmix_bench host: register_client %u: %s\n", proc->rank,
                PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

void BenchDeregisterJob(const char *nspace, const BenchOptions *o, double deadline)
{
    pmix_proc_t proc;
    BenchWaiter *w;
    int r;
    memset(&proc, 0, sizeof(proc));
    snprintf(proc.nspace, sizeof(proc.nspace), "%s", nspace);
    for (r = 0; r < o->nprocs; ++r) {
        proc.rank = BenchFirstRank(o) + (pmix_rank_t)r;
        if (NULL != (w = BenchWaiterNew())) {
            PMIx_server_deregister_client(&proc, BenchWaiterOpCb, w);
            (void)BenchWaiterFinish(w, PMIX_SUCCESS, deadline);
        }
    }
    if (NULL != (w = BenchWaiterNew())) {
        PMIx_server_deregister_nspace(nspace, BenchWaiterOpCb, w);
        (void)BenchWaiterFinish(w, PMIX_SUCCESS, deadline);
    }
}
