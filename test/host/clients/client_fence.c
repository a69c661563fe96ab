/*
 * client_fence [ROUNDS]: PMIx_Fence and PMIx_Fence_nb in every shape a job
 * uses them, on every rank of the job (all must run it):
 *   - argument checks (NULL procs with a count, bad nspace or rank, ...);
 *   - ROUNDS (default 5) put/commit/fence-with-collect rounds, each followed
 *     by a Get of every peer's value of that round;
 *   - barrier-only fences (NULL procs, the wildcard, an explicit rank list);
 *   - a fence where each rank gives its own directive (test.dir.<rank>);
 *   - subsets: pairs {2i, 2i+1};
 *   - overlapping sets at once: Fence_nb over {r-1, r} and {r, r+1};
 *   - three Fence_nb over the whole job back to back (sequential fences
 *     over one set, issued before the first completed);
 *   - PMIX_TIMEOUT: rank 0 fences with rank 1, which never joins: the
 *     fence must fail with PMIX_ERR_TIMEOUT after about the timeout;
 *   - a final fence, then PMIx_Finalize.
 *
 * client_fence dead (with --kill-rank 1): rank 1 waits after a first fence
 * until the host kills it; every other rank's next fence over the job
 * completes among the survivors with PMIX_ERR_PARTIAL_SUCCESS (OpenPMIx
 * 4.2.2), the one after that fails at once with PMIX_ERR_PROC_TERM_WO_SYNC;
 * a fence of the survivors only still succeeds.
 */
#include "test/host/clients/client_util.h"

static uint32_t job_size;

static void CheckArguments(void) {
    pmix_proc_t p = ProcOf(client_me.rank);
    CHECK_RC(PMIx_Fence(NULL, 1, NULL, 0), PMIX_ERR_BAD_PARAM, "Fence(NULL procs, nprocs 1)");
    /* The checks below are pmixx decisions. OpenPMIx 4.2.2 answers a NULL
     * info array with a count by PMIX_ERR_UNPACK_PAST_END and blocks forever
     * in a fence naming an empty nspace. */
    if (OnOpenPmix()) return;
    PMIX_LOAD_PROCID(&p, "", 0);
    CHECK_RC(PMIx_Fence(&p, 1, NULL, 0), PMIX_ERR_BAD_PARAM, "Fence(empty nspace)");
    p = ProcOf(client_me.rank);
    CHECK_RC(PMIx_Fence(&p, 1, NULL, 1), PMIX_ERR_BAD_PARAM, "Fence(NULL info, ninfo 1)");
    memset(p.nspace, 'x', sizeof p.nspace);
    p.rank = 0;
    CHECK_RC(PMIx_Fence(&p, 1, NULL, 0), PMIX_ERR_BAD_PARAM, "Fence(unterminated nspace)");
    p = ProcOf(PMIX_RANK_UNDEF);
    CHECK_RC(PMIx_Fence(&p, 1, NULL, 0), PMIX_ERR_BAD_PARAM, "Fence(rank UNDEF)");
    pmix_proc_t beyond[2] = {ProcOf(client_me.rank), ProcOf(job_size)};
    CHECK_RC(PMIx_Fence(beyond, 2, NULL, 0), PMIX_ERR_NOT_FOUND, "Fence(rank beyond the job)");
    if (job_size > 1) {
        p = ProcOf((client_me.rank + 1) % job_size);
        CHECK_RC(PMIx_Fence(&p, 1, NULL, 0), PMIX_ERR_BAD_PARAM, "Fence(without the caller)");
    }
    CHECK_RC(PMIx_Fence_nb(NULL, 1, NULL, 0, NbWaitDone, NULL), PMIX_ERR_BAD_PARAM,
             "Fence_nb(NULL procs, nprocs 1)");
}

static void CollectRound(int round) {
    char key[PMIX_MAX_KEYLEN + 1];
    snprintf(key, sizeof key, "fence.round%d", round);
    uint32_t mine = client_me.rank * 1000u + (uint32_t)round;
    pmix_value_t val;
    PMIX_VALUE_LOAD(&val, &mine, PMIX_UINT32);
    CHECK_RC(PMIx_Put(PMIX_GLOBAL, key, &val), PMIX_SUCCESS, "PMIx_Put");
    CHECK_RC(PMIx_Commit(), PMIX_SUCCESS, "PMIx_Commit");
    pmix_info_t info;
    bool yes = true;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    CHECK_RC(PMIx_Fence(NULL, 0, &info, 1), PMIX_SUCCESS, "Fence(collect)");
    PMIX_INFO_DESTRUCT(&info);
    for (uint32_t r = 0; r < job_size; ++r) {
        pmix_rank_t peer = (client_me.rank + r) % job_size;
        uint32_t got = GetU32(peer, key);
        CHECK(got == peer * 1000u + (uint32_t)round, "%s of rank %u = %u", key, peer, got);
    }
}

static void Barriers(void) {
    pmix_proc_t all = ProcOf(PMIX_RANK_WILDCARD);
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "Fence(NULL)");
    CHECK_RC(PMIx_Fence(&all, 1, NULL, 0), PMIX_SUCCESS, "Fence(wildcard)");
    pmix_proc_t *list = calloc(job_size, sizeof *list);
    CHECK(list != NULL, "calloc");
    for (uint32_t i = 0; i < job_size; ++i) list[i] = ProcOf(job_size - 1 - i); /* any order */
    CHECK_RC(PMIx_Fence(list, job_size, NULL, 0), PMIX_SUCCESS, "Fence(every rank listed)");
    free(list);
}

