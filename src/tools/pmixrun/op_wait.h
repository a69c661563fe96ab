// Waiting on a server API call's completion callback from the main thread.
//
// Usage: auto w = OpWait::Make(); rc = PMIx_server_x(..., OpWait::Done, w.get());
// rc = OpWait::Finish(std::move(w), rc, seconds). The callback may run on any
// thread. If it does not come in time the waiter is leaked on purpose (the
// library may still call it) and PMIX_ERR_TIMEOUT is returned.
#ifndef PMIXX_TOOLS_PMIXRUN_OP_WAIT_H
#define PMIXX_TOOLS_PMIXRUN_OP_WAIT_H

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>

#include "pmix_common.h"

namespace pmixrun {

class OpWait {
 public:
  static std::unique_ptr<OpWait> Make() { return std::unique_ptr<OpWait>(new OpWait); }

  static void Done(pmix_status_t status, void* cbdata) {
    auto* w = static_cast<OpWait*>(cbdata);
    std::lock_guard<std::mutex> lock(w->mutex_);
    w->status_ = status;
    w->done_ = true;
    w->cv_.notify_all();
  }

  // rc: what the API call returned (PMIX_SUCCESS: the callback will come).
  static pmix_status_t Finish(std::unique_ptr<OpWait> w, pmix_status_t rc, int seconds) {
    if (rc == PMIX_OPERATION_SUCCEEDED) return PMIX_SUCCESS;
    if (rc != PMIX_SUCCESS) return rc;
    std::unique_lock<std::mutex> lock(w->mutex_);
    if (!w->cv_.wait_for(lock, std::chrono::seconds(seconds), [&] { return w->done_; })) {
      lock.unlock();
      (void)w.release();  // the library may still call Done
      return PMIX_ERR_TIMEOUT;
    }
    return w->status_;
  }

 private:
  OpWait() = default;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  pmix_status_t status_ = PMIX_SUCCESS;
};

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_OP_WAIT_H
