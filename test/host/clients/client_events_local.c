/*
 * client_events_local: event behaviour inside one process, and the event a
 * namespace gets when one of its processes dies without PMIx_Finalize.
 *
 *   client_events_local            local checks only
 *   client_events_local term R     local checks, then every rank but R waits
 *                                  for PMIX_ERR_PROC_TERM_WO_SYNC about R
 *                                  (the host kills R: --kill-rank R), which
 *                                  a default handler does not see
 *
 * Local checks: a blocking registration returns the id; an event raised
 * with PMIX_RANGE_PROC_LOCAL before any handler matched it is cached and
 * delivered after a later registration's callback; PMIX_EVENT_ACTION_COMPLETE
 * ends a chain; a handler may register and notify non-blocking, while a
 * blocking registration fails there with PMIX_ERR_WOULD_BLOCK and a notify
 * without a callback is queued (PMIX_SUCCESS, delivered); deregistering an
 * unknown id fails with PMIX_ERR_BAD_PARAM.
 */
#include "test/host/clients/client_util.h"

#define kCached (PMIX_EXTERNAL_ERR_BASE - 20)
#define kChain (PMIX_EXTERNAL_ERR_BASE - 21)
#define kInner (PMIX_EXTERNAL_ERR_BASE - 22)
#define kMarker (PMIX_EXTERNAL_ERR_BASE - 23)

static int reg_done, cached_runs, cached_before_reg, chain_first, chain_second;
static int inner_runs, inner_ready;
static pmix_status_t inner_blocking_notify = PMIX_SUCCESS;
static pmix_status_t inner_blocking_reg = PMIX_SUCCESS;
static int term_seen, term_default, marker_seen;
static int victim = -1;
static int ours; /* running on pmixx, not on the reference OpenPMIx */

static void WaitFor(int* flag, const char* what) {
  const struct timespec tick = {0, 1000000L};
  double t0 = NowSec();
  while (!FLAG_GET(*flag) && NowSec() - t0 < 20.0) nanosleep(&tick, NULL);
  CHECK(FLAG_GET(*flag), "%s: not done within 20 s", what);
}

static void Done(pmix_event_notification_cbfunc_fn_t cbfunc, void* cbdata, pmix_status_t st) {
  if (cbfunc) cbfunc(st, NULL, 0, NULL, NULL, cbdata);
}

static void OnCached(size_t id, pmix_status_t status, const pmix_proc_t* source, pmix_info_t info[],
                     size_t ninfo, pmix_info_t results[], size_t nresults,
                     pmix_event_notification_cbfunc_fn_t cbfunc, void* cbdata) {
  (void)id, (void)source, (void)results, (void)nresults;
  if (!FLAG_GET(reg_done)) FLAG_SET(cached_before_reg, 1);
  if (status == kCached && ninfo >= 1 && strcmp(info[0].key, "test.cached") == 0)
    FLAG_INC(cached_runs);
  Done(cbfunc, cbdata, PMIX_SUCCESS);
}

static void Registered(pmix_status_t status, size_t ref, void* cbdata) {
  (void)ref, (void)cbdata;
  CHECK(status == PMIX_SUCCESS, "registration callback: %s", PMIx_Error_string(status));
  FLAG_SET(reg_done, 1);
}

static void OnChainFirst(size_t id, pmix_status_t status, const pmix_proc_t* source,
                         pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                         pmix_event_notification_cbfunc_fn_t cbfunc, void* cbdata) {
  (void)id, (void)status, (void)source, (void)info, (void)ninfo, (void)results, (void)nresults;
  FLAG_SET(chain_first, 1);
  Done(cbfunc, cbdata, PMIX_EVENT_ACTION_COMPLETE);
}

static void OnChainSecond(size_t id, pmix_status_t status, const pmix_proc_t* source,
                          pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                          pmix_event_notification_cbfunc_fn_t cbfunc, void* cbdata) {
  (void)id, (void)status, (void)source, (void)info, (void)ninfo, (void)results, (void)nresults;
  FLAG_SET(chain_second, 1);
  Done(cbfunc, cbdata, PMIX_SUCCESS);
}

static void OnInnerEvent(size_t id, pmix_status_t status, const pmix_proc_t* source,
                         pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                         pmix_event_notification_cbfunc_fn_t cbfunc, void* cbdata) {
  (void)id, (void)status, (void)source, (void)info, (void)ninfo, (void)results, (void)nresults;
  FLAG_INC(inner_runs);
  Done(cbfunc, cbdata, PMIX_SUCCESS);
}

