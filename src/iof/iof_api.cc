// PMIx_IOF_pull, PMIx_IOF_deregister, PMIx_IOF_push (standard §18.5.7-
// §18.5.9; what they do: iof_client.h).
//
// Arguments are checked and copied on the caller's thread; the work runs on
// the progress thread and the callbacks there, after the call returned.
// PMIx_IOF_pull without regcbfunc blocks and returns the handle (>= 0) or
// an error (as OpenPMIx does); deregister and push without cbfunc block
// and return the outcome. PMIX_ERR_INIT before any init,
// PMIX_ERR_BAD_PARAM for NULL arrays with nonzero counts, no procs, a
// channel mask that is empty or outside PMIX_FWD_ALL_CHANNELS,
// PMIX_ERR_NOT_SUPPORTED for a pull of stdin. PMIX_ERR_UNREACH when no
// server can take the request.
#include <memory>

#include "pmix_tool.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/iof/iof_client.h"
#include "src/iof/iof_wire.h"
#include "src/runtime/context.h"
#include "src/runtime/state.h"

namespace pmix::iof {
namespace {

bool Initialized() { return runtime::AnyRoleInitialized() && runtime::Engine() != nullptr; }

// Runs start on the progress thread; blocking unless `report` is given.
template <class T>
pmix_status_t Run(std::function<void(std::function<void(T)>)> start,
                  std::function<void(T)> report, std::function<pmix_status_t(T)> blocking) {
  if (!report) {
    auto rc = runtime::CallBlocking<T>(std::move(start));
    return rc.ok() ? blocking(std::move(*rc)) : rc.status().code();
  }
  return runtime::Engine()->Post([start = std::move(start), report = std::move(report)] {
    start(report);
  }).code();
}

}  // namespace
}  // namespace pmix::iof

namespace iof = pmix::iof;
using PullResult = std::pair<pmix_status_t, size_t>;

extern "C" pmix_status_t PMIx_IOF_pull(const pmix_proc_t procs[], size_t nprocs,
                                       const pmix_info_t directives[], size_t ndirs,
                                       pmix_iof_channel_t channel, pmix_iof_cbfunc_t cbfunc,
                                       pmix_hdlr_reg_cbfunc_t regcbfunc, void* regcbdata) {
  return pmix::ApiGuard("PMIx_IOF_pull", [&]() -> pmix_status_t {
    if (!iof::Initialized()) return PMIX_ERR_INIT;
    if (channel & PMIX_FWD_STDIN_CHANNEL) return PMIX_ERR_NOT_SUPPORTED;
    if (procs == nullptr || nprocs == 0 || (directives == nullptr && ndirs > 0) ||
        !iof::ValidChannels(channel))
      return PMIX_ERR_BAD_PARAM;
    auto dirs = pmix::wire::Infos::CopyOf(pmix::InfoSpan(directives, ndirs));
    if (!dirs.ok()) return dirs.status().code();
    auto req = std::make_shared<iof::PullRequest>();
    req->procs.assign(procs, procs + nprocs);
    req->channels = channel;
    req->directives = std::move(*dirs);
    req->cbfunc = cbfunc;
    std::function<void(PullResult)> report;
    if (regcbfunc != nullptr)
      report = [regcbfunc, regcbdata](PullResult r) { regcbfunc(r.first, r.second, regcbdata); };
    return iof::Run<PullResult>(
        [req](std::function<void(PullResult)> done) {
          iof::StartPull(std::move(*req), [done](pmix_status_t st, size_t h) { done({st, h}); });
        },
        report,
        [](PullResult r) {
          return r.first == PMIX_SUCCESS ? static_cast<pmix_status_t>(r.second) : r.first;
        });
  });
}

extern "C" pmix_status_t PMIx_IOF_deregister(size_t iofhdlr, const pmix_info_t directives[],
                                             size_t ndirs, pmix_op_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_IOF_deregister", [&]() -> pmix_status_t {
    if (!iof::Initialized()) return PMIX_ERR_INIT;
    if (directives == nullptr && ndirs > 0) return PMIX_ERR_BAD_PARAM;
    auto dirs = pmix::wire::Infos::CopyOf(pmix::InfoSpan(directives, ndirs));
    if (!dirs.ok()) return dirs.status().code();
    auto held = std::make_shared<pmix::wire::Infos>(std::move(*dirs));
    std::function<void(pmix_status_t)> report;
    if (cbfunc != nullptr) report = [cbfunc, cbdata](pmix_status_t rc) { cbfunc(rc, cbdata); };
    return iof::Run<pmix_status_t>(
        [iofhdlr, held](std::function<void(pmix_status_t)> done) {
          iof::StartDeregister(iofhdlr, std::move(*held), done);
        },
        report, [](pmix_status_t rc) { return rc; });
  });
}

extern "C" pmix_status_t PMIx_IOF_push(const pmix_proc_t targets[], size_t ntargets,
                                       pmix_byte_object_t* bo, const pmix_info_t directives[],
                                       size_t ndirs, pmix_op_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_IOF_push", [&]() -> pmix_status_t {
    if (!iof::Initialized()) return PMIX_ERR_INIT;
    if ((targets == nullptr && ntargets > 0) || (directives == nullptr && ndirs > 0) ||
        (bo != nullptr && bo->bytes == nullptr && bo->size > 0))
      return PMIX_ERR_BAD_PARAM;
    auto dirs = pmix::wire::Infos::CopyOf(pmix::InfoSpan(directives, ndirs));
    if (!dirs.ok()) return dirs.status().code();
    auto req = std::make_shared<iof::PushRequest>();
    req->targets.assign(targets, targets + ntargets);
    req->directives = std::move(*dirs);
    req->has_data = bo != nullptr;
    if (bo != nullptr && bo->size > 0) req->data.assign(bo->bytes, bo->bytes + bo->size);
    std::function<void(pmix_status_t)> report;
    if (cbfunc != nullptr) report = [cbfunc, cbdata](pmix_status_t rc) { cbfunc(rc, cbdata); };
    return iof::Run<pmix_status_t>(
        [req](std::function<void(pmix_status_t)> done) { iof::StartPush(std::move(*req), done); },
        report, [](pmix_status_t rc) { return rc; });
  });
}
