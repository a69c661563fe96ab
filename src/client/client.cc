// The client's life cycle: PMIx_Init (connect, hello, welcome: the job's
// data into the cache), PMIx_Finalize, PMIx_Abort, PMIx_Progress, and the
// singleton mode of a process started without a server.
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "mca/bfrops/base/bfrops_base.h"
#include "mca/psec/base/psec_base.h"
#include "mca/ptl/base/frame_io.h"
#include "mca/ptl/base/ptl_base.h"
#include "pmix.h"
#include "pmix_tool.h"
#include "pmix_version.h"
#include "src/client/client_debug.h"
#include "src/client/client_doorbell.h"
#include "src/client/client_link.h"
#include "src/client/client_state.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/common/text.h"
#include "src/event/roles.h"
#include "src/iof/iof_client.h"
#include "src/jobinfo/jobinfo.h"
#include "src/runtime/context.h"
#include "src/runtime/state.h"
#include "src/wire/buffer.h"

namespace pmix::client {
namespace {

Client* g_client = nullptr;  // progress thread only
std::atomic<Client*> g_reader_client{nullptr};  // g_client, for caller-thread reads
std::atomic<bool> g_initialized{false};
pmix_proc_t g_myproc{};      // written before g_initialized turns true
std::mutex g_init_mu;        // serialises Init and Finalize

constexpr std::chrono::milliseconds kConnectTimeout{10000};
constexpr std::chrono::milliseconds kFinalizeTimeout{10000};

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? "" : v;
}

void OnServerLost(Status why);

Status StartOnProgress(std::optional<Connected>& connected, const pmix_proc_t& me) {
  Welcome* w = connected ? &connected->welcome : nullptr;
  auto made = NewClientState(me, w);
  if (!made.ok()) return made.status();
  std::unique_ptr<Client> c = std::move(*made);
  if (w != nullptr) {
    const pmix_bfrops_module_t* codec = w->codec;
    c->conn = wire::Connection::Create(*runtime::Engine(), std::move(connected->fd),
                                       std::move(connected->reader), codec);
    c->conn->TrustPeer();  // our server: large frames (fence results) are read without regrowth
    PMIX_RETURN_IF_ERROR(c->conn->Start(
        [codec](ptl::Frame&& frame) { OnServerMessage(codec, std::move(frame)); }, OnServerLost));
  }
  InstallClient(std::move(c));
  return Status();
}

void OnServerLost(Status) {
  DoorbellServerLost(PMIX_ERR_LOST_CONNECTION);
  if (g_client == nullptr || g_client->finalizing) return;
  output::Verbose("client", 1, "lost the connection to the server");
  EventsOnServerLost(*g_client);
}

// Tells the server we leave, then tears down (bounded: a silent server
// cannot hold the caller).
void FinalizeOnProgress(std::function<void(int)> done) {
  Client* c = g_client;
  if (c == nullptr || c->conn == nullptr || c->conn->closed()) {
    DestroyClient();
    return done(0);
  }
  auto finished = std::make_shared<bool>(false);
  auto finish = [finished, done] {
    if (*finished) return;
    *finished = true;
    DestroyClient();
    done(0);
  };
  std::shared_ptr<runtime::ProgressEngine::Timer> timer =
      runtime::Engine()->AddTimer(kFinalizeTimeout, finish);
  c->Request(wire::Msg::kFinalize, {}, [finish, timer](Status, wire::Reader&) mutable {
    finish();
  });
}

}  // namespace

void InstallClient(std::unique_ptr<Client> c) {
  if (c == nullptr) return DestroyClient();
  g_client = c.release();
  g_reader_client.store(g_client, std::memory_order_release);
}

void DestroyClient() {
  if (g_client == nullptr) return;
  g_reader_client.store(nullptr);
  g_client->finalizing = true;
  iof::ShutdownIof();
  PutShutdown(*g_client);
  EventsShutdown(*g_client);
  if (g_client->conn != nullptr) g_client->conn->Close(PMIX_ERR_INIT);
  DropDoorbell();
  delete g_client;
  g_client = nullptr;
}

void MarkInitialized(const pmix_proc_t& me) {
  g_myproc = me;
  g_initialized.store(true);
}

void MarkFinalized() { g_initialized.store(false); }

