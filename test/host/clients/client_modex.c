/*
 * client_modex: Put/Commit/Fence/Get. Every rank puts deterministic values
 * in each scope (and a 1 KiB byte object), exchanges them with a collecting
 * fence and reads every peer's back; then a second round without data
 * collection (direct modex), keys put out of the reader's scope (not
 * found at once, even with a PMIX_TIMEOUT), the PMIX_TIMEOUT / PMIX_OPTIONAL /
 * PMIX_IMMEDIATE forms for a key nobody put, a fence over a subset of the
 * ranks and a Fence_nb.
 */
#include "test/host/clients/client_util.h"

#define kBlobSize 1024

static uint32_t job_size;
static char my_host[256];

static void FillBlob(pmix_rank_t rank, int round, unsigned char *buf) {
    for (size_t i = 0; i < kBlobSize; ++i) buf[i] = (unsigned char)(rank * 31u + i * 7u + (size_t)round);
}

static void Key(char *out, const char *name, int round) {
    snprintf(out, PMIX_MAX_KEYLEN + 1, "modex%d.%s", round, name);
}

static void PutOne(pmix_scope_t scope, const char *key, pmix_value_t *val) {
    pmix_status_t rc = PMIx_Put(scope, key, val);
    if (rc != PMIX_SUCCESS) Fail("PMIx_Put(%s): %s", key, PMIx_Error_string(rc));
}

static void PutRound(int round) {
    char key[PMIX_MAX_KEYLEN + 1], text[64];
    pmix_value_t val;
    snprintf(text, sizeof text, "local-%u-%d", client_me.rank, round);
    Key(key, "local", round);
    PMIX_VALUE_LOAD(&val, text, PMIX_STRING);
    PutOne(PMIX_LOCAL, key, &val);
    PMIX_VALUE_DESTRUCT(&val);
    uint64_t num = (uint64_t)client_me.rank * 1000u + (uint64_t)round;
    Key(key, "remote", round);
    PMIX_VALUE_LOAD(&val, &num, PMIX_UINT64);
    PutOne(PMIX_REMOTE, key, &val);
    snprintf(text, sizeof text, "global-%u-%d", client_me.rank, round);
    Key(key, "global", round);
    PMIX_VALUE_LOAD(&val, text, PMIX_STRING);
    PutOne(PMIX_GLOBAL, key, &val);
    PMIX_VALUE_DESTRUCT(&val);
    unsigned char blob[kBlobSize];
    FillBlob(client_me.rank, round, blob);
    pmix_byte_object_t bo = {(char *)blob, kBlobSize};
    Key(key, "blob", round);
    PMIX_VALUE_LOAD(&val, &bo, PMIX_BYTE_OBJECT);
    PutOne(PMIX_GLOBAL, key, &val);
    PMIX_VALUE_DESTRUCT(&val);
    CHECK_RC(PMIx_Commit(), PMIX_SUCCESS, "PMIx_Commit");
}

/* A key in the reserved "pmix" namespace cannot be put (RFC0009, DESIGN
 * §2.4). OpenPMIx 4.2.2 accepts it (returns PMIX_SUCCESS): not checked there. */
static void CheckReservedPut(void) {
    if (OnOpenPmix()) return;
    pmix_value_t val;
    int x = 1;
    PMIX_VALUE_LOAD(&val, &x, PMIX_INT);
    CHECK_RC(PMIx_Put(PMIX_GLOBAL, "pmix.test.reserved", &val), PMIX_ERR_BAD_PARAM,
             "PMIx_Put of a reserved key");
}

static int SameNode(pmix_rank_t peer) {
    pmix_value_t *v = GetTyped(peer, PMIX_HOSTNAME, PMIX_STRING, NULL, 0);
    int same = strcmp(v->data.string, my_host) == 0;
    PMIX_VALUE_RELEASE(v);
    return same;
}

/* Read back what peer put in this round; scope decides visibility:
 * PMIX_LOCAL only on the peer's node, PMIX_REMOTE only elsewhere. */
