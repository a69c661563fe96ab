/*
 * client_soak MODE N: the client side of the load and soak runs
 * (test/integration/soak.sh, bench/soak.sh).
 *   fences N  N rounds of Put/Commit/Fence (every 10th collects data and the
 *             next rank's value of that round is read back); the process's
 *             descriptors are the same after the last round as after the first.
 *   cycles N  N times PMIx_Init, a Get, PMIx_Finalize in one process; its
 *             descriptors are the same after each cycle as after the first,
 *             and its RSS grows by at most 16 MiB from the 10th cycle on.
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
    } else if (strcmp(mode, "once") == 0) {
        Once();
    } else {
        fprintf(stderr, "usage: client_soak fences N | cycles N | once\n");
        return 1;
    }
    return 0;
}
