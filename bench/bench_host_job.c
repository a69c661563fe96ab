/*
 * pmix_bench host: registers the benchmark's job the way a resource manager
 * does on a single node (job-level info, node/proc maps from
 * PMIx_generate_regex/PMIx_generate_ppn, one PMIX_PROC_DATA array per rank).
 */
#define _XOPEN_SOURCE 700

#include "bench_host_job.h"

#include "bench_host_module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    pmix_info_t *info;
    size_t n;
    size_t cap;
} InfoVec;

static int InfoAdd(InfoVec *v, const char *key, const void *data, pmix_data_type_t type)
{
    if (v->n == v->cap) {
        size_t cap = 0 == v->cap ? 16 : 2 * v->cap;
        pmix_info_t *grown = realloc(v->info, cap * sizeof(*grown));
        if (NULL == grown) {
            return -1;
        }
        v->info = grown;
        v->cap = cap;
    }
    memset(&v->info[v->n], 0, sizeof(v->info[v->n]));
    if (PMIX_SUCCESS != PMIx_Info_load(&v->info[v->n], key, data, type)) {
        fprintf(stderr, "pmix_bench host: cannot load info %s\n", key);
        return -1;
    }
    ++v->n;
    return 0;
}

static void InfoVecFree(InfoVec *v)
{
    size_t i;
    for (i = 0; i < v->n; ++i) {
        PMIx_Value_destruct(&v->info[i].value);
    }
    free(v->info);
    memset(v, 0, sizeof(*v));
}

/* "0,1,...,n-1", malloc'd. */
static char *RankList(int n)
{
    size_t cap = (size_t)n * 12 + 1, used = 0;
    char *s = malloc(cap);
    int r;
    if (NULL == s) {
        return NULL;
    }
    s[0] = '\0';
    for (r = 0; r < n; ++r) {
        used += (size_t)snprintf(s + used, cap - used, r ? ",%d" : "%d", r);
    }
    return s;
}

/* Adds PMIX_PROC_DATA for rank: rank, local rank and node rank. */
static int AddProcData(InfoVec *job, pmix_rank_t rank)
{
    InfoVec proc = {NULL, 0, 0};
    uint16_t local = (uint16_t)rank;
    pmix_data_array_t darray;
    int rc;
    rc = InfoAdd(&proc, PMIX_RANK, &rank, PMIX_PROC_RANK) ||
         InfoAdd(&proc, PMIX_LOCAL_RANK, &local, PMIX_UINT16) ||
         InfoAdd(&proc, PMIX_NODE_RANK, &local, PMIX_UINT16);
    if (0 == rc) {
        darray.type = PMIX_INFO;
        darray.size = proc.n;
        darray.array = proc.info;
        rc = InfoAdd(job, PMIX_PROC_DATA, &darray, PMIX_DATA_ARRAY);
    }
    InfoVecFree(&proc);
    return rc;
}

/* Node map and proc map, both as the RM would compute them. */
static int AddMaps(InfoVec *job, int nprocs)
{
    char host[256];
    char *ranks = RankList(nprocs), *node_map = NULL, *proc_map = NULL;
    int rc = -1;
    if (NULL == ranks || 0 != gethostname(host, sizeof(host))) {
        free(ranks);
        return -1;
    }
    host[sizeof(host) - 1] = '\0';
    if (PMIX_SUCCESS != PMIx_generate_regex(host, &node_map) ||
        PMIX_SUCCESS != PMIx_generate_ppn(ranks, &proc_map)) {
        fprintf(stderr, "pmix_bench host: PMIx_generate_regex/ppn failed\n");
    } else {
        rc = InfoAdd(job, PMIX_NODE_MAP, node_map, PMIX_REGEX) ||
             InfoAdd(job, PMIX_PROC_MAP, proc_map, PMIX_REGEX) ||
             InfoAdd(job, PMIX_LOCAL_PEERS, ranks, PMIX_STRING) ||
             InfoAdd(job, PMIX_HOSTNAME, host, PMIX_STRING);
    }
    free(node_map);
    free(proc_map);
    free(ranks);
    return rc;
}

static int BuildJobInfo(InfoVec *job, const char *nspace, int nprocs)
{
    uint32_t n = (uint32_t)nprocs, one = 1, zero = 0;
    pmix_rank_t r;
    int rc = InfoAdd(job, PMIX_UNIV_SIZE, &n, PMIX_UINT32) ||
             InfoAdd(job, PMIX_JOB_SIZE, &n, PMIX_UINT32) ||
             InfoAdd(job, PMIX_MAX_PROCS, &n, PMIX_UINT32) ||
             InfoAdd(job, PMIX_LOCAL_SIZE, &n, PMIX_UINT32) ||
             InfoAdd(job, PMIX_NODE_SIZE, &n, PMIX_UINT32) ||
             InfoAdd(job, PMIX_NUM_NODES, &one, PMIX_UINT32) ||
             InfoAdd(job, PMIX_NODEID, &zero, PMIX_UINT32) ||
             InfoAdd(job, PMIX_JOBID, nspace, PMIX_STRING) || AddMaps(job, nprocs);
    for (r = 0; 0 == rc && r < (pmix_rank_t)nprocs; ++r) {
        rc = AddProcData(job, r);
    }
    return rc;
}

int BenchRegisterJob(const char *nspace, int nprocs, double deadline)
{
    InfoVec job = {NULL, 0, 0};
    BenchWaiter *w = BenchWaiterNew();
    pmix_status_t rc = PMIX_ERR_NOMEM;
    if (0 == BuildJobInfo(&job, nspace, nprocs) && NULL != w) {
        rc = PMIx_server_register_nspace(nspace, nprocs, job.info, job.n, BenchWaiterOpCb, w);
        rc = BenchWaiterFinish(w, rc, deadline);
    } else {
        (void)BenchWaiterFinish(w, PMIX_ERR_NOMEM, deadline);
    }
    /* After a timeout the library may still read the array: leak it. */
    if (PMIX_ERR_TIMEOUT != rc) {
        InfoVecFree(&job);
    }
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

void BenchDeregisterJob(const char *nspace, int nprocs, double deadline)
{
    pmix_proc_t proc;
    BenchWaiter *w;
    int r;
    memset(&proc, 0, sizeof(proc));
    snprintf(proc.nspace, sizeof(proc.nspace), "%s", nspace);
    for (r = 0; r < nprocs; ++r) {
        proc.rank = (pmix_rank_t)r;
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
