/*
 * pmix_bench host: builds the job description. See bench_job_info.h.
 */
#define _XOPEN_SOURCE 700

#include "bench_job_info.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int BenchInfoAdd(InfoVec *v, const char *key, const void *data, pmix_data_type_t type)
{
    if (v->n == v->cap) {
        size_t cap = 0 == v->cap ? 16 : 2 * v->cap;
        pmix_info_t *grown = realloc(v->info, cap * sizeof(*grown));
        if (NULL == grown) {
            fprintf(stderr, "pmix_bench host: out of memory for the job info\n");
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

void BenchInfoFree(InfoVec *v)
{
    size_t i;
    for (i = 0; i < v->n; ++i) {
        PMIx_Value_destruct(&v->info[i].value);
    }
    free(v->info);
    memset(v, 0, sizeof(*v));
}

/* Adds key = the info array in *items (as a PMIX_DATA_ARRAY) and frees items. */
static int AddArray(InfoVec *v, const char *key, InfoVec *items, int rc)
{
    pmix_data_array_t darray;
    if (0 == rc) {
        darray.type = PMIX_INFO;
        darray.size = items->n;
        darray.array = items->info;
        rc = BenchInfoAdd(v, key, &darray, PMIX_DATA_ARRAY);
    }
    BenchInfoFree(items);
    return rc;
}

/* "first,first+1,...,first+n-1" into a malloc'd string. */
static char *RankList(uint32_t first, uint32_t n)
{
    size_t cap = (size_t)n * 11 + 1, used = 0;
    char *s = malloc(cap);
    uint32_t r;
    if (NULL == s) {
        return NULL;
    }
    s[0] = '\0';
    for (r = first; r < first + n; ++r) {
        used += (size_t)snprintf(s + used, cap - used, r > first ? ",%u" : "%u", r);
    }
    return s;
}

static int AddNode(InfoVec *job, const BenchOptions *o, uint32_t node)
{
    InfoVec v = {NULL, 0, 0};
    uint32_t ppn = (uint32_t)o->nprocs;
    pmix_rank_t leader = node * ppn;
    char host[32];
    char *peers = RankList(leader, ppn);
    int rc = NULL == peers ? -1 : 0;
    BenchHostName(node, host, sizeof(host));
    rc = rc || BenchInfoAdd(&v, PMIX_HOSTNAME, host, PMIX_STRING) ||
         BenchInfoAdd(&v, PMIX_NODEID, &node, PMIX_UINT32) ||
         BenchInfoAdd(&v, PMIX_NODE_SIZE, &ppn, PMIX_UINT32) ||
         BenchInfoAdd(&v, PMIX_LOCAL_SIZE, &ppn, PMIX_UINT32) ||
         BenchInfoAdd(&v, PMIX_LOCALLDR, &leader, PMIX_PROC_RANK) ||
         BenchInfoAdd(&v, PMIX_LOCAL_PEERS, peers, PMIX_STRING);
    free(peers);
    return AddArray(job, PMIX_NODE_INFO_ARRAY, &v, rc);
}

static int AddApp(InfoVec *job, const BenchOptions *o)
{
    InfoVec v = {NULL, 0, 0};
    uint32_t appnum = 0, size = o->job_size;
    pmix_rank_t leader = 0;
    char cwd[1024];
    int rc = NULL == getcwd(cwd, sizeof(cwd)) ? -1 : 0;
    rc = rc || BenchInfoAdd(&v, PMIX_APPNUM, &appnum, PMIX_UINT32) ||
         BenchInfoAdd(&v, PMIX_APP_SIZE, &size, PMIX_UINT32) ||
         BenchInfoAdd(&v, PMIX_APPLDR, &leader, PMIX_PROC_RANK) ||
         BenchInfoAdd(&v, PMIX_WDIR, cwd, PMIX_STRING) ||
         BenchInfoAdd(&v, PMIX_APP_ARGV, "pmix_bench client", PMIX_STRING);
    return AddArray(job, PMIX_APP_INFO_ARRAY, &v, rc);
}

static int AddProc(InfoVec *job, const BenchOptions *o, pmix_rank_t rank)
{
    InfoVec v = {NULL, 0, 0};
    uint32_t node = BenchNodeOf(o, rank), zero = 0;
    uint16_t local = BenchLocalRankOf(o, rank);
    char host[32];
    int rc;
    BenchHostName(node, host, sizeof(host));
    rc = BenchInfoAdd(&v, PMIX_RANK, &rank, PMIX_PROC_RANK) ||
         BenchInfoAdd(&v, PMIX_GLOBAL_RANK, &rank, PMIX_PROC_RANK) ||
         BenchInfoAdd(&v, PMIX_APPNUM, &zero, PMIX_UINT32) ||
         BenchInfoAdd(&v, PMIX_APP_RANK, &rank, PMIX_PROC_RANK) ||
         BenchInfoAdd(&v, PMIX_LOCAL_RANK, &local, PMIX_UINT16) ||
         BenchInfoAdd(&v, PMIX_NODE_RANK, &local, PMIX_UINT16) ||
         BenchInfoAdd(&v, PMIX_NODEID, &node, PMIX_UINT32) ||
         BenchInfoAdd(&v, PMIX_REINCARNATION, &zero, PMIX_UINT32) ||
         BenchInfoAdd(&v, PMIX_HOSTNAME, host, PMIX_STRING);
    return AddArray(job, PMIX_PROC_DATA, &v, rc);
}

/* PMIX_NODE_MAP and PMIX_PROC_MAP as the RM computes them. */
static int AddMaps(InfoVec *job, const BenchOptions *o, double *regex_us)
{
    uint32_t nnodes = BenchNumNodes(o), ppn = (uint32_t)o->nprocs, n;
    size_t hcap = (size_t)nnodes * 24 + 1, pcap = (size_t)o->job_size * 11 + 1, hu = 0, pu = 0;
    char *hosts = malloc(hcap), *procs = malloc(pcap), *node_map = NULL, *proc_map = NULL;
    int rc = -1;
    double t0;
    if (NULL == hosts || NULL == procs) {
        free(hosts);
        free(procs);
        return -1;
    }
    for (n = 0; n < nnodes; ++n) {
        char *ranks = RankList(n * ppn, ppn);
        if (n > 0) {
            hosts[hu++] = ',';
            procs[pu++] = ';';
        }
        BenchHostName(n, hosts + hu, hcap - hu);
        hu += strlen(hosts + hu);
        pu += (size_t)snprintf(procs + pu, pcap - pu, "%s", NULL == ranks ? "" : ranks);
        free(ranks);
    }
    t0 = BenchNowUs();
    if (PMIX_SUCCESS != PMIx_generate_regex(hosts, &node_map) ||
        PMIX_SUCCESS != PMIx_generate_ppn(procs, &proc_map)) {
        fprintf(stderr, "pmix_bench host: PMIx_generate_regex/ppn failed\n");
    } else {
        *regex_us = BenchNowUs() - t0;
        rc = BenchInfoAdd(job, PMIX_NODE_MAP, node_map, PMIX_REGEX) ||
             BenchInfoAdd(job, PMIX_PROC_MAP, proc_map, PMIX_REGEX);
    }
    free(node_map);
    free(proc_map);
    free(hosts);
    free(procs);
    return rc;
}

static int AddJobKeys(InfoVec *job, const BenchOptions *o, const char *nspace,
                      const char *tmpdir)
{
    uint32_t size = o->job_size, nnodes = BenchNumNodes(o), one = 1;
    pmix_rank_t offset = 0;
    uint64_t memory = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
    bool no = false;
    return BenchInfoAdd(job, PMIX_NUM_NODES, &nnodes, PMIX_UINT32) ||
           BenchInfoAdd(job, PMIX_UNIV_SIZE, &size, PMIX_UINT32) ||
           BenchInfoAdd(job, PMIX_JOB_SIZE, &size, PMIX_UINT32) ||
           BenchInfoAdd(job, PMIX_JOB_NUM_APPS, &one, PMIX_UINT32) ||
           BenchInfoAdd(job, PMIX_MAX_PROCS, &size, PMIX_UINT32) ||
           BenchInfoAdd(job, PMIX_NPROC_OFFSET, &offset, PMIX_PROC_RANK) ||
           BenchInfoAdd(job, PMIX_AVAIL_PHYS_MEMORY, &memory, PMIX_UINT64) ||
           BenchInfoAdd(job, PMIX_MAPBY, "BYSLOT", PMIX_STRING) ||
           BenchInfoAdd(job, PMIX_RANKBY, "SLOT", PMIX_STRING) ||
           BenchInfoAdd(job, PMIX_BINDTO, "CORE", PMIX_STRING) ||
           BenchInfoAdd(job, PMIX_HOSTNAME_KEEP_FQDN, &no, PMIX_BOOL) ||
           BenchInfoAdd(job, PMIX_TMPDIR, tmpdir, PMIX_STRING) ||
           BenchInfoAdd(job, PMIX_NSDIR, tmpdir, PMIX_STRING) ||
           BenchInfoAdd(job, PMIX_NSPACE, nspace, PMIX_STRING) ||
           BenchInfoAdd(job, PMIX_JOBID, nspace, PMIX_STRING);
}

int BenchBuildJobInfo(InfoVec *job, const BenchOptions *o, const char *nspace,
                      const char *tmpdir, double *regex_us)
{
    uint32_t n;
    pmix_rank_t r;
    int rc = AddJobKeys(job, o, nspace, tmpdir);
    for (n = 0; 0 == rc && n < BenchNumNodes(o); ++n) {
        rc = AddNode(job, o, n);
    }
    rc = rc || AddMaps(job, o, regex_us) || AddApp(job, o);
    for (r = 0; 0 == rc && r < o->job_size; ++r) {
        rc = AddProc(job, o, r);
    }
    return rc;
}
