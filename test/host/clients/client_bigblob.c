/*
 * client_bigblob: large committed blobs through collecting fences. Every
 * rank puts BIGBLOB_COMMITS (default 1) blobs of BIGBLOB_SIZE bytes
 * (default 1 MiB), each in a commit of its own, plus a small PMIX_LOCAL
 * string, fences with PMIX_COLLECT_DATA and reads every peer's data back
 * (twice: the second Get reads the indexed data); then stores an internal
 * value about a peer (PMIx_Store_internal) and checks it is seen next to
 * the peer's committed data (single key and all keys); then a second
 * round of blobs under new keys, after which the first round's are still
 * there.
 *
 * BIGBLOB_EXPECT (pmixx only; ignored on OpenPMIx): "shared" -- the fence
 * result arrives as sealed regions this process maps (it has more memfd
 * mappings after the fence than before; checked where memfds can be
 * sealed); "inline" -- as bytes (no new memfd mapping).
 * BIGBLOB_MAPS=N (pmixx, "shared" only): the first fence maps at most N
 * memfds, whatever the number of peers (the server's records lie in a few
 * shared chunks), and the second fence maps none (the chunks are mapped
 * already).
 * BIGBLOB_PRIVATE_KIB=N (pmixx, "shared" only): the first fence grows
 * this process's private memory (RssAnon) by at most N KiB: the records,
 * this node's and the other node's (--remote-procs), stay in the regions
 * the server shares.
 */
#include "test/host/clients/client_util.h"

#include <stdbool.h>
#include <sys/mman.h>

static uint32_t job_size;
static size_t blob_size = 1u << 20;
static int commits = 1;

static void Fill(unsigned char *buf, size_t n, pmix_rank_t rank, int round, int i) {
    uint32_t x = rank * 2654435761u + (uint32_t)round * 40503u + (uint32_t)i * 977u + 1u;
    for (size_t k = 0; k < n; ++k) {
        x = x * 1103515245u + 12345u;
        buf[k] = (unsigned char)(x >> 16);
    }
}

static void BlobKey(char *out, int round, int i) {
    snprintf(out, PMIX_MAX_KEYLEN + 1, "big%d.blob%d", round, i);
}

/* Lines of /proc/self/maps naming a memfd, but the pages a blocking fence
 * is released through (src/wire/doorbell.h: the doorbell and the release
 * page, both named pmixx-doorbell...), which the first fence maps. */
static int MemfdMappings(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    int n = 0;
    if (f == NULL) return -1;
    while (fgets(line, sizeof line, f) != NULL)
        if (strstr(line, "/memfd:") != NULL && strstr(line, "/memfd:pmixx-doorbell") == NULL) ++n;
    fclose(f);
    return n;
}

/* This process's private resident memory (RssAnon) in KiB, or -1. */
static long RssAnonKib(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    if (f == NULL) return -1;
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "RssAnon:", 8) == 0) kib = strtol(line + 8, NULL, 10);
    fclose(f);
    return kib;
}

static bool SealingWorks(void) {
    int fd = memfd_create("probe", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    bool ok = fd >= 0 && ftruncate(fd, 1) == 0 &&
              fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW) == 0;
    if (fd >= 0) close(fd);
    return ok;
}

static void PutRound(int round, unsigned char *buf) {
    char key[PMIX_MAX_KEYLEN + 1], text[64];
    pmix_value_t val;
    for (int i = 0; i < commits; ++i) {
        Fill(buf, blob_size, client_me.rank, round, i);
        pmix_byte_object_t bo = {(char *)buf, blob_size};
        BlobKey(key, round, i);
        PMIX_VALUE_LOAD(&val, &bo, PMIX_BYTE_OBJECT);
        CHECK_RC(PMIx_Put(PMIX_GLOBAL, key, &val), PMIX_SUCCESS, "PMIx_Put blob");
        PMIX_VALUE_DESTRUCT(&val);
        CHECK_RC(PMIx_Commit(), PMIX_SUCCESS, "PMIx_Commit");
    }
    snprintf(key, sizeof key, "big%d.local", round);
    snprintf(text, sizeof text, "local-%u-%d", client_me.rank, round);
    PMIX_VALUE_LOAD(&val, text, PMIX_STRING);
    CHECK_RC(PMIx_Put(PMIX_LOCAL, key, &val), PMIX_SUCCESS, "PMIx_Put local");
    PMIX_VALUE_DESTRUCT(&val);
    CHECK_RC(PMIx_Commit(), PMIX_SUCCESS, "PMIx_Commit");
}

static void Collect(void) {
    pmix_info_t info;
    bool yes = true;
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, client_me.nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    CHECK_RC(PMIx_Fence(&all, 1, &info, 1), PMIX_SUCCESS, "PMIx_Fence(collect)");
    PMIX_INFO_DESTRUCT(&info);
}

