// Stopping in PMIx_Init for a debugger (see client_debug.h).
#include "src/client/client_debug.h"

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>

#include "pmix.h"
#include "src/runtime/context.h"
#include "src/runtime/progress.h"

namespace pmix::client {
namespace {

// What the handlers wake the waiting thread with.
struct Waiter {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  pmix_status_t status = PMIX_SUCCESS;

  void Wake(pmix_status_t st) {
    std::lock_guard<std::mutex> lock(mu);
    if (done) return;
    done = true;
    status = st;
    cv.notify_all();
  }

  // Waits for Wake; in external-progress mode runs the loop meanwhile.
  pmix_status_t Wait() {
    std::unique_lock<std::mutex> lock(mu);
    while (!done) {
      runtime::ProgressEngine* engine = runtime::Engine();
      lock.unlock();
      int ran = engine != nullptr ? engine->RunOnce() : 0;
      lock.lock();
      if (!done && ran == 0) cv.wait_for(lock, std::chrono::milliseconds(20));
    }
    return status;
  }
};

void RegistrationDone(pmix_status_t status, size_t ref, void* cbdata) {
  auto* w = static_cast<std::pair<Waiter*, size_t*>*>(cbdata);
  *w->second = ref;
  w->first->Wake(status);
}

void OnReleaseOrLoss(size_t, pmix_status_t status, const pmix_proc_t*, pmix_info_t info[],
                     size_t ninfo, pmix_info_t*, size_t, pmix_event_notification_cbfunc_fn_t cbfunc,
                     void* cbdata) {
  Waiter* w = nullptr;
  for (size_t i = 0; i < ninfo && info != nullptr; ++i)
    if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_RETURN_OBJECT))
      w = static_cast<Waiter*>(info[i].value.data.ptr);
  const bool release = status == PMIX_DEBUGGER_RELEASE;
  // The release is ours; a lost connection is everyone's, so it goes on.
  if (cbfunc != nullptr)
    cbfunc(release ? PMIX_EVENT_ACTION_COMPLETE : PMIX_SUCCESS, nullptr, 0, nullptr, nullptr,
           cbdata);
  if (w != nullptr) w->Wake(release ? PMIX_SUCCESS : status);
}

bool RankNames(pmix_rank_t rank, const pmix_proc_t& me) {
  return rank == PMIX_RANK_WILDCARD || rank == me.rank;
}

bool ProcNames(const pmix_proc_t& p, const pmix_proc_t& me) {
  return (p.nspace[0] == '\0' || PMIx_Check_nspace(p.nspace, me.nspace)) && RankNames(p.rank, me);
}

}  // namespace

bool DebugDirectiveNames(const pmix_value_t& v, const pmix_proc_t& me) {
  switch (v.type) {
    case PMIX_UNDEF:
      return true;
    case PMIX_BOOL:
      return v.data.flag;
    case PMIX_PROC_RANK:
      return RankNames(v.data.rank, me);
    case PMIX_PROC:
      return v.data.proc != nullptr && ProcNames(*v.data.proc, me);
    case PMIX_DATA_ARRAY: {
      const pmix_data_array_t* a = v.data.darray;
      if (a == nullptr || a->array == nullptr) return false;
      for (size_t i = 0; i < a->size; ++i) {
        if (a->type == PMIX_PROC_RANK && RankNames(static_cast<pmix_rank_t*>(a->array)[i], me))
          return true;
        if (a->type == PMIX_PROC && ProcNames(static_cast<pmix_proc_t*>(a->array)[i], me))
          return true;
      }
      return false;
    }
    default:
      return false;
  }
}

Status StopInInit(const pmix_proc_t& me) {
  pmix_proc_t job;
  PMIx_Load_procid(&job, me.nspace, PMIX_RANK_WILDCARD);
  pmix_info_t opt;
  PMIx_Info_construct(&opt);
  (void)PMIx_Info_load(&opt, PMIX_OPTIONAL, nullptr, PMIX_BOOL);
  pmix_value_t* val = nullptr;
  pmix_status_t rc = PMIx_Get(&job, PMIX_DEBUG_STOP_IN_INIT, &opt, 1, &val);
  PMIx_Info_destruct(&opt);
  const bool stop = rc == PMIX_SUCCESS && val != nullptr && DebugDirectiveNames(*val, me);
  if (val != nullptr) PMIx_Value_free(val, 1);
  if (!stop) return Status();

  auto released = std::make_unique<Waiter>();  // outlives the handler (deregistered below)
  pmix_status_t codes[] = {PMIX_DEBUGGER_RELEASE, PMIX_ERR_LOST_CONNECTION};
  pmix_info_t reg[2];
  PMIx_Info_construct(&reg[0]);
  PMIx_Info_construct(&reg[1]);
  (void)PMIx_Info_load(&reg[0], PMIX_EVENT_RETURN_OBJECT, released.get(), PMIX_POINTER);
  (void)PMIx_Info_load(&reg[1], PMIX_EVENT_HDLR_NAME, "pmix-stop-in-init", PMIX_STRING);
  Waiter registered;
  size_t ref = 0;
  std::pair<Waiter*, size_t*> ctx{&registered, &ref};
  rc = PMIx_Register_event_handler(codes, 2, reg, 2, OnReleaseOrLoss, RegistrationDone, &ctx);
  if (rc == PMIX_SUCCESS) rc = registered.Wait();
  PMIx_Info_destruct(&reg[0]);
  PMIx_Info_destruct(&reg[1]);
  if (rc != PMIX_SUCCESS) return Status(rc);

  pmix_info_t ready[2];
  PMIx_Info_construct(&ready[0]);
  PMIx_Info_construct(&ready[1]);
  (void)PMIx_Info_load(&ready[0], PMIX_EVENT_NON_DEFAULT, nullptr, PMIX_BOOL);
  (void)PMIx_Info_load(&ready[1], PMIX_BREAKPOINT, "pmix-init", PMIX_STRING);
  rc = PMIx_Notify_event(PMIX_READY_FOR_DEBUG, &me, PMIX_RANGE_RM, ready, 2, nullptr, nullptr);
  PMIx_Info_destruct(&ready[0]);
  PMIx_Info_destruct(&ready[1]);
  if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) {
    (void)PMIx_Deregister_event_handler(ref, nullptr, nullptr);
    return Status(rc);
  }
  rc = released->Wait();
  (void)PMIx_Deregister_event_handler(ref, nullptr, nullptr);
  return Status(rc);
}

}  // namespace pmix::client
