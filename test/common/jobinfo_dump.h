/*
 * What a client reads of its own namespace's job data, every realm, as
 * text that two runs can diff line by line: the same job read through gds
 * shmem (the image mapped from the server's sealed memfd) and through
 * PMIX_MCA_gds=hash (the same image bytes sent inline) must dump the same.
 *
 * JobDataDump(path, nspace, per_run) writes, in this order, one line per key
 * "<where> <key>: <value>" (PMIx_Value_string, newlines as "\n") or
 * "<where> <key>: <status>" when the get fails:
 *   session                 every key of the job's session (PMIX_SESSION_INFO)
 *   session <id>            the same, naming PMIX_SESSION_ID
 *   job                     every job-realm key
 *   app <n>                 every key of each app (PMIX_APP_INFO + PMIX_APPNUM)
 *   node                    every key of this node (PMIX_NODE_INFO)
 *   node <id>, node <name>  every key of each of the job's nodes, by
 *                           PMIX_NODEID and by PMIX_HOSTNAME (PMIX_NODE_LIST)
 *   rank <r>                every key of every rank, this node's and the
 *                           others' (the host's PMIX_PROC_DATA)
 * "Every key" is a get with a NULL key (PMIX_OPTIONAL: the cache only, so
 * no rank waits for another's modex), sorted by key; each section then
 * repeats a fixed list of keys by name ("<where> =<key>: ..."), derived
 * keys included (PMIX_LOCAL_RANK, PMIX_NODEID, PMIX_HOSTNAME,
 * PMIX_LOCAL_PEERS, ...), as an application gets them.
 *
 * JobDataDump(path, nspace, per_run) normalises what two runs make anew:
 * the namespace, wherever it appears in a value, is written "<nspace>",
 * and each text of the NULL-terminated per_run (may be NULL; e.g. Slurm's
 * "<job>.<step>") "<per run>". Call it before the process puts anything.
 * Returns 0, or -1 when the file cannot be written.
 * JobDataImageMedium() says how the image came (shmem or inline).
 * Header-only, C99, public pmix.h API only; every name starts with
 * JobData, kJobData or JOBDATA.
 */
#ifndef PMIXX_TEST_COMMON_JOBINFO_DUMP_H
#define PMIXX_TEST_COMMON_JOBINFO_DUMP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmix.h"

#define JOBDATADUMP_MAX_NODES 64

typedef struct {
  FILE* out;
  const char* nspace;
  const char* const* per_run;
} JobDataDumpCtx;

/* The length of the per-run text that starts at p, or 0. */
static inline size_t JobDataDumpPerRun(const JobDataDumpCtx* d, const char* p) {
  for (const char* const* t = d->per_run; t != NULL && *t != NULL; ++t) {
    size_t len = strlen(*t);
    if (len > 0 && strncmp(p, *t, len) == 0) return len;
  }
  return 0;
}

/* text with the namespace and per-run texts replaced and newlines
 * escaped, on one line */
static inline void JobDataDumpLine(const JobDataDumpCtx* d, const char* where, const char* key,
                                   const char* text) {
  size_t nslen = strlen(d->nspace), len;
  fprintf(d->out, "%s %s: ", where, key);
  for (const char* p = text; *p;) {
    if (nslen > 0 && strncmp(p, d->nspace, nslen) == 0) {
      fputs("<nspace>", d->out);
      p += nslen;
    } else if ((len = JobDataDumpPerRun(d, p)) > 0) {
      fputs("<per run>", d->out);
      p += len;
    } else if (*p == '\n') {
      fputs("\\n", d->out);
      ++p;
    } else {
      fputc(*p++, d->out);
    }
  }
  fputc('\n', d->out);
}

static inline void JobDataDumpValue(const JobDataDumpCtx* d, const char* where, const char* key,
                                    const pmix_value_t* v) {
  char* s = PMIx_Value_string(v);
  JobDataDumpLine(d, where, key, s != NULL ? s : "(unprintable)");
  free(s);
}