void OnServerMessage(const pmix_bfrops_module_t* codec, ptl::Frame&& frame) {
  if (g_client == nullptr) return;
  if (frame.type == static_cast<uint16_t>(wire::Msg::kEvent))
    HandleEvent(*g_client, codec, std::move(frame));
  else if (frame.type == static_cast<uint16_t>(wire::Msg::kIof))
    iof::OnIofFrame(codec, std::move(frame));
  else if (frame.type == static_cast<uint16_t>(wire::Msg::kJobUpdate))
    HandleJobUpdate(*g_client, codec, std::move(frame));
  else if (frame.type == static_cast<uint16_t>(wire::Msg::kFence))
    HandleFenceAnswer(*g_client, std::move(frame));
  else if (frame.type == static_cast<uint16_t>(wire::Msg::kChunks))
    HandleChunks(*g_client, std::move(frame));
}

Client* CurrentClient() { return g_client; }
Client* ClientForReaders() { return g_reader_client.load(std::memory_order_acquire); }
bool ClientInitialized() { return g_initialized.load(); }
const pmix_proc_t& MyProc() { return g_myproc; }

void PostToClient(std::function<void(Client&)> fn, std::function<void(Status)> gone) {
  runtime::ProgressEngine* engine = runtime::Engine();
  if (engine == nullptr) {
    if (gone) gone(PMIX_ERR_INIT);
    return;
  }
  Status posted = engine->Post([fn = std::move(fn), gone] {
    if (g_client != nullptr) {
      fn(*g_client);
    } else if (gone) {
      gone(PMIX_ERR_INIT);
    }
  });
  if (!posted.ok() && gone) gone(posted);
}

const pmix_bfrops_module_t* Client::codec() const {
  return conn != nullptr ? conn->codec() : nullptr;
}

void Client::Request(wire::Msg type, const wire::Bytes& body,
                     std::function<void(Status, wire::Reader&)> on_reply) {
  const pmix_bfrops_module_t* c = codec();
  RequestFrame(type, body, [c, on_reply](Status status, ptl::Frame&& reply) {
    wire::Reader r(c, reply.payload);
    on_reply(status, r);
  });
}

void Client::RequestFrame(wire::Msg type, const wire::Bytes& body,
                          std::function<void(Status, ptl::Frame&&)> on_reply) {
  if (conn == nullptr || conn->closed()) {
    on_reply(singleton ? PMIX_ERR_UNREACH : PMIX_ERR_LOST_CONNECTION, ptl::Frame{});
    return;
  }
  Status sent = conn->Request(static_cast<uint16_t>(type), body, on_reply);
  if (!sent.ok()) on_reply(sent, ptl::Frame{});
}

Status Client::Send(wire::Msg type, const wire::Bytes& body) {
  if (conn == nullptr || conn->closed()) return singleton ? PMIX_ERR_UNREACH : PMIX_ERR_LOST_CONNECTION;
  return conn->Send(static_cast<uint16_t>(type), 0, body);
}

Status Client::SendBody(wire::Msg type, wire::Body body) {
  if (conn == nullptr || conn->closed()) return singleton ? PMIX_ERR_UNREACH : PMIX_ERR_LOST_CONNECTION;
  return conn->SendBody(static_cast<uint16_t>(type), 0, std::move(body));
}

// --- PMIx_Init ----------------------------------------------------------------

