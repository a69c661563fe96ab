// The job's output through the PMIx server (see iof_forward.h).
#include "src/tools/pmixrun/iof_forward.h"

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "pmix.h"
#include "pmix_server.h"
#include "src/tools/pmixrun/wakeup.h"

namespace pmixrun {
namespace {

// Ends of streams handed to the server and not yet completed.
std::mutex g_ends_mu;
std::condition_variable g_ends_cv;
int g_ends_pending = 0;

void Delivered(pmix_status_t, void* cbdata) {
  std::unique_ptr<InFlight> flag(static_cast<InFlight*>(cbdata));
  (*flag)->store(false);
  Ring(kUpcall);
}

void EndDelivered(pmix_status_t, void* cbdata) {
  auto* info = static_cast<pmix_info_t*>(cbdata);
  PMIx_Info_destruct(info);
  delete info;
  std::lock_guard<std::mutex> lock(g_ends_mu);
  --g_ends_pending;
  g_ends_cv.notify_all();
}

pmix_proc_t Proc(const std::string& nspace, int rank) {
  pmix_proc_t p;
  PMIx_Load_procid(&p, nspace.c_str(), static_cast<pmix_rank_t>(rank));
  return p;
}

}  // namespace

void DeliverChunk(const std::string& nspace, int rank, pmix_iof_channel_t channel,
                  const char* data, size_t size, const InFlight& flag) {
  pmix_proc_t source = Proc(nspace, rank);
  pmix_byte_object_t bo;
  bo.bytes = const_cast<char*>(data);  // copied by the library before it returns
  bo.size = size;
  flag->store(true);
  auto* held = new InFlight(flag);
  if (PMIx_server_IOF_deliver(&source, channel, &bo, nullptr, 0, Delivered, held) != PMIX_SUCCESS)
    Delivered(PMIX_ERROR, held);
}

void DeliverEnd(const std::string& nspace, int rank, pmix_iof_channel_t channel) {
  pmix_proc_t source = Proc(nspace, rank);
  pmix_byte_object_t bo{nullptr, 0};
  auto* info = new pmix_info_t;
  bool yes = true;
  PMIx_Info_construct(info);
  (void)PMIx_Info_load(info, PMIX_IOF_COMPLETE, &yes, PMIX_BOOL);
  {
    std::lock_guard<std::mutex> lock(g_ends_mu);
    ++g_ends_pending;
  }
  if (PMIx_server_IOF_deliver(&source, channel, &bo, info, 1, EndDelivered, info) != PMIX_SUCCESS)
    EndDelivered(PMIX_ERROR, info);
}

bool WaitEndsDelivered(int timeout_s) {
  std::unique_lock<std::mutex> lock(g_ends_mu);
  return g_ends_cv.wait_for(lock, std::chrono::seconds(timeout_s),
                            [] { return g_ends_pending <= 0; });
}

}  // namespace pmixrun
