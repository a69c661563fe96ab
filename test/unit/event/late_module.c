/*
 * late_module: the module of late_handler_test. Like Open MPI's
 * mca_pmix_ext3x, its event handler does not handle the event at once: it
 * hands a function of this module to the host's queue (the host runs it on
 * a thread of its own, when it gets to it), and that function calls the
 * completion.
 */
#include <pmix.h>

typedef void (*late_post_fn)(void (*fn)(void*), void* arg);

static late_post_fn g_post;
static size_t g_id;
static volatile int g_invoked;

struct Pending {
  pmix_event_notification_cbfunc_fn_t cbfunc;
  void* cbdata;
};
static struct Pending g_pending;

/* What Open MPI's process_event does when its registration is gone. */
static void Later(void* arg) {
  struct Pending* p = arg;
  if (p->cbfunc != NULL) p->cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, p->cbdata);
}

static void Handler(size_t id, pmix_status_t status, const pmix_proc_t* source, pmix_info_t info[],
                    size_t ninfo, pmix_info_t results[], size_t nresults,
                    pmix_event_notification_cbfunc_fn_t cbfunc, void* cbdata) {
  (void)id, (void)status, (void)source, (void)info, (void)ninfo, (void)results, (void)nresults;
  g_pending.cbfunc = cbfunc;
  g_pending.cbdata = cbdata;
  g_post(Later, &g_pending);
  __atomic_store_n(&g_invoked, 1, __ATOMIC_RELEASE);
}

/* Registers the handler for `code` (blocking); the status. */
pmix_status_t late_module_register(pmix_status_t code, late_post_fn post) {
  g_post = post;
  pmix_status_t rc = PMIx_Register_event_handler(&code, 1, NULL, 0, Handler, NULL, NULL);
  if (rc < 0) return rc;
  g_id = (size_t)rc;
  return PMIX_SUCCESS;
}

int late_module_invoked(void) { return __atomic_load_n(&g_invoked, __ATOMIC_ACQUIRE); }

pmix_status_t late_module_deregister(void) { return PMIx_Deregister_event_handler(g_id, NULL, NULL); }
