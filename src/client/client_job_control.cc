// PMIx_Job_control and PMIx_Job_control_nb (standard §13.2).
//
// A client sends the request to its server (wire::Msg::kJobControl, see
// src/server/server_job_control.h for the body and what the server does
// with it). A process that is a server runs the request itself: its host
// is the one that would answer it. The callback always runs on the
// progress thread, after the _nb call has returned; the results it gets
// stay valid until the caller invokes the release function it is handed.
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <vector>

#include "pmix.h"
#include "src/client/client_state.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/runtime/context.h"
#include "src/server/server_job_control.h"

namespace pmix::client {
namespace {

struct JcResult {
  pmix_status_t status = PMIX_ERROR;
  wire::Infos info;
};
using JcDone = std::function<void(JcResult&&)>;

void AskServer(Client& c, const std::vector<pmix_proc_t>& targets, const wire::Infos& dirs,
               const JcDone& done) {
  if (c.codec() == nullptr) return done(JcResult{PMIX_ERR_UNREACH, {}});
  wire::Writer w(c.codec());
  w.Procs(targets).InfoArray(dirs.view());
  auto body = w.Take();
  if (!body.ok()) return done(JcResult{body.status().code(), {}});
  c.Request(wire::Msg::kJobControl, *body, [done](Status st, wire::Reader& r) {
    JcResult out;
    out.status = st.ok() ? r.Status() : st.code();
    // A server that does not know the request answers with a status only.
    if (st.ok() && r.status().ok() && !r.AtEnd()) out.info = r.InfoArray();
    if (st.ok() && !r.status().ok() && out.status == PMIX_SUCCESS) out.status = r.status().code();
    done(std::move(out));
  });
}

void RunAsServer(server::Server& s, const std::vector<pmix_proc_t>& targets,
                 const wire::Infos& dirs, const JcDone& done) {
  server::JobControlRequester who{s.myproc, ::getuid(), ::getgid()};
  server::JobControl(s, who, targets, dirs.view(),
                     [done](pmix_status_t status, wire::Infos&& info) {
                       done(JcResult{status, std::move(info)});
                     });
}

// Starts the request; done runs once on the progress thread, never before
// this returns PMIX_SUCCESS (and not at all otherwise).
pmix_status_t Start(std::span<const pmix_proc_t> targets, std::span<const pmix_info_t> directives,
                    JcDone done) {
  runtime::ProgressEngine* engine = runtime::Engine();
  if (engine == nullptr) return PMIX_ERR_INIT;
  auto dirs = wire::Infos::CopyOf(directives);
  if (!dirs.ok()) return dirs.status().code();
  auto shared_dirs = std::make_shared<wire::Infos>(std::move(*dirs));
  std::vector<pmix_proc_t> procs(targets.begin(), targets.end());
  Status posted = engine->Post([procs = std::move(procs), shared_dirs, done = std::move(done)] {
    if (server::Server* s = server::CurrentServer(); s != nullptr)
      return RunAsServer(*s, procs, *shared_dirs, done);
    if (Client* c = CurrentClient(); c != nullptr) return AskServer(*c, procs, *shared_dirs, done);
    done(JcResult{PMIX_ERR_INIT, {}});
  });
  return posted.code();
}

void ReleaseResults(void* cbdata) { delete static_cast<wire::Infos*>(cbdata); }

Result<JcResult> Blocking(std::span<const pmix_proc_t> targets,
                          std::span<const pmix_info_t> directives) {
  return runtime::WaitForCallback<JcResult>(
      [&](std::function<void(JcResult&&)> done) { return Start(targets, directives, std::move(done)); });
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
                         [cbfunc, cbdata](client::JcResult&& r) {
                           if (cbfunc == nullptr) return;
                           auto* held = new pmix::wire::Infos(std::move(r.info));
                           cbfunc(r.status, held->data(), held->size(), cbdata,
                                  client::ReleaseResults, held);
                         });
  });
}

extern "C" pmix_status_t PMIx_Job_control(const pmix_proc_t targets[], size_t ntargets,
                                          const pmix_info_t directives[], size_t ndirs,
                                          pmix_info_t* results[], size_t* nresults) {
  return pmix::ApiGuard("PMIx_Job_control", [&]() -> pmix_status_t {
    if (!client::ArgsValid(targets, ntargets, directives, ndirs)) return PMIX_ERR_BAD_PARAM;
    if (results != nullptr) *results = nullptr;
    if (nresults != nullptr) *nresults = 0;
    auto r =
        client::Blocking(client::ProcSpan(targets, ntargets), pmix::InfoSpan(directives, ndirs));
    if (!r.ok()) return r.status().code();
    if (results != nullptr && nresults != nullptr && r->info.size() > 0) {
      auto out = r->info.ToMalloced();
      if (!out.ok()) return out.status().code();
      *results = *out;
      *nresults = r->info.size();
    }
    return r->status;
  });
}