Status Init(pmix_proc_t* proc, std::span<const pmix_info_t> info) {
  auto& count = runtime::InitCount(runtime::Role::kClient);
  // A tool is a client too: PMIx_Init inside it counts as one more init.
  bool tool = runtime::InitCount(runtime::Role::kTool).load() > 0 && g_initialized.load();
  if (count.load() > 0 || tool) {
    ++count;
    if (proc != nullptr) *proc = g_myproc;
    return Status();
  }
  pmix_proc_t me;
  std::string nspace = Env("PMIX_NAMESPACE"), uris = Env("PMIX_SERVER_URI");
  std::optional<Connected> connected;
  if (!nspace.empty() && uris.empty()) {
    // Launched by a server that is not ours (OpenPMIx sets PMIX_SERVER_URI2
    // .. URI41 instead): its wire protocol differs, so fail rather than run
    // as a singleton that believes it is alone.
    output::Error("client", "PMIx_Init: PMIX_NAMESPACE is set but PMIX_SERVER_URI is not: the "
                  "launching server (PMIX_VERSION=%s) is not pmixx; cannot connect",
                  Env("PMIX_VERSION").c_str());
    return PMIX_ERR_UNREACH;
  }
  if (nspace.empty() || uris.empty()) {
    nspace = "singleton." + std::to_string(::getpid());
    PMIx_Load_procid(&me, nspace.c_str(), 0);
  } else {
    char* end = nullptr;
    std::string rank = Env("PMIX_RANK");
    unsigned long r = std::strtoul(rank.c_str(), &end, 10);
    if (rank.empty() || *end != '\0' || r >= PMIX_RANK_VALID || nspace.size() > PMIX_MAX_NSLEN)
      return PMIX_ERR_BAD_PARAM;
    PMIx_Load_procid(&me, nspace.c_str(), static_cast<pmix_rank_t>(r));
  }
  bool external = InfoFlag(info, PMIX_EXTERNAL_PROGRESS);
  PMIX_RETURN_IF_ERROR(runtime::AcquireEngine(external ? runtime::ProgressEngine::Mode::kExternal
                                                       : runtime::ProgressEngine::Mode::kThread));
  Status status;
  if (!uris.empty() && Env("PMIX_NAMESPACE") != "") {
    auto hello = MakeHello("client", me);
    auto c = hello.ok() ? ConnectToServer(*hello, uris, kConnectTimeout) : Result<Connected>(hello.status());
    if (c.ok()) connected.emplace(std::move(*c));
    else status = c.status();
  }
  if (status.ok()) {
    auto rc = runtime::CallBlocking<pmix_status_t>([&connected, me](std::function<void(pmix_status_t)> done) {
      done(StartOnProgress(connected, me).code());
    });
    status = rc.ok() ? *rc : rc.status();
  }
  if (!status.ok()) {
    runtime::ReleaseEngine().ok();
    return status;
  }
  MarkInitialized(me);
  ++count;
  if (proc != nullptr) *proc = me;
  return Status();
}

// The programming model a PMIx_Init declares (PMIX_PROGRAMMING_MODEL,
// PMIX_MODEL_LIBRARY_NAME / _VERSION, PMIX_THREADING_MODEL): kept as the
// caller's own data (a PMIx_Get of them answers) and announced with
// PMIX_MODEL_DECLARED to the process's own handlers (range
// PMIX_RANGE_PROC_LOCAL), as OpenPMIx does, marked PMIX_EVENT_NON_DEFAULT:
// a default handler never sees it (Open MPI 4.1's default handler aborts
// the process on any event it is given). Every PMIx_Init that carries them
// declares them (Open MPI initializes twice).
void DeclareModel(const pmix_proc_t& me, std::span<const pmix_info_t> info) {
  static const char* const kModelKeys[] = {PMIX_PROGRAMMING_MODEL, PMIX_MODEL_LIBRARY_NAME,
                                           PMIX_MODEL_LIBRARY_VERSION, PMIX_THREADING_MODEL};
  wire::Infos declared;
  for (const pmix_info_t& i : info) {
    for (const char* key : kModelKeys) {
      if (!PMIX_CHECK_KEY(&i, key)) continue;
      Status stored = PMIx_Store_internal(&me, key, const_cast<pmix_value_t*>(&i.value));
      if (stored.ok()) stored = declared.Append(i);
      if (!stored.ok())
        output::Error("client", "PMIx_Init: %s not kept (%s)", key, PMIx_Error_string(stored.code()));
    }
  }
  if (declared.size() == 0) return;
  pmix_info_t non_default;
  bool yes = true;
  PMIx_Info_load(&non_default, PMIX_EVENT_NON_DEFAULT, &yes, PMIX_BOOL);
  Status marked = declared.Append(non_default);
  PMIx_Info_destruct(&non_default);
  if (!marked.ok()) return;  // out of memory: better no event than one a default handler takes
  pmix_status_t rc = PMIx_Notify_event(PMIX_MODEL_DECLARED, &me, PMIX_RANGE_PROC_LOCAL,
                                       declared.data(), declared.size(), nullptr, nullptr);
  if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED)
    output::Verbose("client", 1, "PMIX_MODEL_DECLARED not raised: %s", PMIx_Error_string(rc));
}

}  // namespace pmix::client

using pmix::Status;
namespace client = pmix::client;
namespace runtime = pmix::runtime;

