// The server library's life cycle: PMIx_server_init / PMIx_server_finalize,
// the listeners, accepting connections, the hello (security, codec), and
// routing each peer's messages to the per-operation handlers.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "mca/bfrops/base/bfrops_base.h"
#include "mca/preg/base/preg_base.h"
#include "mca/psec/base/psec_base.h"
#include "pmix_server.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/runtime/context.h"
#include "src/runtime/state.h"
#include "src/server/server_connect.h"
#include "src/server/server_accept.h"
#include "src/server/server_group.h"
#include "src/server/server_pset.h"
#include "src/server/server_app_setup.h"
#include "src/server/server_identity.h"
#include "src/server/server_internal.h"
#include "src/server/server_job_control.h"
#include "src/server/server_monitor.h"
#include "src/server/server_topology.h"
#include "src/server/server_rendezvous.h"
#include "src/client/client_state.h"
#include "src/iof/iof_client.h"
#include "src/wire/protocol.h"

namespace pmix::server {
namespace {

Server* g_server = nullptr;  // progress thread only

// The PMIx_server_init attributes the library acts on; a required one
// (PMIX_INFO_REQD) outside this list is refused with PMIX_ERR_NOT_SUPPORTED
// rather than silently ignored (standard §3.2.9). Optional ones are ignored.
// Add an attribute here when the code that honours it lands.
constexpr const char* kHonouredInitAttributes[] = {
    PMIX_HOSTNAME,         PMIX_SERVER_NSPACE,    PMIX_SERVER_RANK,      PMIX_SERVER_TMPDIR,
    PMIX_SYSTEM_TMPDIR,    PMIX_EXTERNAL_PROGRESS, PMIX_TCP_IF_INCLUDE,  PMIX_TCP_IPV4_PORT,
    PMIX_TCP_IPV6_PORT,    PMIX_TCP_DISABLE_IPV4, PMIX_TCP_DISABLE_IPV6,
    // tools and rendezvous (server_tool.cc, server_rendezvous.cc)
    PMIX_SERVER_TOOL_SUPPORT, PMIX_SERVER_SYSTEM_SUPPORT, PMIX_SERVER_SESSION_SUPPORT,
    PMIX_TCP_REPORT_URI, PMIX_LAUNCHER_RENDEZVOUS_FILE,
    // topology (server_topology.cc)
    PMIX_SERVER_SHARE_TOPOLOGY, PMIX_TOPOLOGY2, PMIX_TOPOLOGY,
};

Status CheckRequired(std::span<const pmix_info_t> info) {
  for (const pmix_info_t& i : info) {
    if ((i.flags & PMIX_INFO_REQD) == 0) continue;
    bool honoured = false;
    for (const char* key : kHonouredInitAttributes) honoured = honoured || PMIX_CHECK_KEY(&i, key);
    if (honoured) continue;
    output::Error("server", "PMIx_server_init: required attribute %.*s is not supported",
                  PMIX_MAX_KEYLEN, i.key);
    return PMIX_ERR_NOT_SUPPORTED;
  }
  return Status();
}

// The server-wide directives of PMIx_server_init.
Status Configure(Server& s, std::span<const pmix_info_t> info) {
  PMIX_RETURN_IF_ERROR(CheckRequired(info));
  s.hostname = InfoString(info, PMIX_HOSTNAME).value_or("");
  if (s.hostname.empty()) {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    s.hostname = host;
  }
  std::string nspace = InfoString(info, PMIX_SERVER_NSPACE).value_or(DefaultServerNspace());
  if (nspace.size() > PMIX_MAX_NSLEN) return PMIX_ERR_BAD_PARAM;
  PMIx_Load_procid(&s.myproc, nspace.c_str(),
                   InfoU32(info, PMIX_SERVER_RANK).value_or(DefaultServerRank()));
  s.uid = ::geteuid();
  s.gid = ::getegid();
  s.system_tmpdir = InfoString(info, PMIX_SYSTEM_TMPDIR).value_or("");
  if (s.system_tmpdir.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    s.system_tmpdir = (tmp != nullptr && *tmp == '/') ? tmp : "/tmp";
  }
  ConfigureTools(s, info);
  s.tmpdir = InfoString(info, PMIX_SERVER_TMPDIR).value_or("");
  if (s.tmpdir.empty()) {
    std::string pattern = s.system_tmpdir + "/pmixx-server.XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) return PMIX_ERR_NO_PERMISSIONS;
    s.tmpdir = pattern;
    s.own_tmpdir = true;
  }
  return Status();
}

void ShutDown(Server& s) {
  RetractForkEnv();
  RemoveRendezvousFiles(s);
  StopAccepting(s);
  FenceShutdown(s);
  GetShutdown(s);
  EventsShutdown(s);
  JobControlShutdown(s);
  MonitorShutdown(s);
  ConnectShutdown(s);
  GroupShutdown(s);
  PsetShutdown(s);
  AppSetupShutdown();
  if (client::CurrentClient() == nullptr) iof::ShutdownIof();  // in-process pulls
  auto peers = s.peers;
  for (const auto& peer : peers) {
    peer->finalized = true;  // no client_finalized upcall during shutdown
    peer->conn->Close(PMIX_ERR_INIT);
  }
  std::vector<std::shared_ptr<wire::Connection>> greeting;
  for (const auto& [c, timer] : s.greeting) greeting.push_back(c);
  for (const auto& c : greeting) c->Close(PMIX_ERR_INIT);
  s.greeting.clear();
  auto admitting = s.admitting;
  for (const auto& peer : admitting) peer->conn->Close(PMIX_ERR_INIT);
  s.admitting.clear();
  s.listeners.clear();
  TopologyShutdown(s);
  if (s.own_tmpdir) ::rmdir(s.tmpdir.c_str());
}

std::atomic<bool> g_initialized{false};

}  // namespace

Server* CurrentServer() { return g_server; }

const ClientRecord* Namespace::Record(pmix_rank_t rank) const {
  if (auto it = clients.find(rank); it != clients.end()) return &it->second;
  if (auto it = deregistered.find(rank); it != deregistered.end()) return &it->second;
  return nullptr;
}

ClientRecord* Namespace::Record(pmix_rank_t rank) {
  return const_cast<ClientRecord*>(std::as_const(*this).Record(rank));
}

bool Namespace::IsLocal(pmix_rank_t rank) const {
  if (clients.count(rank) != 0) return true;
  for (pmix_rank_t r : summary.local_ranks) {
    if (r == rank) return true;
  }
  return false;
}

bool Namespace::ReadableBy(uid_t uid) const {
  if (clients.empty() && deregistered.empty()) return true;
  auto owned = [uid](const auto& entry) { return entry.second.uid == uid; };
  return std::any_of(clients.begin(), clients.end(), owned) ||
         std::any_of(deregistered.begin(), deregistered.end(), owned);
}

bool Namespace::SpansOtherNodes() const {
  size_t listed = summary.local_ranks.size(), registered = clients.size();
  // The local ranks are the union of both: counted only when the sizes
  // alone do not tell (called at every commit).
  if (summary.job_size <= std::max(listed, registered)) return false;
  if (summary.job_size > listed + registered) return true;
  return summary.job_size > LocalRanks().size();
}

std::set<pmix_rank_t> Namespace::LocalRanks() const {
  std::set<pmix_rank_t> local(summary.local_ranks.begin(), summary.local_ranks.end());
  for (const auto& entry : clients) local.insert(entry.first);
  return local;
}

Namespace* Server::FindNamespace(std::string_view nspace) {
  auto it = nspaces.find(nspace);
  return it == nspaces.end() ? nullptr : &it->second;
}

PeerPtr Server::FindPeer(const pmix_proc_t& proc) {
  Namespace* ns = FindNamespace(proc.nspace);
  if (ns == nullptr) return nullptr;
  auto it = ns->clients.find(proc.rank);
  return it == ns->clients.end() ? nullptr : it->second.peer;
}

void PostToServer(std::function<void(Server&)> fn) {
  runtime::ProgressEngine* engine = runtime::Engine();
  if (engine == nullptr) return;
  engine->Post([fn = std::move(fn)] {
    if (g_server != nullptr) fn(*g_server);
  }).ok();
}

bool ServerInitialized() { return g_initialized.load(); }

Status InitOnProgress(const pmix_server_module_t* module, std::span<const pmix_info_t> info) {
  auto s = std::make_unique<Server>();
  if (module != nullptr) s->module = *module;
  PMIX_RETURN_IF_ERROR(Configure(*s, info));
  auto gds_module = gds::Default();
  if (!gds_module.ok()) return gds_module.status();
  auto store = gds::Store::Create(*gds_module);
  if (!store.ok()) return store.status();
  s->store = std::move(*store);
  PMIX_RETURN_IF_ERROR(SetupTopology(*s, info));
  Status listening = StartListening(*s, info);
  if (listening.ok()) listening = WriteRendezvousFiles(*s);
  if (!listening.ok()) {
    TopologyShutdown(*s);
    if (s->own_tmpdir) ::rmdir(s->tmpdir.c_str());
    return listening;
  }
  PublishForkEnv(*s);
  // Its failure is reported by the first Generate/Parse that needs it.
  pmix::preg::Prepare().ok();
  g_server = s.release();
  return Status();
}

}  // namespace pmix::server

