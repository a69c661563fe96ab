// PMIx_server_setup_application and PMIx_server_setup_local_support
// (server_app_setup.h).
#include "src/server/server_app_setup.h"

#include <pthread.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mca/pnet/base/pnet_base.h"
#include "pmix_server.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/runtime/context.h"
#include "src/server/envar_directives.h"
#include "src/server/server_internal.h"

namespace pmix::server {
namespace {

// The variables setup_application harvests from the launcher.
constexpr std::string_view kHarvestPrefixes[] = {"PMIX_MCA_"};

// The local-support directives per namespace. setup_fork reads them on
// the host's threads, also in a forked child: the fork handlers take the
// lock around fork() so the child never inherits it held.
class LocalEnvStore {
 public:
  static LocalEnvStore& Get() {
    static LocalEnvStore* store = new LocalEnvStore();  // never destroyed: fork handlers use it
    return *store;
  }
  void Add(const std::string& nspace, std::vector<envars::Directive> add) {
    std::lock_guard<std::mutex> lock(mu_);
    auto& list = by_nspace_[nspace];
    list.insert(list.end(), add.begin(), add.end());
  }
  std::vector<envars::Directive> Find(std::string_view nspace) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = by_nspace_.find(nspace);
    return it == by_nspace_.end() ? std::vector<envars::Directive>() : it->second;
  }
  void Drop(std::string_view nspace) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = by_nspace_.find(nspace);
    if (it != by_nspace_.end()) by_nspace_.erase(it);
  }
  void Clear() {
    std::lock_guard<std::mutex> lock(mu_);
    by_nspace_.clear();
  }

 private:
  LocalEnvStore() {
    ::pthread_atfork([] { Get().mu_.lock(); }, [] { Get().mu_.unlock(); },
                     [] { Get().mu_.unlock(); });
  }
  std::mutex mu_;
  std::map<std::string, std::vector<envars::Directive>, std::less<>> by_nspace_;
};

bool ValidNspace(const char* nspace) {
  return nspace != nullptr && nspace[0] != '\0' &&
         ::strnlen(nspace, PMIX_MAX_NSLEN + 1) <= PMIX_MAX_NSLEN;
}

// Whether the directives ask for envars (see the header for the rule).
bool WantsEnvars(std::span<const pmix_info_t> info) {
  if (InfoFlag(info, PMIX_SETUP_APP_ENVARS) || InfoFlag(info, PMIX_SETUP_APP_ALL)) return true;
  return !InfoFlag(info, PMIX_SETUP_APP_NONENVARS);
}

// Whether the directives ask for the other data (the pnet components').
bool WantsNonEnvars(std::span<const pmix_info_t> info) {
  if (InfoFlag(info, PMIX_SETUP_APP_NONENVARS) || InfoFlag(info, PMIX_SETUP_APP_ALL)) return true;
  return !InfoFlag(info, PMIX_SETUP_APP_ENVARS);
}

// The envars setup_application returns for `info`, read on the caller's
// thread (the host may change its environment on that thread, never on ours).
Result<wire::Infos> ApplicationData(std::span<const pmix_info_t> info) {
  wire::Infos out;
  if (!WantsEnvars(info)) return out;
  for (const envars::Directive& d : envars::Harvest(environ, kHarvestPrefixes))
    PMIX_RETURN_IF_ERROR(envars::AppendInfo(d, out));
  return out;
}

// What the pnet components add for the job (progress thread).
Status AddFabricData(const std::string& nspace, std::span<const pmix_info_t> info,
                     wire::Infos& out) {
  if (!WantsNonEnvars(info)) return Status();
  auto added = pnet::SetupApplication(nspace, info);
  if (!added.ok()) return added.status();
  for (const auto& i : added->view()) PMIX_RETURN_IF_ERROR(out.Append(i));
  return Status();
}

