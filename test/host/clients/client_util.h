/*
 * Helpers shared by the test clients (header-only, C99, public pmix.h API
 * only). Exit codes: 0 success, 1 a check failed, 2 PMIx_Init failed.
 * A failure prints "[client <rank>] FAIL: why" to stderr.
 * PMIXX_TEST_VERBOSE=1 prints what each check saw.
 */
#ifndef PMIXX_TEST_HOST_CLIENT_UTIL_H
#define PMIXX_TEST_HOST_CLIENT_UTIL_H

#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pmix.h"

static pmix_proc_t client_me;

/* Flags and counters that a library callback (on the progress thread) sets
 * and the application's thread reads: atomic, so that what the callback
 * wrote before setting them is visible after reading them (and TSan builds
 * see no race). */
#define FLAG_GET(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define FLAG_SET(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELEASE)
#define FLAG_INC(x) __atomic_add_fetch(&(x), 1, __ATOMIC_ACQ_REL)

static inline void ClientSay(const char *tag, const char *fmt, va_list ap) {
    char line[1024];
    vsnprintf(line, sizeof line, fmt, ap);
    fprintf(stderr, "[client %s:%d] %s%s\n", client_me.nspace, (int)client_me.rank, tag, line);
}

static inline void Fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ClientSay("FAIL: ", fmt, ap);
    va_end(ap);
    exit(1);
}

static inline void Note(const char *fmt, ...) {
    const char *v = getenv("PMIXX_TEST_VERBOSE");
    if (!v || !*v || *v == '0') return;
    va_list ap;
    va_start(ap, fmt);
    ClientSay("", fmt, ap);
    va_end(ap);
}

#define CHECK(cond, ...)                  \
    do {                                  \
        if (!(cond)) Fail(__VA_ARGS__);   \
    } while (0)

#define CHECK_RC(rc, want, what)                                                              \
    do {                                                                                      \
        pmix_status_t rc_ = (rc);                                                             \
        if (rc_ != (want))                                                                    \
            Fail("%s: got %s (%d), want %s", what, PMIx_Error_string(rc_), rc_,               \
                 PMIx_Error_string(want));                                                    \
    } while (0)

/* PMIx_Init, or exit 2. With PMIXX_TEST_WAIT_FILE set, then waits (at most
 * 20 s) until that file exists: a test script's "go" after it did something
 * to the running server. */
static inline void ClientInit(void) {
    pmix_status_t rc = PMIx_Init(&client_me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "[client pid %d] PMIx_Init failed: %s (%d)\n", (int)getpid(),
                PMIx_Error_string(rc), rc);
        exit(2);
    }
    const char *go = getenv("PMIXX_TEST_WAIT_FILE");
    const struct timespec tick = {0, 10000000L};
    for (int i = 0; go && *go && i < 2000 && access(go, F_OK) != 0; ++i) nanosleep(&tick, NULL);
}

static inline void ClientFinalize(void) {
    CHECK_RC(PMIx_Finalize(NULL, 0), PMIX_SUCCESS, "PMIx_Finalize");
}

static inline pmix_proc_t ProcOf(pmix_rank_t rank) {
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, client_me.nspace, rank);
    return p;
}

/* Get a key that must exist with the given type; the caller releases. */
static inline pmix_value_t *GetTyped(pmix_rank_t rank, const char *key, pmix_data_type_t type,
                              const pmix_info_t *info, size_t ninfo) {
    pmix_proc_t p = ProcOf(rank);
    pmix_value_t *val = NULL;
    pmix_status_t rc = PMIx_Get(&p, key, info, ninfo, &val);
    if (rc != PMIX_SUCCESS)
        Fail("PMIx_Get(rank %d, %s): %s (%d)", (int)rank, key, PMIx_Error_string(rc), rc);
    CHECK(val != NULL, "PMIx_Get(rank %d, %s): success but no value", (int)rank, key);
    CHECK(val->type == type, "PMIx_Get(rank %d, %s): type %s, want %s", (int)rank, key,
          PMIx_Data_type_string(val->type), PMIx_Data_type_string(type));
    return val;
}

static inline uint32_t GetU32(pmix_rank_t rank, const char *key) {
    pmix_value_t *v = GetTyped(rank, key, PMIX_UINT32, NULL, 0);
    uint32_t x = v->data.uint32;
    PMIX_VALUE_RELEASE(v);
    return x;
}

/* Running on the reference OpenPMIx? Checks of pmixx behaviour the
 * reference does not have (documented at each use) are skipped there. */
static inline int OnOpenPmix(void) {
    const char *v = PMIx_Get_version();
    return v && strncmp(v, "OpenPMIx", 8) == 0;
}