static inline int JobDataDumpByKey(const void* a, const void* b) {
  return strcmp(((const pmix_info_t*)a)->key, ((const pmix_info_t*)b)->key);
}

/* Gets key (NULL: every key, as an info array, sorted) of rank in realm
 * `quals` (plus PMIX_OPTIONAL for NULL) and writes it. */
static inline void JobDataDumpGet(const JobDataDumpCtx* d, const char* where, pmix_rank_t rank,
                                  const char* key, const pmix_info_t* quals, size_t nquals) {
  pmix_info_t info[4];
  size_t n = 0;
  for (; n < nquals && n < 3; ++n) info[n] = quals[n]; /* shallow: not destructed here */
  bool optional = true;
  if (key == NULL) PMIX_INFO_LOAD(&info[n++], PMIX_OPTIONAL, &optional, PMIX_BOOL);
  pmix_proc_t p;
  PMIX_LOAD_PROCID(&p, d->nspace, rank);
  pmix_value_t* v = NULL;
  pmix_status_t rc = PMIx_Get(&p, key, n ? info : NULL, n, &v);
  char named[PMIX_MAX_KEYLEN + 2];
  snprintf(named, sizeof named, "=%s", key != NULL ? key : "");
  if (rc != PMIX_SUCCESS || v == NULL) {
    JobDataDumpLine(d, where, key != NULL ? named : "*", PMIx_Error_string(rc));
  } else if (key != NULL) {
    JobDataDumpValue(d, where, named, v);
  } else if (v->type != PMIX_DATA_ARRAY || v->data.darray == NULL ||
             v->data.darray->type != PMIX_INFO) {
    JobDataDumpValue(d, where, "* (not an info array)", v);
  } else {
    pmix_info_t* all = (pmix_info_t*)v->data.darray->array;
    size_t count = v->data.darray->size;
    qsort(all, count, sizeof *all, JobDataDumpByKey);
    for (size_t i = 0; i < count; ++i) JobDataDumpValue(d, where, all[i].key, &all[i].value);
    if (count == 0) JobDataDumpLine(d, where, "*", "(no keys)");
  }
  if (v != NULL) PMIX_VALUE_RELEASE(v);
}

/* key of rank as a uint32 (not written), or `dflt`. */
static inline uint32_t JobDataDumpU32(const char* nspace, pmix_rank_t rank, const char* key,
                                      uint32_t dflt) {
  pmix_proc_t p;
  PMIX_LOAD_PROCID(&p, nspace, rank);
  pmix_value_t* v = NULL;
  uint32_t out = dflt;
  if (PMIx_Get(&p, key, NULL, 0, &v) != PMIX_SUCCESS || v == NULL) return out;
  if (v->type == PMIX_UINT32)
    out = v->data.uint32;
  else if (v->type == PMIX_UINT16)
    out = v->data.uint16;
  else if (v->type == PMIX_PROC_RANK)
    out = v->data.rank;
  PMIX_VALUE_RELEASE(v);
  return out;
}

static const char* kJobDataDumpSessionKeys[] = {PMIX_SESSION_ID,
                                                PMIX_UNIV_SIZE,
                                                PMIX_MAX_PROCS,
                                                PMIX_NUM_SLOTS,
                                                PMIX_NUM_NODES,
                                                PMIX_ALLOCATED_NODELIST,
                                                NULL};
static const char* kJobDataDumpJobKeys[] = {PMIX_JOBID,        PMIX_NSPACE,        PMIX_SESSION_ID,
                                            PMIX_JOB_SIZE,     PMIX_UNIV_SIZE,     PMIX_MAX_PROCS,
                                            PMIX_JOB_NUM_APPS, PMIX_NUM_NODES,     PMIX_NUM_SLOTS,
                                            PMIX_NODE_LIST,    PMIX_NODE_MAP,      PMIX_PROC_MAP,
                                            PMIX_ANL_MAP,      PMIX_LOCAL_SIZE,    PMIX_LOCAL_PEERS,
                                            PMIX_LOCALLDR,     PMIX_LOCAL_CPUSETS, PMIX_NODE_SIZE,
                                            PMIX_NSDIR,        PMIX_TMPDIR,        PMIX_SPAWNED,
                                            PMIX_HOSTNAME,     PMIX_NODEID,        PMIX_APPNUM,
                                            PMIX_APPLDR,       PMIX_APP_SIZE,      NULL};
