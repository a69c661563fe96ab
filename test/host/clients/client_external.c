/*
 * client_external: the client side with PMIX_EXTERNAL_PROGRESS (no progress
 * thread; the application drives the library with PMIx_Progress, and the
 * blocking calls drive it while they wait). Each rank puts a value, commits,
 * fences with data collection and reads every peer's value; then a Get_nb
 * completes only through PMIx_Progress calls. Exit codes as client_util.h.
 */
#include "client_util.h"

/* Set by the callback (inside PMIx_Progress here, but a flag as any
 * callback's: client_util.h), read once nb_done is. */
static int nb_done = 0;
static pmix_status_t nb_status = PMIX_ERROR;
static uint32_t nb_value = 0;

static void GetNbDone(pmix_status_t status, pmix_value_t *kv, void *cbdata) {
    (void)cbdata;
    nb_status = status;
    if (status == PMIX_SUCCESS && kv != NULL && kv->type == PMIX_UINT32) nb_value = kv->data.uint32;
    FLAG_SET(nb_done, 1);
}

int main(void) {
    pmix_info_t info;
    bool flag = true;
    PMIX_INFO_LOAD(&info, PMIX_EXTERNAL_PROGRESS, &flag, PMIX_BOOL);
    pmix_status_t rc = PMIx_Init(&client_me, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "client_external: PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 2;
    }
    uint32_t size = GetU32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    pmix_value_t v;
    PMIX_VALUE_LOAD(&v, &client_me.rank, PMIX_UINT32);
    CHECK_RC(PMIx_Put(PMIX_GLOBAL, "ext.rank", &v), PMIX_SUCCESS, "Put");
    CHECK_RC(PMIx_Commit(), PMIX_SUCCESS, "Commit");
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &flag, PMIX_BOOL);
    CHECK_RC(PMIx_Fence(NULL, 0, &info, 1), PMIX_SUCCESS, "Fence with collection");
    PMIX_INFO_DESTRUCT(&info);
    for (uint32_t r = 0; r < size; ++r) {
        uint32_t got = GetU32(r, "ext.rank");
        CHECK(got == r, "rank %u's ext.rank is %u", r, got);
    }
    pmix_proc_t peer = ProcOf((client_me.rank + 1) % size);
    CHECK_RC(PMIx_Get_nb(&peer, "ext.rank", NULL, 0, GetNbDone, NULL), PMIX_SUCCESS, "Get_nb");
    double deadline = NowSec() + 10;
    while (!FLAG_GET(nb_done) && NowSec() < deadline) PMIx_Progress();
    CHECK(FLAG_GET(nb_done), "Get_nb did not complete through PMIx_Progress");
    CHECK_RC(nb_status, PMIX_SUCCESS, "Get_nb status");
    CHECK(nb_value == peer.rank, "Get_nb value %u, want %u", nb_value, peer.rank);
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "closing barrier");
    Note("external progress: %u peers read", size);
    ClientFinalize();
    return 0;
}
