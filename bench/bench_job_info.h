/*
 * pmix_bench host: the job description a resource manager registers, as a
 * pmix_info_t array for PMIx_server_register_nspace.
 *
 * Modelled on what PRRTE's daemons register for a job (job-level keys,
 * node and proc maps from PMIx_generate_regex / PMIx_generate_ppn, one
 * PMIX_APP_INFO_ARRAY, one PMIX_NODE_INFO_ARRAY per node, one
 * PMIX_PROC_DATA array per rank) for the layout of bench.h: S procs over
 * S/N nodes "node00000".., N per node, ranks by slot, node 0 local.
 * Main thread only.
 */
#ifndef PMIXX_BENCH_BENCH_JOB_INFO_H
#define PMIXX_BENCH_BENCH_JOB_INFO_H

#include "bench.h"

#include <strings.h> /* OpenPMIx's pmix_common.h uses strncasecmp */

#include <pmix.h>
#include <pmix_server.h>

/* A growing pmix_info_t array; every element is loaded (owns its value). */
typedef struct {
    pmix_info_t *info;
    size_t n;
    size_t cap;
} InfoVec;

/* Appends a copy of (key, data, type); 0 or -1 (printed). */
int BenchInfoAdd(InfoVec *v, const char *key, const void *data, pmix_data_type_t type);
/* Destructs every element and frees the array. */
void BenchInfoFree(InfoVec *v);

/* Fills job (empty) with the description of nspace's job; tmpdir is the
 * server's tmpdir. *regex_us gets the time spent in PMIx_generate_regex and
 * PMIx_generate_ppn. 0 on success, -1 (printed) on failure; job is to be
 * freed by the caller either way. */
int BenchBuildJobInfo(InfoVec *job, const BenchOptions *o, const char *nspace,
                      const char *tmpdir, double *regex_us);

#endif /* PMIXX_BENCH_BENCH_JOB_INFO_H */
