// The server side of PMIx_Spawn: the host's spawn upcall (server_spawn.h).
#include "src/server/server_spawn.h"

#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "pmix.h"
#include "src/common/data_types.h"
#include "src/server/server_upcall.h"

namespace pmix::server {

Apps::Apps(size_t n) {
  if (n == 0) return;
  apps_ = PMIx_App_create(n);
  if (apps_ == nullptr) throw std::bad_alloc();
  n_ = n;
}

Apps::Apps(Apps&& other) noexcept : apps_(other.apps_), n_(other.n_) {
  other.apps_ = nullptr;
  other.n_ = 0;
}

Apps& Apps::operator=(Apps&& other) noexcept {
  if (this != &other) {
    Apps gone(std::move(*this));
    std::swap(apps_, other.apps_);
    std::swap(n_, other.n_);
  }
  return *this;
}

Apps::~Apps() {
  if (apps_ != nullptr) PMIx_App_free(apps_, n_);
}

Result<Apps> Apps::CopyOf(std::span<const pmix_app_t> src) {
  void* copy = nullptr;
  PMIX_RETURN_IF_ERROR(CopyArray(PMIX_APP, src.data(), src.size(), &copy));
  Apps out;
  out.apps_ = static_cast<pmix_app_t*>(copy);
  out.n_ = copy != nullptr ? src.size() : 0;
  return out;
}

void PackApps(wire::Writer& w, std::span<const pmix_app_t> apps) {
  w.U32(static_cast<uint32_t>(apps.size()));
  if (!apps.empty()) w.Pack(apps.data(), static_cast<int32_t>(apps.size()), PMIX_APP);
}

Result<Apps> UnpackApps(wire::Reader& r) {
  uint32_t n = r.U32();
  if (!r.status().ok()) return r.status();
  if (n > kMaxSpawnApps) return Status(PMIX_ERR_UNPACK_FAILURE);
  Apps apps(n);
  if (n > 0) r.Unpack(apps.data(), static_cast<int32_t>(n), PMIX_APP);
  if (!r.status().ok()) return r.status();
  return apps;
}

namespace {

// What the upcall reads until its callback.
struct SpawnArgs {
  pmix_proc_t requester{};
  wire::Infos job_info;
  Apps apps;
};

// The caller's job info plus what §17.3.11 makes the library add.
Result<wire::Infos> JobInfoForHost(const Requester& who, bool is_tool,
                                   std::span<const pmix_info_t> job_info) {
  auto info = WithRequesterIds(job_info, who);
  if (!info.ok()) return info.status();
  bool yes = true;
  PMIX_RETURN_IF_ERROR(
      info->Add(is_tool ? PMIX_REQUESTOR_IS_TOOL : PMIX_REQUESTOR_IS_CLIENT, &yes, PMIX_BOOL));
  return std::move(*info);
}

}  // namespace

void Spawn(Server& s, const Requester& who, bool is_tool, std::span<const pmix_info_t> job_info,
           Apps apps, SpawnDone done) {
  if (s.module.spawn == nullptr) return done(PMIX_ERR_NOT_SUPPORTED, "");
  if (apps.size() == 0) return done(PMIX_ERR_BAD_PARAM, "");
  auto info = JobInfoForHost(who, is_tool, job_info);
  if (!info.ok()) return done(info.status().code(), "");
  auto args = std::make_shared<SpawnArgs>();
  args->requester = who.proc;
  args->job_info = std::move(*info);
  args->apps = std::move(apps);
  auto spawn = s.module.spawn;
  CallHostForSpawn(
      [&](pmix_spawn_cbfunc_t cbfunc, void* cbdata) {
        return spawn(&args->requester, args->job_info.data(), args->job_info.size(),
                     args->apps.data(), args->apps.size(), cbfunc, cbdata);
      },
      [args, done = std::move(done)](pmix_status_t status, std::string nspace) {
        done(status, std::move(nspace));
      });
}

pmix_status_t SpawnResult(pmix_status_t status, const std::string& nspace, wire::Infos* infos) {
  if (status != PMIX_SUCCESS || nspace.empty()) return status;
  Status added = infos->Add(PMIX_NSPACE, nspace.c_str(), PMIX_STRING);
  return added.ok() ? status : added.code();
}

void HandleSpawn(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  wire::Reader r(peer->conn->codec(), frame.payload);
  wire::Infos job_info = r.InfoArray();
  auto apps = UnpackApps(r);
  InfosDone reply = InfosReplier(peer, frame);
  if (!apps.ok()) return reply(apps.status().code(), wire::Infos());
  Spawn(s, RequesterOf(*peer), peer->is_tool, job_info.view(), std::move(*apps),
        [reply](pmix_status_t status, std::string nspace) {
          wire::Infos result;
          status = SpawnResult(status, nspace, &result);
          reply(status, std::move(result));
        });
}

}  // namespace pmix::server