static const char* kJobDataDumpAppKeys[] = {PMIX_APPNUM,    PMIX_APP_SIZE,   PMIX_APPLDR,
                                            PMIX_APP_ARGV,  PMIX_WDIR,       PMIX_NUM_NODES,
                                            PMIX_MAX_PROCS, PMIX_PSET_NAMES, NULL};
static const char* kJobDataDumpNodeKeys[] = {PMIX_NODEID,
                                             PMIX_HOSTNAME,
                                             PMIX_HOSTNAME_ALIASES,
                                             PMIX_LOCAL_SIZE,
                                             PMIX_NODE_SIZE,
                                             PMIX_LOCAL_PEERS,
                                             PMIX_LOCALLDR,
                                             PMIX_LOCAL_CPUSETS,
                                             PMIX_MAX_PROCS,
                                             PMIX_NUM_SLOTS,
                                             PMIX_AVAIL_PHYS_MEMORY,
                                             PMIX_NODE_OVERSUBSCRIBED,
                                             PMIX_TMPDIR,
                                             PMIX_NSDIR,
                                             NULL};
static const char* kJobDataDumpRankKeys[] = {
    PMIX_RANK,        PMIX_GLOBAL_RANK,   PMIX_APP_RANK,
    PMIX_APPNUM,      PMIX_LOCAL_RANK,    PMIX_NODE_RANK,
    PMIX_NODEID,      PMIX_HOSTNAME,      PMIX_LOCALITY_STRING,
    PMIX_PROCDIR,     PMIX_REINCARNATION, PMIX_SPAWNED,
    PMIX_LOCAL_PEERS, PMIX_LOCAL_SIZE,    PMIX_NODE_SIZE,
    PMIX_JOB_SIZE,    PMIX_CPUSET,        NULL};

/* Every key of one realm instance, then the named ones. */
static inline void JobDataDumpRealm(const JobDataDumpCtx* d, const char* where, pmix_rank_t rank,
                                    const pmix_info_t* quals, size_t nquals, const char** keys) {
  JobDataDumpGet(d, where, rank, NULL, quals, nquals);
  for (const char** k = keys; *k; ++k) JobDataDumpGet(d, where, rank, *k, quals, nquals);
}