static void CheckPeer(pmix_rank_t peer, int round) {
    char key[PMIX_MAX_KEYLEN + 1], text[64];
    int same = SameNode(peer);
    pmix_value_t *v;
    if (same) {
        Key(key, "local", round);
        v = GetTyped(peer, key, PMIX_STRING, NULL, 0);
        snprintf(text, sizeof text, "local-%u-%d", peer, round);
        CHECK(strcmp(v->data.string, text) == 0, "%s of %u = '%s'", key, peer, v->data.string);
        PMIX_VALUE_RELEASE(v);
    } else {
        Key(key, "remote", round);
        v = GetTyped(peer, key, PMIX_UINT64, NULL, 0);
        CHECK(v->data.uint64 == (uint64_t)peer * 1000u + (uint64_t)round, "%s of %u = %llu", key,
              peer, (unsigned long long)v->data.uint64);
        PMIX_VALUE_RELEASE(v);
    }
    Key(key, "global", round);
    v = GetTyped(peer, key, PMIX_STRING, NULL, 0);
    snprintf(text, sizeof text, "global-%u-%d", peer, round);
    CHECK(strcmp(v->data.string, text) == 0, "%s of %u = '%s'", key, peer, v->data.string);
    PMIX_VALUE_RELEASE(v);
    unsigned char want[kBlobSize];
    FillBlob(peer, round, want);
    Key(key, "blob", round);
    v = GetTyped(peer, key, PMIX_BYTE_OBJECT, NULL, 0);
    CHECK(v->data.bo.size == kBlobSize && memcmp(v->data.bo.bytes, want, kBlobSize) == 0,
          "%s of %u: %zu bytes, content %s", key, peer, v->data.bo.size,
          v->data.bo.size == kBlobSize ? "differs" : "-");
    PMIX_VALUE_RELEASE(v);
}

static void FenceAll(int collect) {
    pmix_info_t info;
    bool yes = true;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    pmix_proc_t all = ProcOf(PMIX_RANK_WILDCARD);
    pmix_status_t rc = PMIx_Fence(&all, 1, collect ? &info : NULL, collect ? 1 : 0);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS) Fail("PMIx_Fence(collect=%d): %s", collect, PMIx_Error_string(rc));
}

/* A key nobody put, asked of another rank with each directive. */
typedef struct {
    const char *attr;
    pmix_status_t want;
    double max_sec;
} MissingCase;

static void CheckMissing(void) {
    const MissingCase cases[] = {
        {PMIX_TIMEOUT, PMIX_ERR_TIMEOUT, 5.0},   /* the server holds it, then gives up */
        {PMIX_OPTIONAL, PMIX_ERR_NOT_FOUND, 0.5},
        {PMIX_IMMEDIATE, PMIX_ERR_NOT_FOUND, 0.5},
    };
    pmix_rank_t peer = (client_me.rank + 1) % job_size;
    int same = SameNode(peer);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        pmix_info_t info;
        bool yes = true;
        int sec = 1;
        if (strcmp(cases[i].attr, PMIX_TIMEOUT) == 0) PMIX_INFO_LOAD(&info, cases[i].attr, &sec, PMIX_INT);
        else PMIX_INFO_LOAD(&info, cases[i].attr, &yes, PMIX_BOOL);
        pmix_proc_t p = ProcOf(peer);
        pmix_value_t *v = NULL;
        double t0 = NowSec();
        pmix_status_t rc = PMIx_Get(&p, "modex.never", &info, 1, &v);
        double took = NowSec() - t0;
        PMIX_INFO_DESTRUCT(&info);
        Note("Get(never, %s) -> %s in %.2f s", cases[i].attr, PMIx_Error_string(rc), took);
        /* OpenPMIx 4.2.2: the owning server answers a direct-modex request
         * for a key its client never put with NOT_FOUND at once instead of
         * holding it until the timeout (standard 5.3 says hold). */
        if (rc == PMIX_ERR_NOT_FOUND && cases[i].want == PMIX_ERR_TIMEOUT && !same && OnOpenPmix())
            rc = PMIX_ERR_TIMEOUT;
        CHECK(rc == cases[i].want && v == NULL, "Get of a key never put with %s: %s, want %s",
              cases[i].attr, PMIx_Error_string(rc), PMIx_Error_string(cases[i].want));
        CHECK(took <= cases[i].max_sec, "Get with %s took %.2f s", cases[i].attr, took);
    }
}

