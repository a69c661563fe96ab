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
#include "pmix_version.h"
#include "src/client/client_state.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/common/text.h"
#include "src/event/roles.h"
#include "src/jobinfo/jobinfo.h"
#include "src/runtime/context.h"
#include "src/runtime/state.h"

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

// What the server sent back on connecting.
struct Welcome {
  const pmix_bfrops_module_t* codec = nullptr;
  pmix_proc_t server{};
  std::string hostname;
  wire::Infos registration;
  int nlocalprocs = 0;
  std::string gds;
};

Result<Welcome> ParseWelcome(const ptl::Frame& reply) {
  auto fields = wire::DecodeFields(reply.payload);
  if (!fields.ok()) return fields.status();
  if (fields->empty()) return Status(PMIX_ERR_UNPACK_FAILURE);
  int status = std::atoi((*fields)[0].c_str());
  if (status != PMIX_SUCCESS) return Status(status);
  if (fields->size() < 3) return Status(PMIX_ERR_UNPACK_FAILURE);
  Welcome w;
  auto codec = bfrops::CodecByName((*fields)[1]);
  if (!codec.ok()) return codec.status();
  w.codec = *codec;
  const std::string& body = (*fields)[2];
  wire::Reader r(w.codec, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(body.data()),
                                                   body.size()));
  w.server = r.Proc();
  w.hostname = r.String();
  w.registration = r.InfoArray();
  w.nlocalprocs = r.I32();
  w.gds = r.String();
  if (!r.status().ok()) return r.status();
  return w;
}

struct Connected {
  ptl::Fd fd;
  ptl::FrameReader reader{ptl::kDefaultMaxMsgSize};
  Welcome welcome;
};

// Connects to the first URI that answers and says hello.
Result<Connected> ConnectToServer(const pmix_proc_t& me, const std::string& uris) {
  auto codec = bfrops::DefaultCodec();
  if (!codec.ok()) return codec.status();
  const pmix_psec_module_t* psec = psec::Choose(Env("PMIX_SECURITY_MODE"));
  if (psec == nullptr) return Status(PMIX_ERR_NOT_SUPPORTED);
  auto cred = psec::CreateCredential(*psec, {});
  if (!cred.ok()) return cred.status();
  wire::Hello hello;
  hello.version = PMIXX_VERSION;
  hello.role = "client";
  hello.codec = (*codec)->codec;
  hello.psec = psec->name;
  hello.credential.assign(cred->begin(), cred->end());
  hello.nspace = me.nspace;
  hello.rank = me.rank;
  hello.pid = static_cast<uint32_t>(::getpid());
  Status last = PMIX_ERR_UNREACH;
  for (const auto& uri : SplitCommas(uris)) {
    auto fd = ptl::Connect(uri, kConnectTimeout);
    if (!fd.ok()) {
      last = fd.status();
      continue;
    }
    auto max = ptl::MaxMsgSize();
    Connected c{std::move(*fd), ptl::FrameReader(max.ok() ? *max : ptl::kDefaultMaxMsgSize), {}};
    ptl::Frame frame{0, static_cast<uint16_t>(wire::Msg::kHello), 1, hello.Encode()};
    PMIX_RETURN_IF_ERROR(ptl::SendFrame(c.fd.get(), frame, kConnectTimeout));
    auto reply = ptl::RecvFrame(c.fd.get(), c.reader, kConnectTimeout);
    if (!reply.ok()) return reply.status();
    auto welcome = ParseWelcome(*reply);
    if (!welcome.ok()) return welcome.status();
    c.welcome = std::move(*welcome);
    return c;
  }
  return last;
}

// A process without a server: a job of one, on this node.
Result<wire::Infos> SingletonJob(const std::string& hostname) {
  wire::Infos job;
  uint32_t one = 1;
  PMIX_RETURN_IF_ERROR(job.Add(PMIX_JOB_SIZE, &one, PMIX_UINT32));
  PMIX_RETURN_IF_ERROR(job.Add(PMIX_UNIV_SIZE, &one, PMIX_UINT32));
  PMIX_RETURN_IF_ERROR(job.Add(PMIX_NODE_MAP, hostname.c_str(), PMIX_STRING));
  PMIX_RETURN_IF_ERROR(job.Add(PMIX_PROC_MAP, "0", PMIX_STRING));
  return job;
}

void OnServerLost(Status why);

