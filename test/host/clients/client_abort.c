/*
 * client_abort: rank 0 calls PMIx_Abort(42, msg, NULL, 0) -- the whole
 * namespace -- while the others wait in a fence it never joins. The host
 * must see the abort upcall and kill the job; nobody exits by itself
 * (a client still alive after 30 s exits 1).
 */
#include "test/host/clients/client_util.h"

int main(void) {
    ClientInit();
    alarm(30); /* the host kills us long before this */
    if (client_me.rank == 0) {
        pmix_status_t rc = PMIx_Abort(42, "client_abort test", NULL, 0);
        Note("PMIx_Abort returned %s", PMIx_Error_string(rc));
        for (;;) pause(); /* until the host kills the job */
    }
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, client_me.nspace, PMIX_RANK_WILDCARD);
    pmix_status_t rc = PMIx_Fence(&all, 1, NULL, 0);
    Note("fence returned %s", PMIx_Error_string(rc));
    for (;;) pause();
}
