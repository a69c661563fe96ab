// PMIx_Fence / PMIx_Fence_nb (standard ch. 8): the client side.
//
// The call is validated and copied on the caller's thread, then sent to the
// server as a kFence request (procs, directives) from the progress thread.
// The reply is a status and, when data was collected, the participants'
// records (inline and in sealed regions shared by descriptor:
// wire/proc_data_region.h), kept (client_modex.h) before the caller learns
// of success, so that a following PMIx_Get of a peer's key is answered
// locally: decoded, on the caller's thread, at the first Get about that
// peer (the server already filtered each record for this client's view).
//
// A blocking fence called with a progress thread running is released
// through the client's doorbell (client_doorbell.h): the request carries a
// ticket, and the caller waits on its slot, which the server rings with
// the status -- and, for collected records that all lie in modex chunks
// this client keeps, mail naming them, which the caller reads itself --
// or this client's progress thread fills when the answer came as a frame
// tagged with the ticket (records inline or in chunks new to this client,
// which it then keeps). The caller writes that request on the socket
// itself when nothing it posted before is still to be done; a barrier or
// a collect fence by mail then takes no part of the progress thread.
//
// PMIX_TIMEOUT (seconds): the server fails the fence with PMIX_ERR_TIMEOUT;
// the client guards the same bound plus kGuardSlack, in case the server's
// answer cannot come. A lost server fails the request
// (PMIX_ERR_LOST_CONNECTION from the connection); a singleton (no server)
// is the only participant of its fences, which thus succeed at once.
#include <chrono>
#include <cstring>
#include <memory>
#include <vector>

#include "pmix.h"
#include "src/client/client_doorbell.h"
#include "src/client/client_state.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/runtime/context.h"
#include "src/wire/proc_data.h"
#include "src/wire/proc_data_region.h"

namespace pmix::client {
namespace {

constexpr std::chrono::seconds kGuardSlack{2};

// A validated fence, owning copies of the caller's arrays.
struct FenceRequest {
  std::vector<pmix_proc_t> procs;
  wire::Infos infos;
  int64_t timeout_sec = 0;  // PMIX_TIMEOUT; <= 0: none
};

bool ValidProc(const pmix_proc_t& p) {
  size_t len = ::strnlen(p.nspace, PMIX_MAX_NSLEN + 1);
  bool rank_ok = p.rank < PMIX_RANK_VALID || p.rank == PMIX_RANK_WILDCARD;
  return len > 0 && len <= PMIX_MAX_NSLEN && rank_ok;
}

// NULL procs (or none): every process of the caller's namespace.
Result<FenceRequest> BuildRequest(const pmix_proc_t procs[], size_t nprocs,
                                  const pmix_info_t info[], size_t ninfo) {
  if ((procs == nullptr && nprocs > 0) || (info == nullptr && ninfo > 0))
    return Status(PMIX_ERR_BAD_PARAM);
  FenceRequest req;
  pmix_proc_t p{};
  if (nprocs == 0) {
    PMIx_Load_procid(&p, MyProc().nspace, PMIX_RANK_WILDCARD);
    req.procs.push_back(p);
  }
  for (size_t i = 0; i < nprocs; ++i) {
    if (!ValidProc(procs[i])) return Status(PMIX_ERR_BAD_PARAM);
    PMIx_Load_procid(&p, procs[i].nspace, procs[i].rank);
    req.procs.push_back(p);
  }
  auto infos = wire::Infos::CopyOf(InfoSpan(info, ninfo));
  if (!infos.ok()) return infos.status();
  req.infos = std::move(*infos);
  req.timeout_sec = InfoInt(req.infos.view(), PMIX_TIMEOUT).value_or(0);
  return req;
}

// One fence in flight: finished once, by the reply, the loss of the
// server or the guard timer, whichever comes first.
struct FenceOp {
  std::function<void(Status)> done;
  std::unique_ptr<runtime::ProgressEngine::Timer> guard;
  bool finished = false;

