// Job control on the server: cleanup registrations kept here, the rest
// handed to the host's job_control upcall (server_job_control.h).
#include "src/server/server_job_control.h"

#include <cstring>
#include <memory>
#include <vector>

#include "pmix_server.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/server/server_cleanup.h"
#include "src/server/server_internal.h"
#include "src/server/server_upcall.h"

namespace pmix::server {
namespace {

// The registrations of the running server (progress thread only; emptied
// at server finalize).
cleanup::Registry& Registrations() {
  static cleanup::Registry registry;
  return registry;
}

void RunAll(std::vector<cleanup::Request> requests) {
  for (const cleanup::Request& req : requests) cleanup::Execute(req);
}

// The host's part: rest with the requester's uid/gid.
void AskHost(Server& s, const Requester& who, std::span<const pmix_proc_t> targets,
             wire::Infos rest, const JobControlDone& done) {
  if (s.module.job_control == nullptr) return done(PMIX_ERR_NOT_SUPPORTED, wire::Infos());
  Status added = AddRequesterIds(&rest, who);
  if (!added.ok()) return done(added.code(), wire::Infos());
  auto dirs = std::make_shared<wire::Infos>(std::move(rest));
  auto job_control = s.module.job_control;
  CallHostForInfos(
      [&](pmix_info_cbfunc_t cbfunc, void* cbdata) {
        return job_control(&who.proc, targets.empty() ? nullptr : targets.data(), targets.size(),
                           dirs->data(), dirs->size(), cbfunc, cbdata);
      },
      [done, dirs](pmix_status_t status, wire::Infos&& results) {
        done(status, std::move(results));
      });
}

}  // namespace

void JobControl(Server& s, const Requester& who, std::span<const pmix_proc_t> targets,
                std::span<const pmix_info_t> directives, JobControlDone done) {
  cleanup::Request req;
  req.owner = who.uid;
  wire::Infos rest;
  Status split = cleanup::Split(directives, &req, &rest);
  if (!split.ok()) return done(split.code(), wire::Infos());
  if (!req.empty()) {
    if (targets.empty()) {
      Registrations().Add(who.proc, std::move(req));
    } else {
      for (const pmix_proc_t& target : targets) Registrations().Add(target, req);
    }
  }
  if (rest.size() == 0) return done(PMIX_SUCCESS, wire::Infos());
  AskHost(s, who, targets, std::move(rest), done);
}

void HandleJobControl(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  wire::Reader r(peer->conn->codec(), frame.payload);
  std::vector<pmix_proc_t> targets = r.Procs();
  wire::Infos directives = r.InfoArray();
  InfosDone reply = InfosReplier(peer, frame);
  if (!r.status().ok()) return reply(r.status().code(), wire::Infos());
  JobControl(s, RequesterOf(*peer), targets, directives.view(), std::move(reply));
}

void JobControlOnPeerLost(Server&, const PeerPtr& peer) {
  RunAll(Registrations().TakeProc(peer->proc));
}

void JobControlOnNamespaceGone(Server&, const std::string& nspace) {
  RunAll(Registrations().TakeNamespace(nspace));
}

void JobControlShutdown(Server&) { RunAll(Registrations().TakeAll()); }

}  // namespace pmix::server