/* A key a peer committed in a scope that excludes this rank (PMIX_LOCAL on
 * another node, PMIX_REMOTE on this one), asked with a PMIX_TIMEOUT: the
 * owner committed it, so it can never become visible here, and the answer
 * is PMIX_ERR_NOT_FOUND at once (OpenPMIx 4.2.2), not PMIX_ERR_TIMEOUT. */
static void CheckOutOfScope(int round) {
    for (pmix_rank_t peer = 0; peer < job_size; ++peer) {
        if (peer == client_me.rank) continue;
        char key[PMIX_MAX_KEYLEN + 1];
        Key(key, SameNode(peer) ? "remote" : "local", round);
        pmix_info_t info;
        int sec = 30;
        PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &sec, PMIX_INT);
        pmix_proc_t p = ProcOf(peer);
        pmix_value_t *v = NULL;
        pmix_status_t rc = PMIx_Get(&p, key, &info, 1, &v);
        PMIX_INFO_DESTRUCT(&info);
        CHECK(rc == PMIX_ERR_NOT_FOUND && v == NULL, "Get(%s of %u, timeout %d s): %s, want NOT_FOUND",
              key, peer, sec, PMIx_Error_string(rc));
    }
}

/* Even ranks fence among themselves; odd ranks do not take part. */
static void FenceSubset(void) {
    if (client_me.rank % 2) return;
    size_t n = (job_size + 1) / 2;
    pmix_proc_t *procs = calloc(n, sizeof *procs);
    CHECK(procs != NULL, "calloc");
    for (size_t i = 0; i < n; ++i) procs[i] = ProcOf((pmix_rank_t)(2 * i));
    CHECK_RC(PMIx_Fence(procs, n, NULL, 0), PMIX_SUCCESS, "PMIx_Fence over the even ranks");
    free(procs);
}

static int fence_nb_done;
static pmix_status_t fence_nb_status;

static void FenceNbDone(pmix_status_t status, void *cbdata) {
    (void)cbdata;
    fence_nb_status = status;
    FLAG_SET(fence_nb_done, 1);
}

static void FenceNb(void) {
    pmix_proc_t all = ProcOf(PMIX_RANK_WILDCARD);
    CHECK_RC(PMIx_Fence_nb(&all, 1, NULL, 0, FenceNbDone, NULL), PMIX_SUCCESS, "PMIx_Fence_nb");
    const struct timespec tick = {0, 1000000L};
    double t0 = NowSec();
    while (!FLAG_GET(fence_nb_done) && NowSec() - t0 < 30.0) nanosleep(&tick, NULL);
    CHECK(FLAG_GET(fence_nb_done), "PMIx_Fence_nb: callback not called within 30 s");
    CHECK_RC(fence_nb_status, PMIX_SUCCESS, "PMIx_Fence_nb callback status");
}

int main(void) {
    ClientInit();
    job_size = GetU32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    pmix_value_t *v = GetTyped(client_me.rank, PMIX_HOSTNAME, PMIX_STRING, NULL, 0);
    snprintf(my_host, sizeof my_host, "%s", v->data.string);
    PMIX_VALUE_RELEASE(v);
    CheckReservedPut();
    PutRound(1);
    FenceAll(1);
    for (pmix_rank_t r = 0; r < job_size; ++r) CheckPeer(r, 1);
    Note("round 1 (collected) ok");
    PutRound(2);
    FenceAll(0);
    for (pmix_rank_t r = 0; r < job_size; ++r) CheckPeer((client_me.rank + r) % job_size, 2);
    Note("round 2 (direct modex) ok");
    CheckOutOfScope(1);
    CheckOutOfScope(2);
    Note("out-of-scope keys ok");
    if (job_size > 1) CheckMissing();
    FenceSubset();
    FenceNb();
    FenceAll(0); /* nobody leaves while a peer may still ask for its data */
    ClientFinalize();
    Note("modex ok");
    return 0;
}
