/*
 * A PMIx-only client (no MPI) that Debian's mpirun launches: it checks the
 * job info our server gives it against what ORTE tells the process in its
 * environment (OMPI_COMM_WORLD_*), and exchanges a key with its neighbour
 * through Put/Commit/Fence/Get.
 *
 * The library's PMIx_Get_version() must start with $JOBINFO_VERSION_PREFIX
 * ("pmixx" when unset; run_openmpi.sh also runs it on Debian's OpenPMIx).
 * With JOBINFO_DUMP=DIR it writes DIR/<rank>: every realm's job data as
 * it reads it (test/common/jobinfo_dump.h), which run_openmpi.sh compares
 * between a run through gds shmem and one with PMIX_MCA_gds=hash.
 *
 * Prints "jobinfo <rank> of <size> ok version=... image=shmem|inline" on
 * success (how the job-data image came), or "jobinfo <rank> FAIL: why" and
 * exits 1. C99, public pmix.h API only.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmix.h"
#include "test/common/jobinfo_dump.h"
#include "test/common/jobinfo_util.h"

/* PMIX_LOCAL_PEERS: the ranks on this node, which ORTE maps by slot here
 * (one node, or run_openmpi.sh's two fake nodes of two slots each):
 * "first,...,first+local_size-1", first = rank - local_rank. */
static void CheckLocalPeers(const pmix_proc_t* job) {
  pmix_value_t* val = NULL;
  if (PMIx_Get(job, PMIX_LOCAL_PEERS, NULL, 0, &val) != PMIX_SUCCESS || val->type != PMIX_STRING)
    Fail("PMIx_Get failed", PMIX_LOCAL_PEERS);
  long first = (long)me.rank - EnvNumber("OMPI_COMM_WORLD_LOCAL_RANK");
  long nlocal = EnvNumber("OMPI_COMM_WORLD_LOCAL_SIZE");
  char want[4096] = "";
  for (long r = first; r < first + nlocal; r++) {
    size_t used = strlen(want);
    snprintf(want + used, sizeof want - used, "%s%ld", r > first ? "," : "", r);
  }
  if (strcmp(val->data.string, want) != 0) Fail("wrong local peers", val->data.string);
  PMIX_VALUE_RELEASE(val);
}

/* Puts a key, fences with data collection, reads the right neighbour's. */
static void Exchange(long size) {
  pmix_value_t v;
  uint32_t mine = 1000 + me.rank;
  PMIX_VALUE_LOAD(&v, &mine, PMIX_UINT32);
  if (PMIx_Put(PMIX_GLOBAL, "jobinfo.test", &v) != PMIX_SUCCESS) Fail("PMIx_Put failed", NULL);
  if (PMIx_Commit() != PMIX_SUCCESS) Fail("PMIx_Commit failed", NULL);
  pmix_info_t collect;
  bool yes = true;
  PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
  if (PMIx_Fence(NULL, 0, &collect, 1) != PMIX_SUCCESS) Fail("PMIx_Fence failed", NULL);
  pmix_proc_t peer;
  PMIX_LOAD_PROCID(&peer, me.nspace, (pmix_rank_t)((me.rank + 1) % size));
  if (GetNumber(&peer, "jobinfo.test") != 1000 + (long)peer.rank)
    Fail("wrong value from the neighbour", NULL);
}

int main(void) {
  if (PMIx_Init(&me, NULL, 0) != PMIX_SUCCESS) Fail("PMIx_Init failed", NULL);
  const char *version = PMIx_Get_version(), *prefix = getenv("JOBINFO_VERSION_PREFIX");
  if (prefix == NULL) prefix = "pmixx";
  if (strncmp(version, prefix, strlen(prefix)) != 0) Fail("not the expected library", version);
  pmix_proc_t job;
  PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
  if ((long)me.rank != EnvNumber("OMPI_COMM_WORLD_RANK"))
    Fail("rank differs from OMPI_COMM_WORLD_RANK", NULL);
  Expect(&job, PMIX_JOB_SIZE, "OMPI_COMM_WORLD_SIZE");
  Expect(&job, PMIX_LOCAL_SIZE, "OMPI_COMM_WORLD_LOCAL_SIZE");
  Expect(&me, PMIX_LOCAL_RANK, "OMPI_COMM_WORLD_LOCAL_RANK");
  Expect(&me, PMIX_NODE_RANK, "OMPI_COMM_WORLD_NODE_RANK");
  long size = EnvNumber("OMPI_COMM_WORLD_SIZE");
  CheckLocalPeers(&job);
  const char* medium = JobDataImageMedium();
  const char* dump = getenv("JOBINFO_DUMP");
  if (dump != NULL && *dump) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%u", dump, (unsigned)me.rank);
    if (JobDataDump(path, me.nspace, NULL) != 0) Fail("cannot write the dump", path);
  }
  Exchange(size);
  if (PMIx_Finalize(NULL, 0) != PMIX_SUCCESS) Fail("PMIx_Finalize failed", NULL);
  printf("jobinfo %u of %ld ok version=\"%s\" image=%s\n", (unsigned)me.rank, size, version,
         medium);
  return 0;
}
