// PMIx_tool_init and PMIx_tool_finalize (standard §18.5.1, §18.5.2).
//
// Identity (§18.1): PMIX_TOOL_NSPACE (+ PMIX_TOOL_RANK, default 0); else,
// for a tool a pmixx server launched as part of a job (PMIX_NAMESPACE,
// PMIX_RANK and PMIX_SERVER_URI in its environment, no connection
// attribute given), that process's name -- it connects as the client it
// was registered as and gets its job's data; else the one the first server
// assigns; else (no server) "tool.<host>.<pid>", rank 0. It stays the same
// for every later server.
//
// Connection: the chain of tool_connect.h, unless PMIX_TOOL_DO_NOT_CONNECT;
// PMIX_TOOL_CONNECT_OPTIONAL turns a failed connection into an unconnected
// tool, but not an address the caller gave that no transport can read
// (PMIX_ERR_BAD_PARAM, or PMIX_ERR_NOT_SUPPORTED for an unknown scheme):
// that is the caller's error, not a missing server. The first server is
// the primary. PMIX_LAUNCHER_RNDZ_URI in the environment: the tool then
// also attaches to that server (a tool that launched this one), keeping
// its primary.
//
// PMIX_LAUNCHER: the tool also starts the process's server role
// (tool_launcher.h), so other tools can attach to it.
//
// Reference counted: a later PMIx_tool_init only counts (and connects an
// unconnected tool unless PMIX_TOOL_DO_NOT_CONNECT); the last
// PMIx_tool_finalize says goodbye to every server (bounded), drops the
// state and stops the progress engine.
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>

#include "pmix_tool.h"
#include "src/client/client_link.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/runtime/context.h"
#include "src/runtime/state.h"
#include "src/tool/tool_api.h"
#include "src/tool/tool_connect.h"
#include "src/tool/tool_launcher.h"
#include "src/tool/tool_state.h"

namespace pmix::tool {
namespace {

std::mutex g_mu;  // serialises init, finalize, attach

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? "" : v;
}

struct Identity {
  pmix_proc_t me{};
  bool named = false;
  std::string role = "tool";
  std::string env_uri;  // role "client": the server of its job
};

Result<Identity> ChooseIdentity(std::span<const pmix_info_t> info, const ConnectOptions& opts) {
  Identity id;
  PMIx_Load_procid(&id.me, "", PMIX_RANK_UNDEF);
  if (auto ns = InfoString(info, PMIX_TOOL_NSPACE)) {
    if (ns->empty() || ns->size() > PMIX_MAX_NSLEN) return Status(PMIX_ERR_BAD_PARAM);
    PMIx_Load_procid(&id.me, ns->c_str(), InfoU32(info, PMIX_TOOL_RANK).value_or(0));
    id.named = true;
    return id;
  }
  std::string nspace = Env("PMIX_NAMESPACE"), rank = Env("PMIX_RANK"), uri = Env("PMIX_SERVER_URI");
  if (!opts.Targeted() && !nspace.empty() && !uri.empty() && !rank.empty() &&
      nspace.size() <= PMIX_MAX_NSLEN) {
    char* end = nullptr;
    unsigned long r = std::strtoul(rank.c_str(), &end, 10);
    if (*end == '\0' && r < PMIX_RANK_VALID) {
      PMIx_Load_procid(&id.me, nspace.c_str(), static_cast<pmix_rank_t>(r));
      id.named = true;
      id.role = "client";
      id.env_uri = uri;
    }
  }
  return id;
}

pmix_proc_t SelfAssigned() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  std::string nspace = "tool." + std::string(host) + "." + std::to_string(::getpid());
  if (nspace.size() > PMIX_MAX_NSLEN) nspace = "tool." + std::to_string(::getpid());
  pmix_proc_t me;
  PMIx_Load_procid(&me, nspace.c_str(), 0);
  return me;
}

Result<client::Connected> ConnectFirst(const Identity& id, const ConnectOptions& opts,
                                       std::span<const pmix_info_t> info) {
  wire::Infos directives = id.role == "tool" ? Forwardable(info) : wire::Infos();
  auto hello = client::MakeHello(id.role, id.me, directives.view());
  if (!hello.ok()) return hello.status();
  if (id.role == "client") return client::ConnectToServer(*hello, id.env_uri, kHelloTimeout);
  return Rendezvous(opts, *hello, nullptr);
}

Status StartOnProgress(const pmix_proc_t& me, std::optional<client::Connected>& connected,
                       bool launcher) {
  auto made = client::NewClientState(me, connected ? &connected->welcome : nullptr);
  if (!made.ok()) return made.status();
  auto tool = std::make_unique<Tool>();
  tool->launcher = launcher;
  InstallTool(std::move(tool));
  client::InstallClient(std::move(*made));
  if (!connected) return Status();
  Status linked = AddLink(std::move(*connected), true);
  if (!linked.ok()) {
    client::DestroyClient();
    InstallTool(nullptr);
  }
  return linked;
}

// The rendezvous URI of a tool that launched this one (§18.1.5).
void AttachToLauncher(const pmix_proc_t& me) {
  std::string uri = Env("PMIX_LAUNCHER_RNDZ_URI");
  if (uri.empty()) return;
  ConnectOptions opts;
  opts.uri = uri;
  auto hello = client::MakeHello("tool", me);
  auto conn = hello.ok() ? Rendezvous(opts, *hello, nullptr) : Result<client::Connected>(hello.status());
  Status st = conn.ok() ? AdoptConnection(std::move(*conn), false) : conn.status();
  if (!st.ok())
    output::Error("tool", "cannot attach to the launching tool at %s: %s", uri.c_str(),
                  PMIx_Error_string(st.code()));
}