static void CheckRound(int round, unsigned char *want) {
    char key[PMIX_MAX_KEYLEN + 1];
    for (int pass = 0; pass < 2; ++pass) {
        for (pmix_rank_t r = 0; r < job_size; ++r) {
            for (int i = 0; i < commits; ++i) {
                BlobKey(key, round, i);
                pmix_value_t *v = GetTyped(r, key, PMIX_BYTE_OBJECT, NULL, 0);
                Fill(want, blob_size, r, round, i);
                CHECK(v->data.bo.size == blob_size && memcmp(v->data.bo.bytes, want, blob_size) == 0,
                      "%s of rank %u differs (%zu bytes)", key, r, v->data.bo.size);
                PMIX_VALUE_RELEASE(v);
            }
        }
    }
}

/* PMIx_Store_internal data about a peer stands next to what the peer
 * committed, for one key and for all keys. */
static void CheckInternal(void) {
    pmix_rank_t peer = (client_me.rank + 1) % job_size;
    pmix_proc_t p = ProcOf(peer);
    pmix_value_t val, *v;
    int seven = 7;
    PMIX_VALUE_LOAD(&val, &seven, PMIX_INT);
    CHECK_RC(PMIx_Store_internal(&p, "big.internal", &val), PMIX_SUCCESS, "Store_internal");
    v = GetTyped(peer, "big.internal", PMIX_INT, NULL, 0);
    CHECK(v->data.integer == 7, "internal value %d", v->data.integer);
    PMIX_VALUE_RELEASE(v);
    if (OnOpenPmix()) return; /* OpenPMIx 4.2.2: a NULL-key Get of a peer is not this */
    v = NULL;
    CHECK_RC(PMIx_Get(&p, NULL, NULL, 0, &v), PMIX_SUCCESS, "Get(all keys) of a peer");
    CHECK(v->type == PMIX_DATA_ARRAY && v->data.darray->type == PMIX_INFO, "all keys: type %d", v->type);
    pmix_info_t *infos = (pmix_info_t *)v->data.darray->array;
    bool internal = false, blob = false;
    for (size_t i = 0; i < v->data.darray->size; ++i) {
        internal = internal || strcmp(infos[i].key, "big.internal") == 0;
        blob = blob || (strcmp(infos[i].key, "big1.blob0") == 0 &&
                        infos[i].value.type == PMIX_BYTE_OBJECT && infos[i].value.data.bo.size == blob_size);
    }
    CHECK(internal && blob, "all keys of rank %u: internal %d, blob %d", peer, internal, blob);
    PMIX_VALUE_RELEASE(v);
}

int main(void) {
    const char *s = getenv("BIGBLOB_SIZE"), *c = getenv("BIGBLOB_COMMITS");
    const char *expect = getenv("BIGBLOB_EXPECT"), *maps = getenv("BIGBLOB_MAPS");
    if (s != NULL && *s) blob_size = (size_t)strtoul(s, NULL, 10);
    if (c != NULL && *c) commits = atoi(c);
    if (blob_size == 0 || commits < 1) Fail("bad BIGBLOB_SIZE / BIGBLOB_COMMITS");
    ClientInit();
    job_size = GetU32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    bool check_maps = !OnOpenPmix() && expect != NULL && *expect;
    bool shared = check_maps && strcmp(expect, "shared") == 0;
    if (shared && !SealingWorks()) check_maps = false;
    unsigned char *buf = malloc(blob_size), *want = malloc(blob_size);
    if (buf == NULL || want == NULL) Fail("out of memory");

    PutRound(1, buf);
    int before = MemfdMappings();
    /* The commit sent and its buffers gone before private memory is read. */
    const char *private_kib = getenv("BIGBLOB_PRIVATE_KIB");
    if (private_kib != NULL && *private_kib) CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "barrier");
    long anon_before = RssAnonKib();
    Collect();
    long anon_after = RssAnonKib();
    int after = MemfdMappings();
    Note("memfd mappings: %d before the fence, %d after (expect %s); private memory %ld -> %ld KiB",
         before, after, expect ? expect : "-", anon_before, anon_after);
    if (check_maps && shared && private_kib != NULL && *private_kib && anon_before >= 0)
        CHECK(anon_after - anon_before <= atol(private_kib),
              "the fence grew private memory by %ld KiB (at most %s expected)", anon_after - anon_before,
              private_kib);
    if (check_maps && shared)
        CHECK(after > before, "the fence's data came inline (%d memfd mappings, %d before)", after, before);
    if (check_maps && !shared)
        CHECK(after == before, "the fence's data came as regions (%d memfd mappings, %d before)", after, before);
    bool check_count = check_maps && shared && maps != NULL && *maps;
    if (check_count)
        CHECK(after - before <= atoi(maps), "the fence mapped %d memfds (at most %s expected)", after - before,
              maps);
    CheckRound(1, want);
    Note("round 1 ok");
    CheckInternal();
    Note("internal ok");

    PutRound(2, buf);
    before = MemfdMappings();
    Collect();
    after = MemfdMappings();
    Note("memfd mappings: %d before the second fence, %d after", before, after);
    if (check_count) CHECK(after == before, "the second fence mapped %d memfds again", after - before);
    CheckRound(2, want);
    CheckRound(1, want);
    Note("round 2 ok");
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "final barrier");
    free(buf);
    free(want);
    ClientFinalize();
    return 0;
}
