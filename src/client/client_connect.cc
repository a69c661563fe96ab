// PMIx_Connect / PMIx_Disconnect and their _nb forms (standard §12.3): the
// client side.
//
// The call is validated and copied on the caller's thread, then sent from
// the progress thread as a kConnect / kDisconnect request (procs in the
// canonical form of server_fence.h, directives); the server gathers the
// local participants and asks its host (src/server/server_connect.h). A
// successful connect's reply carries the job info of the participating
// namespaces the server has registered: it enters the cache before the
// caller learns of success, so that job-level gets about the other
// namespaces (PMIX_OPTIONAL ones too) are answered locally; data posted by
// their processes is fetched on demand by PMIx_Get, as for any peer.
//
// Decisions:
// - procs is required: NULL or nprocs 0 is PMIX_ERR_BAD_PARAM, and so is
//   an empty or unterminated nspace, a rank that is neither valid nor
//   PMIX_RANK_WILDCARD, or a NULL info array with a count.
// - Each process remembers the sets it connected (canonical form, so the
//   order of the array does not matter); a disconnect of a set it did not
//   connect fails at once with PMIX_ERR_INVALID_OPERATION (§12.3.3).
// - PMIX_TIMEOUT (seconds): the server fails the operation with
//   PMIX_ERR_TIMEOUT; the client guards the same bound plus kGuardSlack in
//   case that answer cannot come. A lost server fails the request
//   (PMIX_ERR_LOST_CONNECTION); a singleton has no server to ask
//   (PMIX_ERR_UNREACH).
// - In a process that is itself a server, the request goes to its host's
//   connect/disconnect upcall (server::ConnectAsServer).
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "pmix.h"
#include "src/client/client_state.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/runtime/context.h"
#include "src/server/server_connect.h"
#include "src/server/server_fence.h"
#include "src/server/server_internal.h"

namespace pmix::client {
namespace {

using server::ConnectKind;

constexpr std::chrono::seconds kGuardSlack{2};

// A validated request, owning copies of the caller's arrays.
struct ConnectRequest {
  ConnectKind kind = ConnectKind::kConnect;
  std::vector<pmix_proc_t> procs;  // canonical
  std::string key;                 // identifies the set (server_fence.h)
  wire::Infos infos;
  int64_t timeout_sec = 0;  // PMIX_TIMEOUT; <= 0: none
};
using RequestPtr = std::shared_ptr<const ConnectRequest>;

Result<RequestPtr> BuildRequest(ConnectKind kind, const pmix_proc_t procs[], size_t nprocs,
                                const pmix_info_t info[], size_t ninfo) {
  if (!ClientInitialized() && !server::ServerInitialized()) return Status(PMIX_ERR_INIT);
  if (procs == nullptr || nprocs == 0 || (info == nullptr && ninfo > 0))
    return Status(PMIX_ERR_BAD_PARAM);
  auto canonical = server::fence::Canonicalize(std::span<const pmix_proc_t>(procs, nprocs));
  if (!canonical.ok()) return canonical.status();
  auto infos = wire::Infos::CopyOf(InfoSpan(info, ninfo));
  if (!infos.ok()) return infos.status();
  auto req = std::make_shared<ConnectRequest>();
  req->kind = kind;
  req->key = server::fence::CollectiveKey(*canonical);
  req->procs = std::move(*canonical);
  req->infos = std::move(*infos);
  req->timeout_sec = InfoInt(req->infos.view(), PMIX_TIMEOUT).value_or(0);
  return RequestPtr(std::move(req));
}

// One request in flight: finished once, by the reply, the loss of the
// server or the guard timer, whichever comes first.
struct ConnectOp {
  std::function<void(pmix_status_t)> done;
  std::unique_ptr<runtime::ProgressEngine::Timer> guard;
  bool finished = false;