// Whether PMIX_TOOL_CONNECT_OPTIONAL lets a tool go on unconnected after
// `failed`: not when the caller named the server and its address is wrong.
bool Forgiven(std::span<const pmix_info_t> info, const ConnectOptions& o, const Status& failed) {
  if (!InfoFlag(info, PMIX_TOOL_CONNECT_OPTIONAL)) return false;
  if (!o.uri) return true;
  return failed.code() != PMIX_ERR_BAD_PARAM && failed.code() != PMIX_ERR_NOT_SUPPORTED;
}

Status FirstInit(pmix_proc_t* proc, std::span<const pmix_info_t> info) {
  auto opts = ReadConnectOptions(info);
  if (!opts.ok()) return opts.status();
  auto id = ChooseIdentity(info, *opts);
  if (!id.ok()) return id.status();
  bool connect = !InfoFlag(info, PMIX_TOOL_DO_NOT_CONNECT);
  bool launcher = InfoFlag(info, PMIX_LAUNCHER);
  bool external = InfoFlag(info, PMIX_EXTERNAL_PROGRESS);
  PMIX_RETURN_IF_ERROR(runtime::AcquireEngine(external ? runtime::ProgressEngine::Mode::kExternal
                                                       : runtime::ProgressEngine::Mode::kThread));
  std::optional<client::Connected> connected;
  Status status;
  if (connect) {
    auto c = ConnectFirst(*id, *opts, info);
    if (c.ok()) connected.emplace(std::move(*c));
    else if (!Forgiven(info, *opts, c.status())) status = c.status();
  }
  pmix_proc_t me = id->me;
  if (connected && connected->welcome.assigned) me = *connected->welcome.assigned;
  if (me.nspace[0] == '\0') me = SelfAssigned();
  if (status.ok()) {
    auto rc = runtime::CallBlocking<pmix_status_t>(
        [&connected, me, launcher](std::function<void(pmix_status_t)> done) {
          done(StartOnProgress(me, connected, launcher).code());
        });
    status = rc.ok() ? *rc : rc.status();
  }
  if (status.ok() && launcher) {
    status = StartLauncherServer(me, info);
    if (!status.ok()) (void)runtime::CallBlocking<int>([](std::function<void(int)> done) {
      client::DestroyClient();
      InstallTool(nullptr);
      done(0);
    });
  }
  if (!status.ok()) {
    runtime::ReleaseEngine().ok();
    return status;
  }
  client::MarkInitialized(me);
  ++runtime::InitCount(runtime::Role::kTool);
  if (connect && id->role == "tool") AttachToLauncher(me);
  if (proc != nullptr) *proc = me;
  return Status();
}

Status Init(pmix_proc_t* proc, std::span<const pmix_info_t> info) {
  auto& count = runtime::InitCount(runtime::Role::kTool);
  if (count.load() == 0) {
    if (client::ClientInitialized()) return PMIX_ERR_INIT;  // already a client
    return FirstInit(proc, info);
  }
  ++count;
  if (!InfoFlag(info, PMIX_TOOL_DO_NOT_CONNECT) && !Connected()) {
    Status st = AttachOne(nullptr, nullptr, info);
    if (!st.ok()) {
      auto opts = ReadConnectOptions(info);
      if (!opts.ok() || !Forgiven(info, *opts, st)) {
        --count;
        return st;
      }
    }
  }
  if (proc != nullptr) *proc = client::MyProc();
  return Status();
}

// Tells every server goodbye (bounded), then drops all state.
void FinalizeOnProgress(std::function<void(int)> done) {
  SayGoodbye(AllServers(), [done] {
    client::DestroyClient();
    InstallTool(nullptr);
    done(0);
  });
}

Status Finalize() {
  auto& count = runtime::InitCount(runtime::Role::kTool);
  if (count.load() <= 0) return PMIX_ERR_INIT;
  runtime::ProgressEngine* engine = runtime::Engine();
  if (engine != nullptr && !engine->BlockingAllowed()) return PMIX_ERR_WOULD_BLOCK;
  if (--count > 0) return Status();
  bool launcher = false;
  (void)runtime::CallBlocking<int>([&launcher](std::function<void(int)> done) {
    launcher = CurrentTool() != nullptr && CurrentTool()->launcher;
    done(0);
  });
  if (launcher) StopLauncherServer();
  client::MarkFinalized();
  auto rc = runtime::CallBlocking<int>(FinalizeOnProgress);
  runtime::ReleaseEngine().ok();
  return rc.ok() ? Status() : rc.status();
}

}  // namespace

std::mutex& ToolMutex() { return g_mu; }

}  // namespace pmix::tool

namespace tool = pmix::tool;

extern "C" pmix_status_t PMIx_tool_init(pmix_proc_t* proc, pmix_info_t info[], size_t ninfo) {
  return pmix::ApiGuard("PMIx_tool_init", [&]() -> pmix::Status {
    if (info == nullptr && ninfo > 0) return PMIX_ERR_BAD_PARAM;
    std::lock_guard<std::mutex> lock(tool::ToolMutex());
    return tool::Init(proc, pmix::InfoSpan(info, ninfo));
  });
}

extern "C" pmix_status_t PMIx_tool_finalize(void) {
  return pmix::ApiGuard("PMIx_tool_finalize", [&]() -> pmix::Status {
    std::lock_guard<std::mutex> lock(tool::ToolMutex());
    return tool::Finalize();
  });
}