Status StartOnProgress(std::optional<Connected>& connected, const pmix_proc_t& me) {
  auto c = std::make_unique<Client>();
  c->myproc = me;
  Welcome* w = connected ? &connected->welcome : nullptr;
  if (w != nullptr) {
    c->server = w->server;
    c->hostname = w->hostname;
  } else {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    c->hostname = host;
    c->singleton = true;
  }
  auto module = (w != nullptr) ? gds::ByName(w->gds) : gds::Default();
  if (!module.ok()) module = gds::Default();
  if (!module.ok()) return module.status();
  auto cache = gds::Store::Create(*module);
  if (!cache.ok()) return cache.status();
  c->cache = std::move(*cache);
  wire::Infos single;
  if (w == nullptr) {
    auto job = SingletonJob(c->hostname);
    if (!job.ok()) return job.status();
    single = std::move(*job);
  }
  auto registration = w != nullptr ? w->registration.view() : single.view();
  auto ingested = jobinfo::Ingest(c->cache, me.nspace, w != nullptr ? w->nlocalprocs : 1,
                                  registration, jobinfo::Context{c->hostname});
  if (!ingested.ok()) return ingested.status();
  if (w != nullptr) {
    c->conn = wire::Connection::Create(*runtime::Engine(), std::move(connected->fd),
                                       std::move(connected->reader), w->codec);
    PMIX_RETURN_IF_ERROR(c->conn->Start(
        [](ptl::Frame&& frame) {
          if (g_client != nullptr && frame.type == static_cast<uint16_t>(wire::Msg::kEvent))
            HandleEvent(*g_client, std::move(frame));
        },
        OnServerLost));
  }
  g_client = c.release();
  g_reader_client.store(g_client, std::memory_order_release);
  return Status();
}

void OnServerLost(Status) {
  if (g_client == nullptr || g_client->finalizing) return;
  output::Verbose("client", 1, "lost the connection to the server");
  EventsOnServerLost(*g_client);
}

void DestroyClient() {
  if (g_client == nullptr) return;
  g_reader_client.store(nullptr);
  g_client->finalizing = true;
  PutShutdown(*g_client);
  EventsShutdown(*g_client);
  if (g_client->conn != nullptr) g_client->conn->Close(PMIX_ERR_INIT);
  delete g_client;
  g_client = nullptr;
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
  if (conn == nullptr || conn->closed()) {
    wire::Reader none(codec(), {});
    on_reply(singleton ? PMIX_ERR_UNREACH : PMIX_ERR_LOST_CONNECTION, none);
    return;
  }
  const pmix_bfrops_module_t* c = conn->codec();
  Status sent = conn->Request(static_cast<uint16_t>(type), body,
                              [c, on_reply](Status status, ptl::Frame&& reply) {
                                wire::Reader r(c, reply.payload);
                                on_reply(status, r);
                              });
  if (!sent.ok()) {
    wire::Reader none(c, {});
    on_reply(sent, none);
  }
}

Status Client::Send(wire::Msg type, const wire::Bytes& body) {
  if (conn == nullptr || conn->closed()) return singleton ? PMIX_ERR_UNREACH : PMIX_ERR_LOST_CONNECTION;
  return conn->Send(static_cast<uint16_t>(type), 0, body);
}

// --- PMIx_Init ----------------------------------------------------------------

Status Init(pmix_proc_t* proc, std::span<const pmix_info_t> info) {
  auto& count = runtime::InitCount(runtime::Role::kClient);
  if (count.load() > 0) {
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
    auto c = ConnectToServer(me, uris);
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
  g_myproc = me;
  g_initialized.store(true);
  ++count;
  if (proc != nullptr) *proc = me;
  return Status();
}

}  // namespace pmix::client

using pmix::Status;
namespace client = pmix::client;
namespace runtime = pmix::runtime;

extern "C" pmix_status_t PMIx_Init(pmix_proc_t* proc, pmix_info_t info[], size_t ninfo) {
  return pmix::ApiGuard("PMIx_Init", [&]() -> Status {
    std::lock_guard<std::mutex> lock(client::g_init_mu);
    return client::Init(proc, pmix::InfoSpan(info, ninfo));
  });
}

extern "C" pmix_status_t PMIx_Finalize(const pmix_info_t info[], size_t ninfo) {
  (void)info;
  (void)ninfo;
  return pmix::ApiGuard("PMIx_Finalize", [&]() -> Status {
    std::lock_guard<std::mutex> lock(client::g_init_mu);
    auto& count = runtime::InitCount(runtime::Role::kClient);
    if (count.load() <= 0) return PMIX_ERR_INIT;
    runtime::ProgressEngine* engine = runtime::Engine();
    if (engine != nullptr && !engine->BlockingAllowed()) return PMIX_ERR_WOULD_BLOCK;
    if (--count > 0) return Status();
    client::g_initialized.store(false);
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
