/*
 * topo_client NPUS [bound]: the node topology and the binding a process
 * gets from pmixrun (our server library's sharing, pmixrun --bind-to).
 *
 *   load-topology    PMIx_Load_topology works and sees NPUS PUs (the fake
 *                    node the script gave the server, when it gave one)
 *   shared-keys      the job data has PMIX_HWLOC_XML_V2 and, unless the
 *                    script disabled it, PMIX_HWLOC_SHMEM_ADDR/_SIZE/_FILE
 *   bound            (bound) PMIX_CPUSET of this rank is what
 *                    PMIx_Get_cpuset says the process is bound to
 *   locality-string  (bound) PMIX_LOCALITY_STRING of this rank is the one
 *                    PMIx_server_generate_locality_string makes of it
 *   relative         (bound) PMIx_Get_relative_locality with rank 0 says
 *                    at least "same node"
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>
#include <pmix.h>
#include <pmix_server.h>

#include "client_util.h"

static char *GetString(pmix_rank_t rank, const char *key) {
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, me.nspace, rank);
    pmix_value_t *v = NULL;
    if (PMIx_Get(&p, key, NULL, 0, &v) != PMIX_SUCCESS || v == NULL) return NULL;
    char *out = v->type == PMIX_STRING && v->data.string ? strdup(v->data.string) : NULL;
    PMIX_VALUE_RELEASE(v);
    return out;
}

static bool HasKey(const char *key, pmix_data_type_t type) {
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, me.nspace, PMIX_RANK_WILDCARD);
    pmix_value_t *v = NULL;
    if (PMIx_Get(&p, key, NULL, 0, &v) != PMIX_SUCCESS || v == NULL) return false;
    bool ok = v->type == type;
    PMIX_VALUE_RELEASE(v);
    return ok;
}

static void Bound(void) {
    pmix_cpuset_t mine;
    PMIX_CPUSET_CONSTRUCT(&mine);
    pmix_status_t rc = PMIx_Get_cpuset(&mine, PMIX_CPUBIND_PROCESS);
    char *have = NULL, *loc = NULL;
    if (rc == PMIX_SUCCESS) rc = PMIx_server_generate_cpuset_string(&mine, &have);
    char *want = GetString(me.rank, PMIX_CPUSET);
    Report("bound", have && want && strcmp(have, want) == 0, want ? want : "no PMIX_CPUSET", rc);
    rc = PMIx_server_generate_locality_string(&mine, &loc);
    char *given = GetString(me.rank, PMIX_LOCALITY_STRING);
    Report("locality-string", loc && given && strcmp(loc, given) == 0,
           given ? given : "no PMIX_LOCALITY_STRING", rc);
    char *zero = GetString(0, PMIX_LOCALITY_STRING);
    pmix_locality_t rel = 0;
    rc = zero && given ? PMIx_Get_relative_locality(given, zero, &rel) : PMIX_ERR_NOT_FOUND;
    Report("relative", rc == PMIX_SUCCESS && (rel & PMIX_LOCALITY_SHARE_NODE), "relative locality", rc);
    printf("INFO %u cpuset %s locality %s\n", me.rank, want ? want : "-", given ? given : "-");
    free(have), free(want), free(loc), free(given), free(zero);
    PMIX_CPUSET_DESTRUCT(&mine);
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) return 3;
    pmix_topology_t topo;
    PMIX_TOPOLOGY_CONSTRUCT(&topo);
    rc = PMIx_Load_topology(&topo);
    int npus = rc == PMIX_SUCCESS ? hwloc_get_nbobjs_by_type(topo.topology, HWLOC_OBJ_PU) : -1;
    Report("load-topology", npus == atoi(argv[1]), "PU count", rc);
    bool shmem_off = getenv("PMIX_MCA_hwloc_hole_kind") != NULL;
    Report("shared-keys",
           HasKey(PMIX_HWLOC_XML_V2, PMIX_STRING) && HasKey(PMIX_HWLOC_XML_V1, PMIX_STRING) &&
               (shmem_off || (HasKey(PMIX_HWLOC_SHMEM_ADDR, PMIX_SIZE) &&
                              HasKey(PMIX_HWLOC_SHMEM_SIZE, PMIX_SIZE) &&
                              HasKey(PMIX_HWLOC_SHMEM_FILE, PMIX_STRING))),
           "topology keys", PMIX_ERR_NOT_FOUND);
    if (argc > 2 && strcmp(argv[2], "bound") == 0) Bound();
    PMIX_TOPOLOGY_DESTRUCT(&topo);
    printf("DONE %u failures %d\n", me.rank, failures);
    fflush(stdout);
    PMIx_Finalize(NULL, 0);
    return failures ? 1 : 0;
}