extern "C" pmix_status_t PMIx_Init(pmix_proc_t* proc, pmix_info_t info[], size_t ninfo) {
  bool first = false;  // this call started the client (not a nested init)
  pmix_proc_t me{};
  pmix_status_t rc = pmix::ApiGuard("PMIx_Init", [&]() -> Status {
    std::lock_guard<std::mutex> lock(client::g_init_mu);
    first = runtime::InitCount(runtime::Role::kClient).load() == 0 &&
            runtime::InitCount(runtime::Role::kTool).load() == 0;
    if (info == nullptr && ninfo > 0) return PMIX_ERR_BAD_PARAM;
    PMIX_RETURN_IF_ERROR(client::Init(&me, pmix::InfoSpan(info, ninfo)));
    client::DeclareModel(me, pmix::InfoSpan(info, ninfo));
    return Status();
  });
  if (rc != PMIX_SUCCESS) return rc;
  if (proc != nullptr) *proc = me;
  if (!first) return rc;
  // A debugger may have asked the job to wait here (client_debug.h).
  return pmix::ApiGuard("PMIx_Init", [&]() -> Status { return client::StopInInit(me); });
}

// PMIX_EMBED_BARRIER: the last PMIx_Finalize first fences with the whole
// namespace (standard §4.1.2); the finalize goes on whatever the fence says.
extern "C" pmix_status_t PMIx_Finalize(const pmix_info_t info[], size_t ninfo) {
  return pmix::ApiGuard("PMIx_Finalize", [&]() -> Status {
    std::lock_guard<std::mutex> lock(client::g_init_mu);
    auto& count = runtime::InitCount(runtime::Role::kClient);
    if (count.load() <= 0) {
      // A tool finalizing with the client call (as OpenPMIx allows).
      if (runtime::InitCount(runtime::Role::kTool).load() > 0) return PMIx_tool_finalize();
      return PMIX_ERR_INIT;
    }
    if (info == nullptr && ninfo > 0) return PMIX_ERR_BAD_PARAM;
    runtime::ProgressEngine* engine = runtime::Engine();
    if (engine != nullptr && !engine->BlockingAllowed()) return PMIX_ERR_WOULD_BLOCK;
    if (count.load() == 1 && pmix::InfoFlag(pmix::InfoSpan(info, ninfo), PMIX_EMBED_BARRIER)) {
      pmix_status_t rc = PMIx_Fence(nullptr, 0, nullptr, 0);
      if (rc != PMIX_SUCCESS)
        pmix::output::Verbose("client", 1, "PMIx_Finalize: embedded barrier: %s", PMIx_Error_string(rc));
    }
    if (--count > 0) return Status();
    if (runtime::InitCount(runtime::Role::kTool).load() > 0) return Status();  // the tool's to end
    client::MarkFinalized();
    auto rc = runtime::CallBlocking<int>(client::FinalizeOnProgress);
    runtime::ReleaseEngine().ok();
    return rc.ok() ? Status() : rc.status();
  });
}

extern "C" pmix_status_t PMIx_Abort(int status, const char msg[], pmix_proc_t procs[], size_t nprocs) {
  return pmix::ApiGuard("PMIx_Abort", [&]() -> Status {
    if (!client::ClientInitialized()) return PMIX_ERR_INIT;
    if (procs == nullptr && nprocs > 0) return PMIX_ERR_BAD_PARAM;
    std::string text = msg == nullptr ? "" : msg;
    std::vector<pmix_proc_t> targets(procs, procs + nprocs);
    auto rc = runtime::CallBlocking<pmix_status_t>([=](std::function<void(pmix_status_t)> done) {
      client::PostToClient(
          [=](client::Client& c) {
            if (c.codec() == nullptr) return done(PMIX_ERR_UNREACH);
            pmix::wire::Writer w(c.codec());
            w.I32(status).Str(text).Procs(targets);
            auto body = w.Take();
            if (!body.ok()) return done(body.status().code());
            c.Request(pmix::wire::Msg::kAbort, *body, [done](Status st, pmix::wire::Reader& r) {
              done(st.ok() ? r.Status() : st.code());
            });
          },
          [done](Status gone) { done(gone.code()); });
    });
    return rc.ok() ? *rc : rc.status();
  });
}

extern "C" void PMIx_Progress(void) {
  pmix::ApiGuardVoid("PMIx_Progress", [] {
    runtime::ProgressEngine* engine = runtime::Engine();
    if (engine != nullptr) engine->RunOnce();
  });
}
