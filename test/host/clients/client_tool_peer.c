/*
 * client_tool_peer: a job process a tool works with. It waits (at most
 * 60 s) for the tool's release event (code kToolRelease, see
 * tool_util.h), checks that the event names the tool as its source, and
 * finalizes; exit 1 when no release came.
 */
#include "test/host/clients/client_util.h"
#include "test/host/clients/tool_util.h"

static int released;
static pmix_proc_t release_source;

static void OnRelease(size_t id, pmix_status_t status, const pmix_proc_t *source,
                      pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                      pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata) {
    (void)id, (void)status, (void)info, (void)ninfo, (void)results, (void)nresults;
    if (source) release_source = *source;
    FLAG_SET(released, 1);
    if (cbfunc) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

int main(void) {
    ClientInit();
    pmix_status_t code = kToolRelease;
    CHECK_RC(PMIx_Register_event_handler(&code, 1, NULL, 0, OnRelease, NULL, NULL), PMIX_SUCCESS,
             "registering for the tool's release");
    const struct timespec tick = {0, 10000000L};
    for (int i = 0; i < 6000 && !FLAG_GET(released); ++i) nanosleep(&tick, NULL);
    CHECK(FLAG_GET(released), "no release event from the tool within 60 s");
    Note("released by %s:%u", release_source.nspace, release_source.rank);
    CHECK(strstr(release_source.nspace, "tool") != NULL || strstr(release_source.nspace, "mytool"),
          "release event source %s:%u is not a tool", release_source.nspace, release_source.rank);
    ClientFinalize();
    return 0;
}