  void Finish(Status status) {
    if (finished) return;
    finished = true;
    guard.reset();
    done(status);
  }
};

// The server's answer: its status, then on success the collected records,
// which are kept as received (client_modex.h: decoded on the first Get
// about each peer; our own record is skipped, our data is in the cache).
// The inline records are checked here (and job records among them go to
// the cache); the shared regions' records, local processes' only, are not
// even looked at until a Get needs them: the fence costs this client the
// same whatever the number of participants. `keep`: the answer came for
// a ticket, whose regions the server counts on this client keeping
// (RegionCache::Keep) for later mail. Takes the payload; the descriptors
// are left to the caller to close before it releases the waiting one.
Status Absorb(ptl::Frame& reply, bool keep) {
  Client* c = CurrentClient();
  if (c == nullptr) return PMIX_ERR_INIT;
  wire::Reader r(c->codec(), reply.payload);
  pmix_status_t status = r.Status();
  if (!r.status().ok()) return r.status();
  if (status != PMIX_SUCCESS) return status;
  if (r.AtEnd()) return Status();
  // Inline and in sealed regions the server shared (proc_data_region.h).
  auto payload = std::make_shared<const wire::Bytes>(std::move(reply.payload));
  size_t inline_parts = 0;
  auto parts = wire::UnpackRecords(r, payload, reply.fds, &c->shared_regions, &inline_parts, keep);
  if (!parts.ok()) {
    output::Error("client", "the fence's data from the server is not usable: %s",
                  PMIx_Error_string(parts.status().code()));
    return parts.status();
  }
  std::span<const wire::SharedBytes> all(*parts);
  std::vector<wire::ProcData> jobs;
  PMIX_RETURN_IF_ERROR(c->peers.Add(c->codec(), all.first(inline_parts), c->myproc, &jobs));
  c->peers.Defer(c->codec(), all.subspan(inline_parts), c->myproc);
  return StoreJobRecords(*c, jobs);
}

// A successful answer that came as mail (wire/doorbell.h): the kept
// regions to forget, then records in kept regions only (local processes'
// records: nothing for the cache), those the server had not sent this
// client yet (none: the mail ends after the regions to forget). On the
// caller's thread: the region cache and the peers' data lock themselves.
Status AbsorbMail(wire::Bytes&& mail) {
  Client* c = ClientForReaders();
  if (c == nullptr) return PMIX_ERR_INIT;
  auto payload = std::make_shared<const wire::Bytes>(std::move(mail));
  wire::Reader r(c->codec(), *payload);
  uint32_t forget = r.U32();
  for (uint32_t i = 0; i < forget && r.status().ok(); ++i) {
    uint64_t serial = r.U64();
    if (r.status().ok()) c->shared_regions.Forget(serial);
  }
  if (!r.status().ok()) return r.status();
  if (r.AtEnd()) return Status();  // no record this client was not sent before
  std::vector<ptl::Fd> none;
  size_t inline_parts = 0;
  auto parts = wire::UnpackRecords(r, payload, none, &c->shared_regions, &inline_parts);
  if (parts.ok() && inline_parts != 0) parts = Status(PMIX_ERR_BAD_PARAM);
  if (!parts.ok()) {
    output::Error("client", "the fence's data from the server is not usable: %s",
                  PMIx_Error_string(parts.status().code()));
    return parts.status();
  }
  c->peers.Defer(c->codec(), *parts, c->myproc);
  return Status();
}

// A request released through the doorbell.
Result<wire::Bytes> TicketedBody(const pmix_bfrops_module_t* codec, const FenceRequest& req,
                                 const wire::doorbell::Ticket& t) {
  wire::Writer w(codec);
  w.Procs(req.procs).InfoArray(req.infos.view()).U32(t.slot).U32(t.seq);
  if (t.word != wire::doorbell::kNoWord) w.U32(t.word);
  return w.Take();
}

// PMIx_Fence through the doorbell; nullopt when it does not apply (no
// progress thread, no doorbell, no free slot).
std::optional<Status> FenceByDoorbell(const std::shared_ptr<const FenceRequest>& req) {
  runtime::ProgressEngine* engine = runtime::Engine();
  if (engine == nullptr || !engine->BlockingAllowed() || !engine->HasThread()) return std::nullopt;
  std::shared_ptr<Doorbell> bell = CurrentDoorbell();
  if (bell == nullptr) return std::nullopt;
  std::optional<wire::doorbell::Ticket> ticket = bell->Acquire();
  if (!ticket) return std::nullopt;
  // Every participant names the same word: released with one wakeup.
  if (bell->has_release()) ticket->word = wire::doorbell::ReleaseWordOf(req->procs);
  std::optional<std::chrono::steady_clock::time_point> deadline;
  if (req->timeout_sec > 0)
    deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(req->timeout_sec) + kGuardSlack;
  const wire::doorbell::Ticket t = *ticket;
  auto body = TicketedBody(bell->codec(), *req, t);
  if (!body.ok()) {
    bell->Deliver(t.seq, body.status().code());
  } else if (!engine->Quiet() || !bell->SendNow(wire::Msg::kFence, *body)) {
    // Sent from the progress thread, after what this caller posted before
    // (a commit must reach the server before the fence does).
    auto shared = std::make_shared<const wire::Bytes>(std::move(*body));
    PostToClient(
        [shared, bell, t](Client& c) {
          Status sent = c.Send(wire::Msg::kFence, *shared);
          if (!sent.ok()) bell->Deliver(t.seq, sent.code());
        },
        [bell, t](Status gone) { bell->Deliver(t.seq, gone.code()); });
  }
  wire::Bytes mail;
  Status status = bell->Await(t, deadline, &mail);
  if (!status.ok() || mail.empty()) return status;
  return AbsorbMail(std::move(mail));
}

// Progress thread: sends the request; `done` gets the outcome.
void Run(Client& c, const FenceRequest& req, std::function<void(Status)> done) {
  if (c.singleton) return done(Status());
  wire::Writer w(c.codec());
  w.Procs(req.procs).InfoArray(req.infos.view());
  auto body = w.Take();
  if (!body.ok()) return done(body.status());
  auto op = std::make_shared<FenceOp>();
  op->done = std::move(done);
  if (req.timeout_sec > 0) {
    runtime::ProgressEngine* engine = runtime::Engine();
    std::weak_ptr<FenceOp> weak = op;
    if (engine != nullptr)
      op->guard = engine->AddTimer(std::chrono::seconds(req.timeout_sec) + kGuardSlack, [weak] {
        if (auto o = weak.lock()) o->Finish(PMIX_ERR_TIMEOUT);
      });
  }
  c.RequestFrame(wire::Msg::kFence, *body, [op](Status status, ptl::Frame&& reply) {
    if (op->finished) return;
    Status absorbed = status.ok() ? Absorb(reply, false) : status;
    reply.fds.clear();  // closed before the caller wakes (it may count its own)
    op->Finish(absorbed);
  });
}

}  // namespace

void HandleChunks(Client& c, ptl::Frame&& frame) {
  wire::Reader r(c.codec(), frame.payload);
  uint32_t n = r.U32();
  std::vector<uint64_t> kept;
  Status bad;
  if (r.status().ok() && n != frame.fds.size()) bad = PMIX_ERR_BAD_PARAM;
  for (uint32_t i = 0; i < n && r.status().ok() && bad.ok(); ++i) {
    std::string medium = r.String();
    uint64_t serial = r.U64();
    uint64_t size = r.U64();
    if (!r.status().ok()) break;
    auto module = gds::ByName(medium);
    if (!module.ok() || serial == 0) {
      bad = PMIX_ERR_BAD_PARAM;
      break;
    }
    auto region = c.shared_regions.Attach(*module, std::move(frame.fds[i]), static_cast<size_t>(size));
    if (!region.ok()) {
      bad = region.status();
      break;
    }
    // A chunk forgotten before is not kept again: not confirmed either.
    if (c.shared_regions.Keep(serial, *region)) kept.push_back(serial);
  }
  if (!r.status().ok() || !bad.ok())
    output::Error("client", "chunks offered by the server are not usable: %s",
                  PMIx_Error_string(!bad.ok() ? bad.code() : r.status().code()));
  if (kept.empty()) return;
  wire::Writer w(c.codec());
  w.U32(static_cast<uint32_t>(kept.size()));
  for (uint64_t serial : kept) w.U64(serial);
  auto body = w.Take();
  if (body.ok()) c.Send(wire::Msg::kChunksKept, *body).ok();
}

void HandleFenceAnswer(Client&, ptl::Frame&& frame) {
  uint32_t seq = frame.tag;
  Status status = Absorb(frame, true);
  frame.fds.clear();  // closed before the waiter is released
  if (auto bell = DoorbellIfAny()) bell->Deliver(seq, status.code());
}

}  // namespace pmix::client

