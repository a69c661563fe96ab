/*
 * client_soak MODE N: the client side of the load and soak runs
 * (test/integration/soak.sh, bench/soak.sh).
 *   fences N  N rounds of Put/Commit/Fence (every 10th collects data and the
 *             next rank's value of that round is read back); the process's
 *             descriptors are the same after the last round as after the first.
 *   cycles N  N times PMIx_Init, a Get, PMIx_Finalize in one process; its
 *             descriptors are the same after each cycle as after the first,
 *             and its RSS grows by at most 16 MiB from the 10th cycle on.
 *   blobs N   N rounds of a 64 KiB blob put under the same key, Commit and a
 *             collecting Fence, no Get: from the 10th round on, the memory
 *             files this process maps (the server's shared records) and its
 *             descriptors stay the same in number, and its RSS grows by at
 *             most 8 MiB (a superseded blob is let go as the next comes;
 *             SOAK_CHECK_RSS=0 skips the RSS bound).
 *   once      PMIx_Init, one Fence, PMIx_Finalize (many processes at once).
 * Every call must succeed: zero failures.
 */
#include "test/host/clients/client_util.h"

#include "test/host/self_usage.h"

static void PutRound(int round) {
    pmix_value_t v;
    PMIX_VALUE_LOAD(&v, &round, PMIX_INT);
    CHECK_RC(PMIx_Put(PMIX_GLOBAL, "soak.round", &v), PMIX_SUCCESS, "PMIx_Put");
    CHECK_RC(PMIx_Commit(), PMIX_SUCCESS, "PMIx_Commit");
}

static void Fences(int rounds) {
    ClientInit();
    uint32_t size = GetU32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    pmix_proc_t all = ProcOf(PMIX_RANK_WILDCARD);
    int fds = -1;
    for (int r = 1; r <= rounds; ++r) {
        int collect = r % 10 == 0;
        if (collect) PutRound(r);
        pmix_info_t info;
        bool yes = true;
        PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
        pmix_status_t rc = PMIx_Fence(&all, 1, collect ? &info : NULL, collect ? 1 : 0);
        PMIX_INFO_DESTRUCT(&info);
        if (rc != PMIX_SUCCESS) Fail("fence %d: %s (%d)", r, PMIx_Error_string(rc), rc);
        if (collect) {
            pmix_rank_t next = (client_me.rank + 1) % size;
            pmix_value_t *v = GetTyped(next, "soak.round", PMIX_INT, NULL, 0);
            CHECK(v->data.integer == r, "fence %d: rank %u's value is %d", r, (unsigned)next,
                  v->data.integer);
            PMIX_VALUE_RELEASE(v);
        }
        if (r == 1) fds = SelfFdCount();
    }
    int now = SelfFdCount();
    CHECK(now == fds, "descriptors: %d after the first fence, %d after the last", fds, now);
    ClientFinalize();
}

/* Lines of /proc/self/maps naming a memory file. */
static int MemfdMappings(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    CHECK(f != NULL, "cannot read /proc/self/maps");
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f)) n += strstr(line, "/memfd:") != NULL;
    fclose(f);
    return n;
}

static void Blobs(int rounds) {
    enum { kSize = 64 * 1024 };
    ClientInit();
    pmix_proc_t all = ProcOf(PMIX_RANK_WILDCARD);
    static char buf[kSize];
    int maps = -1, fds = -1;
    long rss = -1;
    for (int r = 1; r <= rounds; ++r) {
        memset(buf, r & 0xff, sizeof buf);
        pmix_value_t v;
        pmix_byte_object_t bo = {buf, sizeof buf};
        PMIX_VALUE_LOAD(&v, &bo, PMIX_BYTE_OBJECT);
        CHECK_RC(PMIx_Put(PMIX_GLOBAL, "soak.blob", &v), PMIX_SUCCESS, "PMIx_Put");
        PMIX_VALUE_DESTRUCT(&v);
        CHECK_RC(PMIx_Commit(), PMIX_SUCCESS, "PMIx_Commit");
        pmix_info_t info;
        bool yes = true;
        PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
        pmix_status_t rc = PMIx_Fence(&all, 1, &info, 1);
        PMIX_INFO_DESTRUCT(&info);
        if (rc != PMIX_SUCCESS) Fail("fence %d: %s (%d)", r, PMIx_Error_string(rc), rc);
        if (r == 10) {
            maps = MemfdMappings();
            fds = SelfFdCount();
            const char *check_rss = getenv("SOAK_CHECK_RSS");  /* "0" under ASan */
            rss = check_rss != NULL && *check_rss == '0' ? -1 : SelfRssKib(NULL);
        }
    }
    int now_maps = MemfdMappings(), now_fds = SelfFdCount();
    long now_rss = SelfRssKib(NULL);
    CHECK(now_maps <= maps, "memory files mapped: %d after 10 rounds, %d after %d", maps, now_maps,
          rounds);
    CHECK(now_fds == fds, "descriptors: %d after 10 rounds, %d after %d", fds, now_fds, rounds);
    CHECK(rss < 0 || now_rss - rss <= 8 * 1024, "RSS grew from %ld KiB to %ld KiB over %d rounds",
          rss, now_rss, rounds);
    Note("%d blob rounds: %d mappings, %d descriptors, RSS %ld -> %ld KiB", rounds, now_maps,
         now_fds, rss, now_rss);
    ClientFinalize();
}

static void Cycles(int cycles) {
    int fds = -1;
    long rss = -1;
    for (int c = 1; c <= cycles; ++c) {
        ClientInit();
        CHECK(GetU32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE) > 0, "cycle %d: job size 0", c);
        ClientFinalize();
        int now = SelfFdCount();
        if (c == 1) fds = now;
        CHECK(now == fds, "cycle %d: %d descriptors open, %d after the first cycle", c, now, fds);
        if (c == 10 || (c == cycles && rss < 0)) rss = SelfRssKib(NULL);
    }
    long last = SelfRssKib(NULL);
    CHECK(rss < 0 || last - rss <= 16 * 1024, "RSS grew from %ld KiB to %ld KiB over %d cycles",
          rss, last, cycles);
    Note("%d cycles: %d descriptors, RSS %ld -> %ld KiB", cycles, fds, rss, last);
}

static void Once(void) {
    ClientInit();
    pmix_proc_t all = ProcOf(PMIX_RANK_WILDCARD);
    CHECK_RC(PMIx_Fence(&all, 1, NULL, 0), PMIX_SUCCESS, "PMIx_Fence");
    ClientFinalize();
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    int n = argc > 2 ? atoi(argv[2]) : 0;
    if (strcmp(mode, "fences") == 0 && n > 0) {
        Fences(n);
    } else if (strcmp(mode, "cycles") == 0 && n > 0) {
        Cycles(n);
    } else if (strcmp(mode, "blobs") == 0 && n > 10) {
        Blobs(n);
    } else if (strcmp(mode, "once") == 0) {
        Once();
    } else {
        fprintf(stderr, "usage: client_soak fences N | blobs N | cycles N | once\n");
        return 1;
    }
    return 0;
}