static inline int JobDataDump(const char* path, const char* nspace, const char* const* per_run) {
  JobDataDumpCtx d = {fopen(path, "w"), nspace, per_run};
  if (d.out == NULL) return -1;
  const pmix_rank_t wild = PMIX_RANK_WILDCARD;
  bool yes = true;
  char where[PMIX_MAX_NSLEN + 64];
  pmix_info_t q[2];

  /* the job's size, apps, session (UINT32_MAX: none) */
  uint32_t size = JobDataDumpU32(nspace, wild, PMIX_JOB_SIZE, 0);
  uint32_t napps = JobDataDumpU32(nspace, wild, PMIX_JOB_NUM_APPS, 1);
  uint32_t session = JobDataDumpU32(nspace, wild, PMIX_SESSION_ID, UINT32_MAX);

  PMIX_INFO_LOAD(&q[0], PMIX_SESSION_INFO, &yes, PMIX_BOOL);
  JobDataDumpRealm(&d, "session", wild, q, 1, kJobDataDumpSessionKeys);
  if (session != UINT32_MAX) {
    PMIX_INFO_LOAD(&q[1], PMIX_SESSION_ID, &session, PMIX_UINT32);
    snprintf(where, sizeof where, "session %u", (unsigned)session);
    JobDataDumpRealm(&d, where, wild, q, 2, kJobDataDumpSessionKeys);
  }

  JobDataDumpRealm(&d, "job", wild, NULL, 0, kJobDataDumpJobKeys);

  PMIX_INFO_LOAD(&q[0], PMIX_APP_INFO, &yes, PMIX_BOOL);
  for (uint32_t a = 0; a < napps && a < 16; ++a) {
    PMIX_INFO_LOAD(&q[1], PMIX_APPNUM, &a, PMIX_UINT32);
    snprintf(where, sizeof where, "app %u", (unsigned)a);
    JobDataDumpRealm(&d, where, wild, q, 2, kJobDataDumpAppKeys);
  }

  /* the nodes: this one, then each of the ranks' node ids (ascending)
   * and each name in PMIX_NODE_LIST */
  PMIX_INFO_LOAD(&q[0], PMIX_NODE_INFO, &yes, PMIX_BOOL);
  JobDataDumpRealm(&d, "node", wild, q, 1, kJobDataDumpNodeKeys);
  bool seen[JOBDATADUMP_MAX_NODES] = {false};
  for (uint32_t r = 0; r < size; ++r) {
    uint32_t id = JobDataDumpU32(nspace, r, PMIX_NODEID, JOBDATADUMP_MAX_NODES);
    if (id < JOBDATADUMP_MAX_NODES) seen[id] = true;
  }
  for (uint32_t id = 0; id < JOBDATADUMP_MAX_NODES; ++id) {
    if (!seen[id]) continue;
    PMIX_INFO_LOAD(&q[1], PMIX_NODEID, &id, PMIX_UINT32);
    snprintf(where, sizeof where, "node %u", (unsigned)id);
    JobDataDumpRealm(&d, where, wild, q, 2, kJobDataDumpNodeKeys);
  }
  pmix_proc_t job;
  PMIX_LOAD_PROCID(&job, nspace, wild);
  pmix_value_t* v = NULL;
  if (PMIx_Get(&job, PMIX_NODE_LIST, NULL, 0, &v) == PMIX_SUCCESS && v != NULL &&
      v->type == PMIX_STRING && v->data.string != NULL) {
    size_t len = strlen(v->data.string) + 1;
    char* list = (char*)malloc(len); /* strdup is not C99 */
    if (list != NULL) memcpy(list, v->data.string, len);
    for (char *name = list, *next; name != NULL && *name; name = next) {
      next = strchr(name, ',');
      if (next != NULL) *next++ = '\0';
      PMIX_INFO_LOAD(&q[1], PMIX_HOSTNAME, name, PMIX_STRING);
      snprintf(where, sizeof where, "node %.200s", name);
      JobDataDumpRealm(&d, where, wild, q, 2, kJobDataDumpNodeKeys);
      PMIX_INFO_DESTRUCT(&q[1]);
    }
    free(list);
  }
  if (v != NULL) PMIX_VALUE_RELEASE(v);

  for (uint32_t r = 0; r < size; ++r) {
    snprintf(where, sizeof where, "rank %u", (unsigned)r);
    JobDataDumpRealm(&d, where, r, NULL, 0, kJobDataDumpRankKeys);
  }
  return fclose(d.out) == 0 ? 0 : -1;
}

/* How this process got its job-data image: "shmem" when a region of gds
 * shmem (a "/memfd:pmix-gds-shmem" mapping, plugins/gds/shmem) is mapped,
 * else "inline" (the bytes came in the welcome: PMIX_MCA_gds=hash). */
static inline const char* JobDataImageMedium(void) {
  FILE* maps = fopen("/proc/self/maps", "r");
  if (maps == NULL) return "unknown";
  char line[4096];
  int mapped = 0;
  while (fgets(line, sizeof line, maps) != NULL)
    mapped += strstr(line, "/memfd:pmix-gds-shmem") != NULL;
  fclose(maps);
  return mapped > 0 ? "shmem" : "inline";
}

#endif /* PMIXX_TEST_COMMON_JOBINFO_DUMP_H */
