// PMIx_Job_control and PMIx_Job_control_nb (standard §13.2).
//
// A client sends the request to its server (wire::Msg::kJobControl, see
// src/server/server_job_control.h for the body and what the server does
// with it). A process that is a server runs the request itself: its host
// is the one that would answer it. The callback always runs on the
// progress thread, after the _nb call has returned; the results it gets
// stay valid until the caller invokes the release function it is handed.
#include <cstdlib>
#include <memory>
#include <vector>

#include "pmix.h"
#include "src/client/client_request.h"
#include "src/client/client_state.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/runtime/context.h"
#include "src/server/server_job_control.h"

namespace pmix::client {
namespace {

// The request as this process runs it: sent to its server, or (in a
// server process) handed to the server's own job control.
pmix_status_t Start(std::span<const pmix_proc_t> targets, std::span<const pmix_info_t> directives,
                    InfoDone done) {
  auto dirs = wire::Infos::CopyOf(directives);
  if (!dirs.ok()) return dirs.status().code();
  auto shared_dirs = std::make_shared<wire::Infos>(std::move(*dirs));
  auto procs = std::make_shared<std::vector<pmix_proc_t>>(targets.begin(), targets.end());
  return StartInfoRequest(
      wire::Msg::kJobControl,
      [procs, shared_dirs](wire::Writer& w) { w.Procs(*procs).InfoArray(shared_dirs->view()); },
      [procs, shared_dirs](server::Server& s, InfoDone done) {
        server::JobControl(s, server::SelfRequester(s), *procs, shared_dirs->view(),
                           AsInfosDone(std::move(done)));
      },
      std::move(done));
}

bool ArgsValid(const pmix_proc_t* targets, size_t ntargets, const pmix_info_t* directives,
               size_t ndirs) {
  return (targets != nullptr || ntargets == 0) && (directives != nullptr || ndirs == 0);
}

std::span<const pmix_proc_t> ProcSpan(const pmix_proc_t* procs, size_t n) {
  return procs == nullptr ? std::span<const pmix_proc_t>() : std::span<const pmix_proc_t>(procs, n);
}

}  // namespace
}  // namespace pmix::client

namespace client = pmix::client;

extern "C" pmix_status_t PMIx_Job_control_nb(const pmix_proc_t targets[], size_t ntargets,
                                             const pmix_info_t directives[], size_t ndirs,
                                             pmix_info_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_Job_control_nb", [&]() -> pmix_status_t {
    if (!client::ArgsValid(targets, ntargets, directives, ndirs)) return PMIX_ERR_BAD_PARAM;
    return client::Start(client::ProcSpan(targets, ntargets), pmix::InfoSpan(directives, ndirs),
                         [cbfunc, cbdata](client::InfoReply&& r) {
                           client::DeliverInfoReply(cbfunc, cbdata, std::move(r));
                         });
  });
}

extern "C" pmix_status_t PMIx_Job_control(const pmix_proc_t targets[], size_t ntargets,
                                          const pmix_info_t directives[], size_t ndirs,
                                          pmix_info_t* results[], size_t* nresults) {
  return pmix::ApiGuard("PMIx_Job_control", [&]() -> pmix_status_t {
    if (!client::ArgsValid(targets, ntargets, directives, ndirs)) return PMIX_ERR_BAD_PARAM;
    auto r = client::WaitInfoReply([&](client::InfoDone done) {
      return client::Start(client::ProcSpan(targets, ntargets), pmix::InfoSpan(directives, ndirs),
                           std::move(done));
    });
    if (!r.ok()) return r.status().code();
    return client::CopyInfoReplyOut(*r, results, nresults);
  });
}