static void InnerRegistered(pmix_status_t status, size_t ref, void* cbdata) {
  (void)ref, (void)cbdata;
  if (status == PMIX_SUCCESS) FLAG_SET(inner_ready, 1);
}

/* Runs inside a handler, i.e. on the library's progress thread. */
static void OnChainOuter(size_t id, pmix_status_t status, const pmix_proc_t* source,
                         pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                         pmix_event_notification_cbfunc_fn_t cbfunc, void* cbdata) {
  (void)id, (void)status, (void)source, (void)info, (void)ninfo, (void)results, (void)nresults;
  pmix_status_t code = kInner;
  if (ours) { /* OpenPMIx 4.2.2 deadlocks on blocking calls made in a handler */
    inner_blocking_reg = PMIx_Register_event_handler(&code, 1, NULL, 0, OnInnerEvent, NULL, NULL);
    /* A notify without a callback cannot wait here: it is queued and
     * PMIX_SUCCESS returned (OpenPMIx's test servers raise events so from
     * their handlers); the handler registered below gets it from the cache. */
    inner_blocking_notify =
        PMIx_Notify_event(kInner, &client_me, PMIX_RANGE_PROC_LOCAL, NULL, 0, NULL, NULL);
  }
  pmix_status_t rc =
      PMIx_Register_event_handler(&code, 1, NULL, 0, OnInnerEvent, InnerRegistered, NULL);
  CHECK(rc == PMIX_SUCCESS, "non-blocking registration in a handler: %s", PMIx_Error_string(rc));
  Done(cbfunc, cbdata, PMIX_SUCCESS);
}

static void NotifyLocal(pmix_status_t code, pmix_info_t* info, size_t ninfo) {
  pmix_status_t rc =
      PMIx_Notify_event(code, &client_me, PMIX_RANGE_PROC_LOCAL, info, ninfo, NULL, NULL);
  CHECK(rc == PMIX_SUCCESS, "PMIx_Notify_event(%d): %s", code, PMIx_Error_string(rc));
}

static void CheckCache(void) {
  pmix_info_t info;
  PMIX_INFO_LOAD(&info, "test.cached", "yes", PMIX_STRING);
  NotifyLocal(kCached, &info, 1);
  PMIX_INFO_DESTRUCT(&info);
  pmix_status_t code = kCached;
  pmix_status_t rc = PMIx_Register_event_handler(&code, 1, NULL, 0, OnCached, Registered, NULL);
  CHECK_RC(rc, PMIX_SUCCESS, "register for the cached event");
  WaitFor(&reg_done, "registration callback");
  WaitFor(&cached_runs, "cached event delivery");
  /* OpenPMIx 4.2.2 replays the cache before calling the registration
   * callback, which the standard forbids (§10.1.2). */
  if (ours)
    CHECK(!FLAG_GET(cached_before_reg), "the cached event ran before the registration callback");
}

static void CheckChainAndNesting(void) {
  pmix_status_t code = kChain;
  int first = PMIx_Register_event_handler(&code, 1, NULL, 0, OnChainFirst, NULL, NULL);
  CHECK(first >= 0, "blocking registration: %s", PMIx_Error_string(first));
  int second = PMIx_Register_event_handler(NULL, 0, NULL, 0, OnChainSecond, NULL, NULL);
  CHECK(second >= 0 && second != first, "blocking registration returned %d after %d", second,
        first);
  NotifyLocal(kChain, NULL, 0);
  WaitFor(&chain_first, "first handler of the chain");
  nanosleep(&(struct timespec){0, 100000000L}, NULL);
  CHECK(!FLAG_GET(chain_second), "the chain went on after PMIX_EVENT_ACTION_COMPLETE");
  CHECK_RC(PMIx_Deregister_event_handler((size_t)first, NULL, NULL), PMIX_SUCCESS, "deregister");
  CHECK_RC(PMIx_Deregister_event_handler((size_t)second, NULL, NULL), PMIX_SUCCESS, "deregister");
  if (ours) /* OpenPMIx 4.2.2 answers PMIX_SUCCESS for any id */
    CHECK_RC(PMIx_Deregister_event_handler(987654, NULL, NULL), PMIX_ERR_BAD_PARAM,
             "deregister an unknown id");
  int outer = PMIx_Register_event_handler(&code, 1, NULL, 0, OnChainOuter, NULL, NULL);
  CHECK(outer >= 0, "blocking registration: %s", PMIx_Error_string(outer));
  NotifyLocal(kChain, NULL, 0);
  WaitFor(&inner_ready, "registration made inside a handler");
  if (ours) {
    CHECK(inner_blocking_reg == PMIX_ERR_WOULD_BLOCK, "blocking registration in a handler: %s",
          PMIx_Error_string(inner_blocking_reg));
    CHECK(inner_blocking_notify == PMIX_SUCCESS, "notify without callback in a handler: %s",
          PMIx_Error_string(inner_blocking_notify));
  }
  NotifyLocal(kInner, NULL, 0);
  WaitFor(&inner_runs, "event for the handler registered inside a handler");
  if (ours) { /* both events: the one raised in the handler and this one */
    double t0 = NowSec();
    while (FLAG_GET(inner_runs) < 2 && NowSec() - t0 < 20.0)
      nanosleep(&(struct timespec){0, 1000000L}, NULL);
    CHECK(FLAG_GET(inner_runs) == 2,
          "events for the inner handler: %d, want 2 (one raised in a handler)",
          FLAG_GET(inner_runs));
  }
}

