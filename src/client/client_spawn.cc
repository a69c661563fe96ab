// PMIx_Spawn and PMIx_Spawn_nb (standard §12.2).
//
// A client sends the job info and the apps to its server (wire::Msg::kSpawn,
// body and reply in src/server/server_spawn.h), which hands them to its
// host's spawn upcall; a process that is itself a server calls its own
// host. The reply's status and namespace (PMIX_NSPACE in the reply's infos)
// go to the callback, on the progress thread, after the _nb call returned;
// the blocking form copies the namespace into the caller's array (at least
// PMIX_MAX_NSLEN + 1 bytes, §12.2.1; NULL: not wanted).
//
// Argument checks (PMIX_ERR_BAD_PARAM): no apps (NULL or napps 0), more
// than server::kMaxSpawnApps, a NULL job info array with a count, an app
// whose info array is NULL with a count. Everything else (a missing
// command, ...) is the host's to judge.
#include <cstring>
#include <memory>
#include <string>

#include "pmix.h"
#include "src/client/client_request.h"
#include "src/common/api_guard.h"
#include "src/common/data_types.h"
#include "src/common/info_lookup.h"
#include "src/server/server_spawn.h"

namespace pmix::client {
namespace {

bool ArgsValid(const pmix_info_t* job_info, size_t ninfo, const pmix_app_t* apps, size_t napps) {
  if ((job_info == nullptr && ninfo > 0) || apps == nullptr || napps == 0) return false;
  if (napps > server::kMaxSpawnApps) return false;
  for (size_t i = 0; i < napps; ++i) {
    if (apps[i].info == nullptr && apps[i].ninfo > 0) return false;
  }
  return true;
}

// What the request needs after the caller's call returned: copies.
struct SpawnCopy {
  wire::Infos job_info;
  server::Apps apps;
};

// The request as this process runs it (copies made on the caller's thread).
pmix_status_t Start(std::span<const pmix_info_t> job_info, std::span<const pmix_app_t> apps,
                    InfoDone done) {
  auto info = wire::Infos::CopyOf(job_info);
  if (!info.ok()) return info.status().code();
  auto app_copy = server::Apps::CopyOf(apps);
  if (!app_copy.ok()) return app_copy.status().code();
  auto req = std::make_shared<SpawnCopy>(SpawnCopy{std::move(*info), std::move(*app_copy)});
  return StartInfoRequest(
      wire::Msg::kSpawn,
      [req](wire::Writer& w) {
        w.InfoArray(req->job_info.view());
        server::PackApps(w, req->apps.view());
      },
      [req](server::Server& s, InfoDone done) {
        server::Spawn(s, server::SelfRequester(s), false, req->job_info.view(),
                      std::move(req->apps), [done](pmix_status_t status, std::string nspace) {
                        InfoReply reply{status, {}};
                        reply.status = server::SpawnResult(status, nspace, &reply.info);
                        done(std::move(reply));
                      });
      },
      std::move(done));
}

// The namespace the reply names ("" when none).
std::string NspaceOf(const InfoReply& reply) {
  return InfoString(reply.info.view(), PMIX_NSPACE).value_or("");
}

}  // namespace
}  // namespace pmix::client

namespace client = pmix::client;

extern "C" pmix_status_t PMIx_Spawn_nb(const pmix_info_t job_info[], size_t ninfo,
                                       const pmix_app_t apps[], size_t napps,
                                       pmix_spawn_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_Spawn_nb", [&]() -> pmix_status_t {
    if (!client::ArgsValid(job_info, ninfo, apps, napps)) return PMIX_ERR_BAD_PARAM;
    return client::Start(pmix::InfoSpan(job_info, ninfo), std::span<const pmix_app_t>(apps, napps),
                         [cbfunc, cbdata](client::InfoReply&& r) {
                           if (cbfunc == nullptr) return;
                           pmix_nspace_t nspace;
                           pmix::CopyBounded(nspace, client::NspaceOf(r).c_str(), PMIX_MAX_NSLEN);
                           cbfunc(r.status, nspace, cbdata);
                         });
  });
}

extern "C" pmix_status_t PMIx_Spawn(const pmix_info_t job_info[], size_t ninfo,
                                    const pmix_app_t apps[], size_t napps, char nspace[]) {
  return pmix::ApiGuard("PMIx_Spawn", [&]() -> pmix_status_t {
    if (!client::ArgsValid(job_info, ninfo, apps, napps)) return PMIX_ERR_BAD_PARAM;
    auto r = client::WaitInfoReply([&](client::InfoDone done) {
      return client::Start(pmix::InfoSpan(job_info, ninfo),
                           std::span<const pmix_app_t>(apps, napps), std::move(done));
    });
    if (!r.ok()) return r.status().code();
    if (r->status == PMIX_SUCCESS && nspace != nullptr)
      pmix::CopyBounded(nspace, client::NspaceOf(*r).c_str(), PMIX_MAX_NSLEN);
    return r->status;
  });
}