static inline double NowSec(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One non-blocking call's completion: pass NbWaitDone (a pmix_op_cbfunc_t)
 * with a zeroed NbWait as cbdata, then NbWaitFor it. */
typedef struct {
    int done;
    pmix_status_t status;
} NbWait;

static inline void NbWaitDone(pmix_status_t status, void *cbdata) {
    NbWait *w = cbdata;
    w->status = status;
    FLAG_SET(w->done, 1);
}

/* Fails unless the callback came within 30 s with status `want`. */
static inline void NbWaitFor(NbWait *w, pmix_status_t want, const char *what) {
    const struct timespec tick = {0, 1000000L};
    double t0 = NowSec();
    while (!FLAG_GET(w->done) && NowSec() - t0 < 30.0) nanosleep(&tick, NULL);
    CHECK(FLAG_GET(w->done), "%s: callback not called within 30 s", what);
    CHECK_RC(w->status, want, what);
}

/* The memory files pmixx makes (memfd_create names): gds/shmem regions
 * (job-data images, fence chunks) and doorbell pages (also
 * "pmixx-doorbell-release"). /proc shows them as "/memfd:<name> (deleted)". */
#define PMIXX_MEMFD_REGION "pmix-gds-shmem"
#define PMIXX_MEMFD_DOORBELL "pmixx-doorbell"

/* Whether `path` names a memory file whose name begins with `name`. */
static inline int IsMemfdNamed(const char *path, const char *name) {
    return strncmp(path, "/memfd:", 7) == 0 && strncmp(path + 7, name, strlen(name)) == 0;
}

/* Lines of /proc/self/maps that map a memory file named `name`... */
static inline int MemfdMapsNamed(const char *name) {
    FILE *f = fopen("/proc/self/maps", "r");
    CHECK(f != NULL, "cannot read /proc/self/maps");
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        const char *path = strstr(line, " /memfd:");
        n += path != NULL && IsMemfdNamed(path + 1, name);
    }
    fclose(f);
    return n;
}

/* ... and descriptors this process holds of one ("": of any memory file). */
static inline int MemfdFdsNamed(const char *name) {
    DIR *d = opendir("/proc/self/fd");
    CHECK(d != NULL, "cannot list /proc/self/fd");
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)) != NULL) {
        char path[300], target[512];
        snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
        ssize_t len = readlink(path, target, sizeof target - 1);
        if (len <= 0) continue;
        target[len] = '\0';
        n += IsMemfdNamed(target, name);
    }
    closedir(d);
    return n;
}

/* A collective over a set of procs with the signature of PMIx_Fence and
 * PMIx_Connect. */
typedef pmix_status_t (*ProcSetCall)(const pmix_proc_t procs[], size_t nprocs,
                                     const pmix_info_t info[], size_t ninfo);

/* Rank 0: `call` ("Fence", "Connect": `name`) over ranks {0, 1} with
 * PMIX_TIMEOUT 1, while rank 1 never joins: fails with PMIX_ERR_TIMEOUT
 * after about 1 s. */
static inline void CheckTimesOutWithoutRank1(ProcSetCall call, const char *name) {
    pmix_proc_t pair[2] = {ProcOf(0), ProcOf(1)};
    pmix_info_t info;
    int sec = 1;
    PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &sec, PMIX_INT);
    double t0 = NowSec();
    pmix_status_t rc = call(pair, 2, &info, 1);
    double took = NowSec() - t0;
    PMIX_INFO_DESTRUCT(&info);
    Note("%s with an absent participant, PMIX_TIMEOUT 1: %s after %.2f s", name,
         PMIx_Error_string(rc), took);
    char what[128];
    snprintf(what, sizeof what, "%s(rank 1 absent, PMIX_TIMEOUT 1)", name);
    CHECK_RC(rc, PMIX_ERR_TIMEOUT, what);
    CHECK(took >= 0.9 && took < 5.0, "%s with PMIX_TIMEOUT 1 took %.2f s", name, took);
}

/* `call` over (job, njob) fails with `want` in less than max_sec. */
static inline void CheckFailsWith(ProcSetCall call, const pmix_proc_t *job, size_t njob,
                                  pmix_status_t want, const char *what, double max_sec) {
    double t0 = NowSec();
    pmix_status_t rc = call(job, njob, NULL, 0);
    double took = NowSec() - t0;
    Note("%s: %s after %.2f s", what, PMIx_Error_string(rc), took);
    CHECK_RC(rc, want, what);
    CHECK(took < max_sec, "%s took %.2f s", what, took);
}

/* The "dead" mode of a client run with --kill-rank 1 (3 ranks or more):
 * after a first fence rank 1 waits until the host kills it; on the others,
 * `call` (`name`) over the job (job, njob) fails with `interrupted` (fence:
 * PMIX_ERR_PARTIAL_SUCCESS as on OpenPMIx 4.2.2; connect:
 * PMIX_ERR_PROC_TERM_WO_SYNC), the next one at once with
 * PMIX_ERR_PROC_TERM_WO_SYNC, and `call` over the survivors succeeds. */
/* The --kill-rank client: stops itself, and the host, seeing it stopped,
 * kills it --kill-after-ms later; so the kill never comes before the
 * client got here, however slowly the job started. */
static inline void AwaitTheKill(void) {
    alarm(30);
    raise(SIGSTOP);
    for (;;) pause();
}

static inline void CheckRank1Dies(ProcSetCall call, const char *name, const pmix_proc_t *job,
                                  size_t njob, uint32_t job_size, pmix_status_t interrupted) {
    CHECK(job_size >= 3, "%s: the dead mode needs 3 ranks or more", name);
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "first Fence");
    if (client_me.rank == 1) AwaitTheKill();
    char what[128];
    snprintf(what, sizeof what, "%s with rank 1 dead", name);
    CheckFailsWith(call, job, njob, interrupted, what, 10.0);
    snprintf(what, sizeof what, "%s naming rank 1 after its death", name);
    CheckFailsWith(call, job, njob, PMIX_ERR_PROC_TERM_WO_SYNC, what, 1.0);
    pmix_proc_t *survivors = calloc(job_size - 1, sizeof *survivors);
    CHECK(survivors != NULL, "calloc");
    for (uint32_t r = 0, n = 0; r < job_size; ++r)
        if (r != 1) survivors[n++] = ProcOf(r);
    snprintf(what, sizeof what, "%s of the survivors", name);
    CHECK_RC(call(survivors, job_size - 1, NULL, 0), PMIX_SUCCESS, what);
    free(survivors);
}

#endif