static void OnTerm(size_t id, pmix_status_t status, const pmix_proc_t* source, pmix_info_t info[],
                   size_t ninfo, pmix_info_t results[], size_t nresults,
                   pmix_event_notification_cbfunc_fn_t cbfunc, void* cbdata) {
  (void)id, (void)status, (void)source, (void)results, (void)nresults;
  for (size_t i = 0; i < ninfo; ++i) {
    if (strcmp(info[i].key, PMIX_EVENT_AFFECTED_PROC) == 0 && info[i].value.type == PMIX_PROC &&
        info[i].value.data.proc->rank == (pmix_rank_t)victim &&
        strcmp(info[i].value.data.proc->nspace, client_me.nspace) == 0)
      FLAG_SET(term_seen, 1);
  }
  Done(cbfunc, cbdata, PMIX_SUCCESS);
}

/* A default handler: PMIX_ERR_PROC_TERM_WO_SYNC about a lost peer is
 * non-default (OpenPMIx 4.2.2 raises nothing to the other clients, so
 * default handlers written for it, e.g. Open MPI's, must not see it). */
static void OnDefault(size_t id, pmix_status_t status, const pmix_proc_t* source,
                      pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                      pmix_event_notification_cbfunc_fn_t cbfunc, void* cbdata) {
  (void)id, (void)source, (void)info, (void)ninfo, (void)results, (void)nresults;
  if (status == PMIX_ERR_PROC_TERM_WO_SYNC) FLAG_INC(term_default);
  if (status == kMarker) FLAG_SET(marker_seen, 1);
  Done(cbfunc, cbdata, PMIX_SUCCESS);
}

static void Notified(pmix_status_t status, void* cbdata) { (void)status, (void)cbdata; }

/* After the PMIX_ERR_PROC_TERM_WO_SYNC chain: a local marker event reaches
 * the default handler only after that chain ended. */
static void CheckDefaultMissedTerm(void) {
  CHECK_RC(PMIx_Notify_event(kMarker, &client_me, PMIX_RANGE_PROC_LOCAL, NULL, 0, Notified, NULL),
           PMIX_SUCCESS, "PMIx_Notify_event(marker)");
  WaitFor(&marker_seen, "the marker event at the default handler");
  CHECK(FLAG_GET(term_default) == 0, "the default handler saw %d PMIX_ERR_PROC_TERM_WO_SYNC events",
        FLAG_GET(term_default));
}

int main(int argc, char** argv) {
  ClientInit();
  ours = !OnOpenPmix();
  if (argc >= 3 && strcmp(argv[1], "term") == 0) victim = atoi(argv[2]);
  if (victim >= 0) {
    pmix_status_t code = PMIX_ERR_PROC_TERM_WO_SYNC;
    int ref = PMIx_Register_event_handler(&code, 1, NULL, 0, OnTerm, NULL, NULL);
    CHECK(ref >= 0, "register for PMIX_ERR_PROC_TERM_WO_SYNC: %s", PMIx_Error_string(ref));
  }
  CheckCache();
  CheckChainAndNesting();
  if (victim >= 0) {
    /* after the local checks, which want no default handler */
    int ref = PMIx_Register_event_handler(NULL, 0, NULL, 0, OnDefault, NULL, NULL);
    CHECK(ref >= 0, "register a default handler: %s", PMIx_Error_string(ref));
    if ((int)client_me.rank == victim) AwaitTheKill();
    WaitFor(&term_seen, "PMIX_ERR_PROC_TERM_WO_SYNC about the killed rank");
    CheckDefaultMissedTerm();
  }
  Note("event checks passed");
  ClientFinalize();
  return 0;
}