using pmix::Status;
namespace server = pmix::server;
namespace runtime = pmix::runtime;

extern "C" pmix_status_t PMIx_server_init(pmix_server_module_t* module, pmix_info_t info[],
                                          size_t ninfo) {
  return pmix::ApiGuard("PMIx_server_init", [&]() -> Status {
    auto& count = runtime::InitCount(runtime::Role::kServer);
    if (count.load() > 0) {
      ++count;
      return Status();
    }
    auto directives = pmix::InfoSpan(info, ninfo);
    bool external = pmix::InfoFlag(directives, PMIX_EXTERNAL_PROGRESS);
    PMIX_RETURN_IF_ERROR(runtime::AcquireEngine(external ? runtime::ProgressEngine::Mode::kExternal
                                                         : runtime::ProgressEngine::Mode::kThread));
    auto rc = runtime::CallBlocking<pmix_status_t>([module, directives](std::function<void(pmix_status_t)> done) {
      done(server::InitOnProgress(module, directives).code());
    });
    Status status = rc.ok() ? *rc : rc.status();
    if (!status.ok()) {
      runtime::ReleaseEngine().ok();
      return status;
    }
    server::g_initialized.store(true);
    ++count;
    return Status();
  });
}

extern "C" pmix_status_t PMIx_server_finalize(void) {
  return pmix::ApiGuard("PMIx_server_finalize", [&]() -> Status {
    auto& count = runtime::InitCount(runtime::Role::kServer);
    if (count.load() <= 0) return PMIX_ERR_INIT;
    runtime::ProgressEngine* engine = runtime::Engine();
    if (engine != nullptr && !engine->BlockingAllowed()) return PMIX_ERR_WOULD_BLOCK;
    if (--count > 0) return Status();
    auto rc = runtime::CallBlocking<int>([](std::function<void(int)> done) {
      if (server::g_server != nullptr) {
        server::ShutDown(*server::g_server);
        delete server::g_server;
        server::g_server = nullptr;
      }
      done(0);
    });
    server::g_initialized.store(false);
    runtime::ReleaseEngine().ok();
    return rc.ok() ? Status() : rc.status();
  });
}