using pmix::Status;
namespace client = pmix::client;

extern "C" pmix_status_t PMIx_Fence(const pmix_proc_t procs[], size_t nprocs,
                                    const pmix_info_t info[], size_t ninfo) {
  return pmix::ApiGuard("PMIx_Fence", [&]() -> Status {
    if (!client::ClientInitialized()) return PMIX_ERR_INIT;
    auto req = client::BuildRequest(procs, nprocs, info, ninfo);
    if (!req.ok()) return req.status();
    auto shared = std::make_shared<client::FenceRequest>(std::move(*req));
    if (auto released = client::FenceByDoorbell(shared)) return *released;
    // The result travels as a plain code: Result<Status> is not a type.
    auto rc = pmix::runtime::CallBlocking<pmix_status_t>(
        [shared](std::function<void(pmix_status_t)> done) {
          client::Client* c = client::CurrentClient();
          if (c == nullptr) return done(PMIX_ERR_INIT);
          client::Run(*c, *shared, [done](Status status) { done(status.code()); });
        });
    return rc.ok() ? Status(*rc) : rc.status();
  });
}

extern "C" pmix_status_t PMIx_Fence_nb(const pmix_proc_t procs[], size_t nprocs,
                                       const pmix_info_t info[], size_t ninfo,
                                       pmix_op_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_Fence_nb", [&]() -> Status {
    if (!client::ClientInitialized()) return PMIX_ERR_INIT;
    auto req = client::BuildRequest(procs, nprocs, info, ninfo);
    if (!req.ok()) return req.status();
    auto shared = std::make_shared<client::FenceRequest>(std::move(*req));
    std::function<void(Status)> done = [cbfunc, cbdata](Status status) {
      if (cbfunc != nullptr) cbfunc(status.code(), cbdata);
    };
    client::PostToClient([shared, done](client::Client& c) { client::Run(c, *shared, done); }, done);
    return Status();
  });
}