void ReleaseAppData(pmix_status_t, void* cbdata) { delete static_cast<wire::Infos*>(cbdata); }

}  // namespace

Status ApplyLocalSupportEnv(std::string_view nspace, char*** env) {
  for (const envars::Directive& d : LocalEnvStore::Get().Find(nspace))
    PMIX_RETURN_IF_ERROR(envars::Apply(d, env));
  return Status();
}

void AppSetupOnNamespaceGone(std::string_view nspace) {
  LocalEnvStore::Get().Drop(nspace);
  pnet::DeregisterNspace(std::string(nspace));
}

void AppSetupShutdown() { LocalEnvStore::Get().Clear(); }

}  // namespace pmix::server

namespace server = pmix::server;

// The result goes to cbfunc on the progress thread after this returned;
// the infos stay valid until the host calls the op callback it is handed.
extern "C" pmix_status_t PMIx_server_setup_application(const pmix_nspace_t nspace,
                                                       pmix_info_t info[], size_t ninfo,
                                                       pmix_setup_application_cbfunc_t cbfunc,
                                                       void* cbdata) {
  return pmix::ApiGuard("PMIx_server_setup_application", [&]() -> pmix_status_t {
    if (!server::ServerInitialized()) return PMIX_ERR_INIT;
    if (!server::ValidNspace(nspace) || cbfunc == nullptr || (info == nullptr && ninfo > 0))
      return PMIX_ERR_BAD_PARAM;
    auto data = server::ApplicationData(pmix::InfoSpan(info, ninfo));
    if (!data.ok()) return data.status().code();
    auto held = std::make_shared<pmix::wire::Infos>(std::move(*data));
    auto directives = pmix::wire::Infos::CopyOf(pmix::InfoSpan(info, ninfo));
    if (!directives.ok()) return directives.status().code();
    auto dirs = std::make_shared<pmix::wire::Infos>(std::move(*directives));
    pmix::runtime::ProgressEngine* engine = pmix::runtime::Engine();
    if (engine == nullptr) return PMIX_ERR_INIT;
    std::string name(nspace);
    return engine
        ->Post([held, dirs, name, cbfunc, cbdata] {
          auto* out = new pmix::wire::Infos(std::move(*held));
          pmix::Status st = server::AddFabricData(name, dirs->view(), *out);
          cbfunc(st.code(), out->size() > 0 ? out->data() : nullptr, out->size(), cbdata,
                 server::ReleaseAppData, out);
        })
        .code();
  });
}

extern "C" pmix_status_t PMIx_server_setup_local_support(const pmix_nspace_t nspace,
                                                         pmix_info_t info[], size_t ninfo,
                                                         pmix_op_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_server_setup_local_support", [&]() -> pmix_status_t {
    if (!server::ServerInitialized()) return PMIX_ERR_INIT;
    if (!server::ValidNspace(nspace) || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
    auto directives = server::envars::FromInfos(pmix::InfoSpan(info, ninfo));
    if (!directives.ok()) return directives.status().code();
    auto held = std::make_shared<std::vector<server::envars::Directive>>(std::move(*directives));
    auto copy = pmix::wire::Infos::CopyOf(pmix::InfoSpan(info, ninfo));
    if (!copy.ok()) return copy.status().code();
    auto infos = std::make_shared<pmix::wire::Infos>(std::move(*copy));
    std::string name(nspace);
    return server::RunOp(
        [name, held, infos](server::Server&) {
          // the pnet components' envars for this job follow the host's
          auto fabric = pmix::pnet::SetupLocalSupport(name, infos->view());
          if (!fabric.ok()) return fabric.status();
          auto more = server::envars::FromInfos(fabric->view());
          if (!more.ok()) return more.status();
          held->insert(held->end(), more->begin(), more->end());
          if (!held->empty()) server::LocalEnvStore::Get().Add(name, std::move(*held));
          return pmix::Status();
        },
        cbfunc, cbdata);
  });
}
