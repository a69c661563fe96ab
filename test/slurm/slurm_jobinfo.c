/*
 * A PMIx-only client (no MPI) for run_slurm.sh: srun --mpi=pmix launches it,
 * Slurm's slurmstepd (mpi_pmix_v4.so) being the PMIx server. It checks
 *   - the library is ours: PMIx_Get_version() starts with
 *     $JOBINFO_VERSION_PREFIX ("pmixx" when unset);
 *   - the job info against what Slurm puts in the task's environment
 *     (SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID, SLURM_JOB_ID/STEP_ID in the
 *     namespace "slurm.pmix.<job>.<step>"), all tasks on one node;
 *   - a key exchange with the right neighbour (Put/Commit/Fence/Get);
 * and reports which libpmix the parent (slurmstepd) has mapped.
 * With JOBINFO_DUMP=DIR it writes DIR/<rank>: every realm's job data as
 * it reads it (test/common/jobinfo_dump.h), which run_slurm.sh compares
 * between a run through gds shmem and one with PMIX_MCA_gds=hash.
 * Prints "jobinfo <rank> of <size> ok version=... stepd_lib=...
 * image=shmem|inline" (how the job-data image came) on success or
 * "jobinfo <rank> FAIL: why" and exits 1. C99, public pmix.h API only.
 */
#define _DEFAULT_SOURCE /* getppid; strncasecmp for pmix_common.h */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmix.h"
#include "test/common/jobinfo_dump.h"
#include "test/common/jobinfo_util.h"

static void CheckNamespace(void) {
  char want[PMIX_MAX_NSLEN + 1];
  snprintf(want, sizeof want, "slurm.pmix.%ld.%ld", EnvNumber("SLURM_JOB_ID"),
           EnvNumber("SLURM_STEP_ID"));
  if (strcmp(me.nspace, want) != 0) Fail("unexpected namespace", me.nspace);
}

static void Exchange(long size) {
  uint32_t mine = 5000u + me.rank;
  pmix_value_t v;
  PMIX_VALUE_LOAD(&v, &mine, PMIX_UINT32);
  if (PMIx_Put(PMIX_GLOBAL, "slurm.jobinfo", &v) != PMIX_SUCCESS) Fail("PMIx_Put failed", NULL);
  PMIX_VALUE_DESTRUCT(&v);
  if (PMIx_Commit() != PMIX_SUCCESS) Fail("PMIx_Commit failed", NULL);
  pmix_info_t collect;
  bool yes = true;
  PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
  pmix_status_t rc = PMIx_Fence(NULL, 0, &collect, 1);
  if (rc != PMIX_SUCCESS) Fail("PMIx_Fence failed", PMIx_Error_string(rc));
  pmix_proc_t peer;
  PMIX_LOAD_PROCID(&peer, me.nspace, (pmix_rank_t)((me.rank + 1) % size));
  if (GetNumber(&peer, "slurm.jobinfo") != 5000 + (long)peer.rank)
    Fail("wrong value from the neighbour", NULL);
}

/* The first libpmix.so* path in /proc/<pid>/maps, or "none". */
static void MappedLibpmix(long pid, char* out, size_t len) {
  char path[64], line[4096];
  snprintf(path, sizeof path, "/proc/%ld/maps", pid);
  snprintf(out, len, "none");
  FILE* maps = fopen(path, "r");
  if (maps == NULL) return;
  while (fgets(line, sizeof line, maps) != NULL) {
    char* name = strchr(line, '/');
    if (name == NULL || strstr(name, "/libpmix.so") == NULL) continue;
    name[strcspn(name, "\n")] = '\0';
    snprintf(out, len, "%s", name);
    break;
  }
  fclose(maps);
}

int main(void) {
  pmix_status_t rc = PMIx_Init(&me, NULL, 0);
  if (rc != PMIX_SUCCESS) Fail("PMIx_Init failed", PMIx_Error_string(rc));
  const char* version = PMIx_Get_version();
  const char* prefix = getenv("JOBINFO_VERSION_PREFIX");
  if (prefix == NULL) prefix = "pmixx";
  if (strncmp(version, prefix, strlen(prefix)) != 0) Fail("not the expected library", version);
  if ((long)me.rank != EnvNumber("SLURM_PROCID")) Fail("rank differs from SLURM_PROCID", NULL);
  CheckNamespace();
  pmix_proc_t job;
  PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
  Expect(&job, PMIX_JOB_SIZE, "SLURM_NTASKS");
  Expect(&job, PMIX_LOCAL_SIZE, "SLURM_NTASKS");
  Expect(&me, PMIX_LOCAL_RANK, "SLURM_LOCALID");
  long size = EnvNumber("SLURM_NTASKS");
  const char* medium = JobDataImageMedium();
  const char* dump = getenv("JOBINFO_DUMP");
  if (dump != NULL && *dump) {
    /* "<job>.<step>" is in paths and in the topology slurmstepd shares */
    char path[4096], step[64];
    snprintf(path, sizeof path, "%s/%u", dump, (unsigned)me.rank);
    snprintf(step, sizeof step, "%ld.%ld", EnvNumber("SLURM_JOB_ID"), EnvNumber("SLURM_STEP_ID"));
    const char* per_run[] = {step, NULL};
    if (JobDataDump(path, me.nspace, per_run) != 0) Fail("cannot write the dump", path);
  }
  Exchange(size);
  char stepd_lib[1024];
  MappedLibpmix((long)getppid(), stepd_lib, sizeof stepd_lib);
  if (PMIx_Finalize(NULL, 0) != PMIX_SUCCESS) Fail("PMIx_Finalize failed", NULL);
  printf("jobinfo %u of %ld ok version=\"%s\" stepd_lib=%s image=%s\n", (unsigned)me.rank, size,
         version, stepd_lib, medium);
  return 0;
}
