/*
 * Helpers shared by the PMIx-only job-info clients that real launchers
 * start (test/openmpi/pmix_jobinfo.c under mpirun, test/slurm/slurm_jobinfo.c
 * under srun): failing with one line on stdout, reading the launcher's
 * environment, and comparing a PMIx key with it. Header-only, C99, public
 * pmix.h API only; the including file defines nothing of the same names.
 */
#ifndef PMIXX_TEST_COMMON_JOBINFO_UTIL_H
#define PMIXX_TEST_COMMON_JOBINFO_UTIL_H

#include <stdio.h>
#include <stdlib.h>

#include "pmix.h"

static pmix_proc_t me;

/* Prints "jobinfo <rank> FAIL: what[: detail]" and exits 1. */
static void Fail(const char* what, const char* detail) {
  printf("jobinfo %u FAIL: %s%s%s\n", (unsigned)me.rank, what, detail ? ": " : "",
         detail ? detail : "");
  fflush(stdout);
  exit(1);
}

static long EnvNumber(const char* name) {
  const char* v = getenv(name);
  if (v == NULL) Fail("not in the environment", name);
  return strtol(v, NULL, 10);
}

/* Reads key of proc as a number, whatever integer type the value has. */
static long GetNumber(const pmix_proc_t* proc, const char* key) {
  pmix_value_t* val = NULL;
  pmix_status_t rc = PMIx_Get(proc, key, NULL, 0, &val);
  if (rc != PMIX_SUCCESS || val == NULL) Fail(PMIx_Error_string(rc), key);
  long out = -1;
  switch (val->type) {
    case PMIX_UINT32: out = (long)val->data.uint32; break;
    case PMIX_UINT16: out = (long)val->data.uint16; break;
    case PMIX_INT: out = (long)val->data.integer; break;
    case PMIX_UINT64: out = (long)val->data.uint64; break;
    case PMIX_PROC_RANK: out = (long)val->data.rank; break;
    default: Fail("unexpected value type", key);
  }
  PMIX_VALUE_RELEASE(val);
  return out;
}

/* Fails unless key of proc equals the number in environment variable env. */
static void Expect(const pmix_proc_t* proc, const char* key, const char* env) {
  char detail[160];
  long got = GetNumber(proc, key), want = EnvNumber(env);
  snprintf(detail, sizeof detail, "%s=%ld but %s=%ld", key, got, env, want);
  if (got != want) Fail("mismatch", detail);
}

#endif /* PMIXX_TEST_COMMON_JOBINFO_UTIL_H */
