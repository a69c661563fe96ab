/*
 * client_fence_wait VICTIM: every rank but VICTIM enters a fence over the
 * whole namespace; VICTIM waits to be killed by the host (--kill-rank).
 * The others' fence must end (not hang) as on OpenPMIx 4.2.2: completed
 * among the survivors with PMIX_ERR_PARTIAL_SUCCESS (exit 0); 4 when it
 * returns PMIX_SUCCESS, 5 for another error, 3 when it is still blocked
 * after 20 s.
 */
#include "test/host/clients/client_util.h"

static void OnAlarm(int sig) {
    (void)sig;
    static const char kMsg[] = "client_fence_wait: fence still blocked after 20 s\n";
    ssize_t ignored = write(2, kMsg, sizeof kMsg - 1);
    (void)ignored;
    _exit(3);
}

int main(int argc, char **argv) {
    CHECK(argc == 2, "usage: client_fence_wait VICTIM_RANK");
    pmix_rank_t victim = (pmix_rank_t)atoi(argv[1]);
    ClientInit();
    if (client_me.rank == victim) AwaitTheKill();
    signal(SIGALRM, OnAlarm);
    alarm(20);
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, client_me.nspace, PMIX_RANK_WILDCARD);
    double t0 = NowSec();
    pmix_status_t rc = PMIx_Fence(&all, 1, NULL, 0);
    alarm(0);
    Note("fence returned %s after %.2f s", PMIx_Error_string(rc), NowSec() - t0);
    if (rc == PMIX_SUCCESS) {
        fprintf(stderr, "[client %u] fence succeeded although rank %u died\n", client_me.rank, victim);
        return 4;
    }
    if (rc != PMIX_ERR_PARTIAL_SUCCESS) {
        fprintf(stderr, "[client %u] fence: %s, want PMIX_ERR_PARTIAL_SUCCESS\n", client_me.rank,
                PMIx_Error_string(rc));
        return 5;
    }
    PMIx_Finalize(NULL, 0);
    return 0;
}