static void Pairs(void) {
    pmix_rank_t first = client_me.rank & ~1u;
    if (first + 1 >= job_size) return; /* the odd one out */
    pmix_proc_t pair[2] = {ProcOf(first + 1), ProcOf(first)};
    for (int i = 0; i < 3; ++i) CHECK_RC(PMIx_Fence(pair, 2, NULL, 0), PMIX_SUCCESS, "Fence(pair)");
}

static void Overlapping(void) {
    if (job_size < 2) return;
    pmix_rank_t me = client_me.rank;
    pmix_proc_t left[2] = {ProcOf((me + job_size - 1) % job_size), ProcOf(me)};
    pmix_proc_t right[2] = {ProcOf(me), ProcOf((me + 1) % job_size)};
    NbWait a = {0, 0}, b = {0, 0};
    size_t n = job_size == 2 ? 1 : 2; /* with 2 ranks both sets are the same */
    CHECK_RC(PMIx_Fence_nb(left, 2, NULL, 0, NbWaitDone, &a), PMIX_SUCCESS, "Fence_nb(left)");
    if (n == 2)
        CHECK_RC(PMIx_Fence_nb(right, 2, NULL, 0, NbWaitDone, &b), PMIX_SUCCESS, "Fence_nb(right)");
    NbWaitFor(&a, PMIX_SUCCESS, "Fence_nb(left) callback");
    if (n == 2) NbWaitFor(&b, PMIX_SUCCESS, "Fence_nb(right) callback");
}

static void BackToBack(void) {
    NbWait w[3] = {{0, 0}, {0, 0}, {0, 0}};
    for (int i = 0; i < 3; ++i)
        CHECK_RC(PMIx_Fence_nb(NULL, 0, NULL, 0, NbWaitDone, &w[i]), PMIX_SUCCESS, "Fence_nb(all)");
    for (int i = 0; i < 3; ++i) NbWaitFor(&w[i], PMIX_SUCCESS, "Fence_nb(all) callback");
}

/* Not on OpenPMIx 4.2.2: its client times out, but the server keeps the
 * abandoned collective, and later fences of the job then fail with
 * PMIX_ERR_PARTIAL_SUCCESS or hang (seen with 8 and 64 ranks). */
static void Timeout(void) {
    if (job_size < 2 || client_me.rank != 0 || OnOpenPmix()) return;
    CheckTimesOutWithoutRank1(PMIx_Fence, "Fence");
}

static int DeadRank(void) {
    job_size = GetU32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    CheckRank1Dies(PMIx_Fence, "Fence", NULL, 0, job_size, PMIX_ERR_PARTIAL_SUCCESS);
    ClientFinalize();
    return 0;
}

/* Every rank gives its own directive ("test.dir.<rank>", ignored by the
 * library): with remote participants the host's fence_nb must see those of
 * every local participant, not only the first one's (fence.sh checks the
 * host's count). */
static void PerRankDirectives(void) {
    char key[PMIX_MAX_KEYLEN + 1];
    snprintf(key, sizeof key, "test.dir.%u", client_me.rank);
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, key, "x", PMIX_STRING);
    CHECK_RC(PMIx_Fence(NULL, 0, &info, 1), PMIX_SUCCESS, "Fence with a per-rank directive");
    PMIX_INFO_DESTRUCT(&info);
}

/* client_fence left: rank 1 finalizes after a first fence and exits; the
 * others' fence over the job (whether it began before or after rank 1 left)
 * completes among them with PMIX_ERR_PARTIAL_SUCCESS instead of waiting
 * forever (as on OpenPMIx 4.2.2); a fence of the survivors succeeds. */
static int LeftRank(void) {
    job_size = GetU32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    CHECK(job_size >= 3, "left: needs 3 ranks or more");
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "first Fence");
    if (client_me.rank == 1) {
        ClientFinalize();
        exit(0);
    }
    if (client_me.rank == 2) usleep(500 * 1000); /* rank 0 usually waits before rank 1 leaves */
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_ERR_PARTIAL_SUCCESS, "Fence after rank 1 finalized");
    pmix_proc_t *survivors = calloc(job_size - 1, sizeof *survivors);
    CHECK(survivors != NULL, "calloc");
    for (uint32_t r = 0, n = 0; r < job_size; ++r)
        if (r != 1) survivors[n++] = ProcOf(r);
    CHECK_RC(PMIx_Fence(survivors, job_size - 1, NULL, 0), PMIX_SUCCESS, "Fence of the survivors");
    free(survivors);
    ClientFinalize();
    return 0;
}

int main(int argc, char **argv) {
    int dead = argc > 1 && strcmp(argv[1], "dead") == 0;
    int left = argc > 1 && strcmp(argv[1], "left") == 0;
    int rounds = argc > 1 && !dead && !left ? atoi(argv[1]) : 5;
    ClientInit();
    if (dead) return DeadRank();
    if (left) return LeftRank();
    job_size = GetU32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    CheckArguments();
    for (int r = 1; r <= rounds; ++r) CollectRound(r);
    Note("collect rounds ok");
    Barriers();
    PerRankDirectives();
    Pairs();
    Overlapping();
    BackToBack();
    Note("barriers, pairs, overlapping and back-to-back fences ok");
    Timeout();
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "final Fence");
    ClientFinalize();
    return 0;
}