  void Finish(pmix_status_t status) {
    if (finished) return;
    finished = true;
    guard.reset();
    done(status);
  }
};

// The server's answer: the job info it sent enters the cache (namespaces
// the client knows already are skipped), and the set is remembered.
pmix_status_t Absorb(Client& c, const ConnectRequest& req, wire::Reader& r,
                     std::vector<ptl::Fd>& fds) {
  std::vector<server::JobInfoRecord> records;
  pmix_status_t status = server::UnpackConnectReply(r, fds, &records);
  if (status != PMIX_SUCCESS) return status;
  if (req.kind == ConnectKind::kDisconnect) {
    c.connected_sets.erase(req.key);
    return PMIX_SUCCESS;
  }
  IngestJobRecords(c, records);
  c.connected_sets.insert(req.key);
  return PMIX_SUCCESS;
}

void AskServer(Client& c, const RequestPtr& req, std::function<void(pmix_status_t)> done) {
  if (req->kind == ConnectKind::kDisconnect && c.connected_sets.count(req->key) == 0)
    return done(PMIX_ERR_INVALID_OPERATION);
  if (c.codec() == nullptr) return done(PMIX_ERR_UNREACH);
  wire::Writer w(c.codec());
  w.Procs(req->procs).InfoArray(req->infos.view());
  auto body = w.Take();
  if (!body.ok()) return done(body.status().code());
  auto op = std::make_shared<ConnectOp>();
  op->done = std::move(done);
  runtime::ProgressEngine* engine = runtime::Engine();
  if (req->timeout_sec > 0 && engine != nullptr) {
    std::weak_ptr<ConnectOp> weak = op;
    op->guard = engine->AddTimer(std::chrono::seconds(req->timeout_sec) + kGuardSlack, [weak] {
      if (auto o = weak.lock()) o->Finish(PMIX_ERR_TIMEOUT);
    });
  }
  wire::Msg msg = req->kind == ConnectKind::kConnect ? wire::Msg::kConnect : wire::Msg::kDisconnect;
  c.RequestFrame(msg, *body, [op, req](Status status, ptl::Frame&& reply) {
    if (op->finished) return;
    Client* current = CurrentClient();
    if (!status.ok() || current == nullptr)
      return op->Finish(status.ok() ? PMIX_ERR_INIT : status.code());
    wire::Reader r(current->codec(), reply.payload);
    pmix_status_t rc = Absorb(*current, *req, r, reply.fds);
    reply.fds.clear();  // closed before the caller wakes
    op->Finish(rc);
  });
}

// Progress thread: the whole operation; `done` gets its outcome once.
void Run(const RequestPtr& req, std::function<void(pmix_status_t)> done) {
  if (server::Server* s = server::CurrentServer(); s != nullptr)
    return server::ConnectAsServer(*s, req->kind, req->procs, req->infos.view(), std::move(done));
  if (Client* c = CurrentClient(); c != nullptr) return AskServer(*c, req, std::move(done));
  done(PMIX_ERR_INIT);
}

pmix_status_t Blocking(ConnectKind kind, const pmix_proc_t procs[], size_t nprocs,
                       const pmix_info_t info[], size_t ninfo) {
  auto req = BuildRequest(kind, procs, nprocs, info, ninfo);
  if (!req.ok()) return req.status().code();
  auto rc = runtime::CallBlocking<pmix_status_t>(
      [r = *req](std::function<void(pmix_status_t)> done) { Run(r, std::move(done)); });
  return rc.ok() ? *rc : rc.status().code();
}

pmix_status_t NonBlocking(ConnectKind kind, const pmix_proc_t procs[], size_t nprocs,
                          const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc,
                          void* cbdata) {
  auto req = BuildRequest(kind, procs, nprocs, info, ninfo);
  if (!req.ok()) return req.status().code();
  runtime::ProgressEngine* engine = runtime::Engine();
  if (engine == nullptr) return PMIX_ERR_INIT;
  return engine
      ->Post([r = *req, cbfunc, cbdata] {
        Run(r, [cbfunc, cbdata](pmix_status_t status) {
          if (cbfunc != nullptr) cbfunc(status, cbdata);
        });
      })
      .code();
}

}  // namespace

void IngestJobRecords(Client& c, std::span<const server::JobInfoRecord> records) {
  std::unique_lock<runtime::ReadMostly> lock(c.cache_mu);
  for (const auto& rec : records) {
    if (rec.nspace == c.myproc.nspace || c.fetched_jobs.count(rec.nspace) != 0) continue;
    AttachForeignJob(c, rec.nspace, rec.image);
  }
}

}  // namespace pmix::client

namespace client = pmix::client;
using pmix::server::ConnectKind;

extern "C" pmix_status_t PMIx_Connect(const pmix_proc_t procs[], size_t nprocs,
                                      const pmix_info_t info[], size_t ninfo) {
  return pmix::ApiGuard("PMIx_Connect", [&] {
    return client::Blocking(ConnectKind::kConnect, procs, nprocs, info, ninfo);
  });
}

extern "C" pmix_status_t PMIx_Connect_nb(const pmix_proc_t procs[], size_t nprocs,
                                         const pmix_info_t info[], size_t ninfo,
                                         pmix_op_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_Connect_nb", [&] {
    return client::NonBlocking(ConnectKind::kConnect, procs, nprocs, info, ninfo, cbfunc, cbdata);
  });
}

extern "C" pmix_status_t PMIx_Disconnect(const pmix_proc_t procs[], size_t nprocs,
                                         const pmix_info_t info[], size_t ninfo) {
  return pmix::ApiGuard("PMIx_Disconnect", [&] {
    return client::Blocking(ConnectKind::kDisconnect, procs, nprocs, info, ninfo);
  });
}

extern "C" pmix_status_t PMIx_Disconnect_nb(const pmix_proc_t procs[], size_t nprocs,
                                            const pmix_info_t info[], size_t ninfo,
                                            pmix_op_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_Disconnect_nb", [&] {
    return client::NonBlocking(ConnectKind::kDisconnect, procs, nprocs, info, ninfo, cbfunc,
                               cbdata);
  });
}
