// Allocation and monitoring requests, handed to the host (server_alloc.h).
#include "src/server/server_alloc.h"

#include <memory>
#include <vector>

#include "pmix_server.h"
#include "src/server/server_internal.h"
#include "src/server/server_monitor.h"

namespace pmix::server {
namespace {

// Calls the host through `call(infos, cbfunc, cbdata)`; the infos (and
// whatever `keep` holds) stay alive until the host is done.
void AskHost(const Requester& who, std::span<const pmix_info_t> info,
             const std::function<pmix_status_t(wire::Infos&, pmix_info_cbfunc_t, void*)>& call,
             std::shared_ptr<void> keep, const InfosDone& done) {
  auto infos = WithRequesterIds(info, who);
  if (!infos.ok()) return done(infos.status().code(), wire::Infos());
  auto held = std::make_shared<wire::Infos>(std::move(*infos));
  CallHostForInfos([&](pmix_info_cbfunc_t cbfunc, void* cbdata) { return call(*held, cbfunc, cbdata); },
                   [done, held, keep](pmix_status_t status, wire::Infos&& results) {
                     done(status, std::move(results));
                   });
}

pmix_info_t* Data(wire::Infos& infos) { return infos.size() > 0 ? infos.data() : nullptr; }

}  // namespace

void Allocate(Server& s, const Requester& who, pmix_alloc_directive_t directive,
              std::span<const pmix_info_t> info, InfosDone done) {
  auto allocate = s.module.allocate;
  if (allocate == nullptr) return done(PMIX_ERR_NOT_SUPPORTED, wire::Infos());
  auto proc = std::make_shared<pmix_proc_t>(who.proc);
  AskHost(
      who, info,
      [allocate, proc, directive](wire::Infos& data, pmix_info_cbfunc_t cbfunc, void* cbdata) {
        return allocate(proc.get(), directive, Data(data), data.size(), cbfunc, cbdata);
      },
      proc, done);
}

void Monitor(Server& s, const Requester& who, const pmix_info_t& monitor, pmix_status_t error,
             std::span<const pmix_info_t> directives, InfosDone done) {
  auto upcall = s.module.monitor;
  if (upcall == nullptr) return MonitorInLibrary(s, who.proc, monitor, error, directives, done);
  auto what = wire::Infos::CopyOf(std::span<const pmix_info_t>(&monitor, 1));
  if (!what.ok()) return done(what.status().code(), wire::Infos());
  auto dirs = wire::Infos::CopyOf(directives);
  if (!dirs.ok()) return done(dirs.status().code(), wire::Infos());
  struct Kept {
    pmix_proc_t proc;
    wire::Infos monitor;
    wire::Infos directives;  // as the requester gave them, for the library's turn
  };
  auto kept = std::make_shared<Kept>(Kept{who.proc, std::move(*what), std::move(*dirs)});
  // A host that does not monitor this leaves it to the library.
  InfosDone answer = [kept, error, done](pmix_status_t status, wire::Infos&& results) {
    Server* server = CurrentServer();
    if (status != PMIX_ERR_NOT_SUPPORTED || server == nullptr)
      return done(status, std::move(results));
    MonitorInLibrary(*server, kept->proc, kept->monitor.view()[0], error, kept->directives.view(),
                     done);
  };
  AskHost(
      who, directives,
      [upcall, kept, error](wire::Infos& dirs, pmix_info_cbfunc_t cbfunc, void* cbdata) {
        return upcall(&kept->proc, kept->monitor.data(), error, Data(dirs), dirs.size(), cbfunc,
                      cbdata);
      },
      kept, answer);
}

void HandleAllocate(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  wire::Reader r(peer->conn->codec(), frame.payload);
  pmix_alloc_directive_t directive = 0;
  r.Unpack(&directive, 1, PMIX_ALLOC_DIRECTIVE);
  wire::Infos info = r.InfoArray();
  InfosDone reply = InfosReplier(peer, frame);
  if (!r.status().ok()) return reply(r.status().code(), wire::Infos());
  Allocate(s, RequesterOf(*peer), directive, info.view(), std::move(reply));
}

void HandleMonitor(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  wire::Reader r(peer->conn->codec(), frame.payload);
  wire::Infos monitor = r.InfoArray();
  pmix_status_t error = r.Status();
  wire::Infos directives = r.InfoArray();
  InfosDone reply = InfosReplier(peer, frame);
  pmix_status_t bad = !r.status().ok() ? r.status().code()
                      : monitor.size() != 1 ? PMIX_ERR_BAD_PARAM
                                            : PMIX_SUCCESS;
  if (bad != PMIX_SUCCESS) return reply(bad, wire::Infos());
  Monitor(s, RequesterOf(*peer), monitor.view()[0], error, directives.view(), std::move(reply));
}

}  // namespace pmix::server
