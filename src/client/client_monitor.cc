// PMIx_Process_monitor and PMIx_Process_monitor_nb (standard §13.3),
// including the heartbeats of PMIx_Heartbeat() (the monitor
// PMIX_SEND_HEARTBEAT, no callback).
//
// A client sends the request to its server (wire::Msg::kMonitor; the body
// and what the server does with it: src/server/server_alloc.h); a process
// that is itself a server hands it to its own host. The callback (may be
// NULL) runs on the progress thread after the _nb call returned; its
// results stay valid until the caller invokes the release function.
#include <memory>

#include "pmix.h"
#include "src/client/client_request.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/server/server_alloc.h"

namespace pmix::client {
namespace {

bool ArgsValid(const pmix_info_t* monitor, const pmix_info_t* directives, size_t ndirs) {
  return monitor != nullptr && (directives != nullptr || ndirs == 0);
}

// A copy of `info` that can travel: the "void" attributes (PMIX_SEND_HEARTBEAT,
// PMIX_MONITOR_HEARTBEAT, ...) are loaded as a NULL PMIX_POINTER (so does
// PMIx_Heartbeat()), which no codec packs; they become value-less
// (PMIX_UNDEF, which reads as true). The host sees the same on every path.
Result<wire::Infos> Portable(std::span<const pmix_info_t> info) {
  wire::Infos out;
  for (const pmix_info_t& i : info) {
    if (i.value.type == PMIX_POINTER) {
      PMIX_RETURN_IF_ERROR(out.Add(i.key, nullptr, PMIX_UNDEF));
      out.data()[out.size() - 1].flags = i.flags;
    } else {
      PMIX_RETURN_IF_ERROR(out.Append(i));
    }
  }
  return out;
}

pmix_status_t Start(const pmix_info_t& monitor, pmix_status_t error,
                    std::span<const pmix_info_t> directives, InfoDone done) {
  auto what = Portable(std::span<const pmix_info_t>(&monitor, 1));
  if (!what.ok()) return what.status().code();
  auto dirs = Portable(directives);
  if (!dirs.ok()) return dirs.status().code();
  auto held_monitor = std::make_shared<wire::Infos>(std::move(*what));
  auto held_dirs = std::make_shared<wire::Infos>(std::move(*dirs));
  return StartInfoRequest(
      wire::Msg::kMonitor,
      [held_monitor, error, held_dirs](wire::Writer& w) {
        w.InfoArray(held_monitor->view()).Status(error).InfoArray(held_dirs->view());
      },
      [held_monitor, error, held_dirs](server::Server& s, InfoDone done) {
        server::Monitor(s, server::SelfRequester(s), held_monitor->view()[0], error,
                        held_dirs->view(), AsInfosDone(std::move(done)));
      },
      std::move(done));
}

}  // namespace
}  // namespace pmix::client

namespace client = pmix::client;

extern "C" pmix_status_t PMIx_Process_monitor_nb(const pmix_info_t* monitor, pmix_status_t error,
                                                 const pmix_info_t directives[], size_t ndirs,
                                                 pmix_info_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_Process_monitor_nb", [&]() -> pmix_status_t {
    if (!client::ArgsValid(monitor, directives, ndirs)) return PMIX_ERR_BAD_PARAM;
    return client::Start(*monitor, error, pmix::InfoSpan(directives, ndirs),
                         [cbfunc, cbdata](client::InfoReply&& r) {
                           client::DeliverInfoReply(cbfunc, cbdata, std::move(r));
                         });
  });
}

extern "C" pmix_status_t PMIx_Process_monitor(const pmix_info_t* monitor, pmix_status_t error,
                                              const pmix_info_t directives[], size_t ndirs,
                                              pmix_info_t** results, size_t* nresults) {
  return pmix::ApiGuard("PMIx_Process_monitor", [&]() -> pmix_status_t {
    if (!client::ArgsValid(monitor, directives, ndirs)) return PMIX_ERR_BAD_PARAM;
    auto r = client::WaitInfoReply([&](client::InfoDone done) {
      return client::Start(*monitor, error, pmix::InfoSpan(directives, ndirs), std::move(done));
    });
    if (!r.ok()) return r.status().code();
    return client::CopyInfoReplyOut(*r, results, nresults);
  });
}
