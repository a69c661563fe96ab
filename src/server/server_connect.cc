// The server side of PMIx_Connect / PMIx_Disconnect (server_connect.h):
// local participants gathered in fence trackers, one host upcall per
// collective, one answer to every local participant.
#include "src/server/server_connect.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "pmix.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/runtime/context.h"
#include "src/server/server_collective.h"
#include "src/server/server_fence.h"
#include "src/server/server_group.h"
#include "src/server/server_internal.h"
#include "src/wire/job_image.h"

namespace pmix::server {
namespace {

using fence::ProcName;
using fence::Tracker;

// A reply's record count is bounded by what a sane job set can hold.
constexpr uint32_t kMaxReplyRecords = 1u << 16;

struct ConnectState {
  fence::Table connects;
  fence::Table disconnects;
  // Local procs that died without finalizing (the status later requests
  // naming them fail with).
  std::map<ProcName, pmix_status_t> gone;
};

// Progress thread only. Never destroyed: trackers hold timer handles that
// must not be torn down by static destruction after the engine is gone.
ConnectState& State() {
  static ConnectState* state = new ConnectState();
  return *state;
}

fence::Table& TableOf(ConnectKind kind) {
  return kind == ConnectKind::kConnect ? State().connects : State().disconnects;
}

const char* NameOf(ConnectKind kind) {
  return kind == ConnectKind::kConnect ? "connect" : "disconnect";
}

// Both upcalls have the same signature.
pmix_server_connect_fn_t UpcallOf(const Server& s, ConnectKind kind) {
  return kind == ConnectKind::kConnect ? s.module.connect : s.module.disconnect;
}

wire::Bytes ReplyBody(const pmix_bfrops_module_t* codec, pmix_status_t status,
                      std::span<const JobInfoRecord> records, std::vector<ptl::Fd>* fds) {
  wire::Writer w(codec);
  Status packed = PackConnectReply(w, status, records, fds);
  auto body = packed.ok() ? w.Take() : Result<wire::Bytes>(packed);
  if (body.ok()) return std::move(*body);
  output::Error("server", "connect: cannot pack the reply: %s",
                PMIx_Error_string(body.status().code()));
  return StatusBody(codec, body.status().code());
}

// Every local participant gets the same answer: images as descriptors to
// those on a Unix socket (a body of their own, small), inline to others.
void AnswerAll(const Tracker& t, pmix_status_t status, std::span<const JobInfoRecord> records) {
  bool images = false;
  for (const JobInfoRecord& rec : records) images = images || rec.image != nullptr;
  if (!images) {
    fence::AnswerAll(t, [&](const pmix_bfrops_module_t* codec) {
      return ReplyBody(codec, status, records, nullptr);
    });
    return;
  }
  std::map<const pmix_bfrops_module_t*, wire::Bytes> inline_bodies;
  for (const auto& [who, c] : t.contributions) {
    auto peer = c.peer.lock();
    if (peer == nullptr || peer->conn->closed()) continue;
    const pmix_bfrops_module_t* codec = peer->conn->codec();
    if (peer->conn->can_pass_fds()) {
      std::vector<ptl::Fd> fds;
      wire::Bytes body = ReplyBody(codec, status, records, &fds);
      peer->conn->ReplyWithFds(c.request, body, std::move(fds)).ok();
      continue;
    }
    auto it = inline_bodies.find(codec);
    if (it == inline_bodies.end())
      it = inline_bodies.emplace(codec, ReplyBody(codec, status, records, nullptr)).first;
    peer->conn->Reply(c.request, it->second).ok();
  }
}

// Ends a collective (whatever the reason) and answers its participants.
void Complete(Server& s, ConnectKind kind, uint64_t id, pmix_status_t status) {
  std::unique_ptr<Tracker> t = TableOf(kind).Take(id);
  if (t == nullptr) return;  // already answered (a late host callback)
  t->timer.reset();
  if (status != PMIX_SUCCESS)
    output::Verbose("server", 2, "%s %llu failed: %s", NameOf(kind),
                    static_cast<unsigned long long>(id), PMIx_Error_string(status));
  std::vector<JobInfoRecord> records;
  if (status == PMIX_SUCCESS && kind == ConnectKind::kConnect)
    records = JobInfoRecords(s, t->procs);
  AnswerAll(*t, status, records);
}

// What an upcall reads until its callback: owned here, kept by the callback.
struct HostArgs {
  std::vector<pmix_proc_t> procs;
  wire::Infos info;
};

void CallHost(pmix_server_connect_fn_t upcall, std::shared_ptr<HostArgs> args, StatusDone done) {
  CallHostForStatus(
      [&](pmix_op_cbfunc_t cbfunc, void* cbdata) {
        return upcall(args->procs.data(), args->procs.size(), args->info.data(), args->info.size(),
                      cbfunc, cbdata);
      },
      [args, done = std::move(done)](pmix_status_t status) { done(status); });
}

// Every local participant is in.
void Launch(Server& s, ConnectKind kind, Tracker& t) {
  uint64_t id = t.id;
  pmix_server_connect_fn_t upcall = UpcallOf(s, kind);
  if (upcall == nullptr) return Complete(s, kind, id, PMIX_SUCCESS);  // all local (Prepare)
  t.host_called = true;
  auto args = std::make_shared<HostArgs>();
  args->procs = t.procs;
  args->info = std::move(t.directives);
  CallHost(upcall, std::move(args), [kind, id](pmix_status_t status) {
    if (Server* current = CurrentServer(); current != nullptr) Complete(*current, kind, id, status);
  });
}

void ArmDeadline(ConnectKind kind, Tracker& t, int64_t seconds) {
  fence::ArmDeadline(t, seconds, [kind](uint64_t id) {
    if (Server* s = CurrentServer(); s != nullptr) Complete(*s, kind, id, PMIX_ERR_TIMEOUT);
  });
}

struct Prepared {
  std::vector<pmix_proc_t> procs;
  std::string key;
  fence::Participants participants;
};

// Checks a request against what the server knows; the status to reply on error.
Result<Prepared> Prepare(Server& s, const Peer& peer, ConnectKind kind,
                         std::span<const pmix_proc_t> procs) {
  if (peer.ns == nullptr) return Status(PMIX_ERR_NOT_SUPPORTED);  // tools take no part
  auto canonical = fence::Canonicalize(procs);
  if (!canonical.ok()) return canonical.status();
  bool host = UpcallOf(s, kind) != nullptr;
  for (const auto& p : *canonical) {
    if (!host && s.FindNamespace(p.nspace) == nullptr) return Status(PMIX_ERR_NOT_SUPPORTED);
  }
  auto participants = fence::Resolve(*canonical, fence::NamespacesOf(s));
  if (!participants.ok()) return participants.status();
  if (participants->remote && !host) return Status(PMIX_ERR_NOT_SUPPORTED);
  if (participants->local.count(fence::NameOf(peer.proc)) == 0) return Status(PMIX_ERR_BAD_PARAM);
  for (const auto& who : participants->local) {
    auto gone = State().gone.find(who);
    if (gone != State().gone.end() && s.FindPeer(fence::ProcOf(who)) == nullptr)
      return Status(gone->second);
  }
  std::string key = fence::CollectiveKey(*canonical);
  return Prepared{std::move(*canonical), std::move(key), std::move(*participants)};
}

void Refuse(const PeerPtr& peer, const ptl::Frame& frame, pmix_status_t status) {
  peer->conn->Reply(frame, ReplyBody(peer->conn->codec(), status, {}, nullptr)).ok();
}

void HandleRequest(Server& s, const PeerPtr& peer, ptl::Frame&& frame, ConnectKind kind) {
  wire::Reader r(peer->conn->codec(), frame.payload);
  std::vector<pmix_proc_t> procs = r.Procs();
  wire::Infos infos = r.InfoArray();
  if (!r.status().ok()) return Refuse(peer, frame, r.status().code());
  auto members = TranslateGroupProcs(s, procs);  // group ids stand for their members
  if (!members.ok()) return Refuse(peer, frame, members.status().code());
  procs = std::move(*members);
  auto prepared = Prepare(s, *peer, kind, procs);
  if (!prepared.ok()) return Refuse(peer, frame, prepared.status().code());
  std::optional<int64_t> timeout = InfoInt(infos.view(), PMIX_TIMEOUT);
  ProcName me = fence::NameOf(peer->proc);
  fence::Table& table = TableOf(kind);
  Tracker* t = table.FindJoinable(prepared->key, me);
  if (t == nullptr) {
    t = &table.Create(std::move(prepared->key), std::move(prepared->procs),
                      std::move(prepared->participants));
  }
  if (Status merged = fence::MergeDirectives(*t, infos.view()); !merged.ok())
    return Refuse(peer, frame, merged.code());
  t->contributions[me] =
      fence::Contribution{peer, ptl::Frame{frame.flags, frame.type, frame.tag, {}}};
  if (timeout && *timeout > 0) ArmDeadline(kind, *t, *timeout);
  if (t->Ready()) Launch(s, kind, *t);
}

// Fails the pending operations of one kind that `pick` selects.
template <class Pick>
void FailWhere(Server& s, ConnectKind kind, pmix_status_t status, Pick pick) {
  fence::Table& table = TableOf(kind);
  for (uint64_t id : table.Ids()) {
    Tracker* t = table.Find(id);
    if (t != nullptr && pick(*t)) Complete(s, kind, id, status);
  }
}

constexpr ConnectKind kKinds[] = {ConnectKind::kConnect, ConnectKind::kDisconnect};

}  // namespace

std::vector<JobInfoRecord> JobInfoRecords(Server& s, std::span<const pmix_proc_t> procs) {
  std::vector<JobInfoRecord> out;
  std::set<std::string> seen;
  for (const pmix_proc_t& p : procs) {
    std::string name = fence::NameOf(p).nspace;
    if (!seen.insert(name).second) continue;
    Namespace* ns = s.FindNamespace(name);
    if (ns == nullptr) continue;
    out.push_back(JobInfoRecord{std::move(name), s.store.FindImage(ns->name)});
  }
  return out;
}

Status PackConnectReply(wire::Writer& w, pmix_status_t status,
                        std::span<const JobInfoRecord> records, std::vector<ptl::Fd>* fds) {
  w.Status(status);
  if (status != PMIX_SUCCESS) return w.status();
  w.U32(static_cast<uint32_t>(records.size()));
  for (const JobInfoRecord& rec : records) {
    w.Str(rec.nspace);
    PMIX_RETURN_IF_ERROR(wire::PackImage(w, rec.image.get(), fds));
  }
  return w.status();
}

pmix_status_t UnpackConnectReply(wire::Reader& r, std::vector<ptl::Fd>& fds,
                                 std::vector<JobInfoRecord>* records) {
  pmix_status_t status = r.Status();
  if (!r.status().ok()) return r.status().code();
  if (status != PMIX_SUCCESS || r.AtEnd()) return status;
  uint32_t n = r.U32();
  if (n > kMaxReplyRecords) return PMIX_ERR_UNPACK_FAILURE;
  for (uint32_t i = 0; i < n && r.status().ok(); ++i) {
    JobInfoRecord rec;
    rec.nspace = r.String();
    if (!r.status().ok()) break;
    auto image = wire::UnpackImage(r, fds, rec.nspace);
    if (!image.ok()) return image.status().code();
    rec.image = std::move(*image);
    records->push_back(std::move(rec));
  }
  return r.status().ok() ? status : r.status().code();
}

void HandleConnect(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  HandleRequest(s, peer, std::move(frame), ConnectKind::kConnect);
}

void HandleDisconnect(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  HandleRequest(s, peer, std::move(frame), ConnectKind::kDisconnect);
}

void ConnectAsServer(Server& s, ConnectKind kind, std::span<const pmix_proc_t> procs,
                     std::span<const pmix_info_t> directives, StatusDone done) {
  pmix_server_connect_fn_t upcall = UpcallOf(s, kind);
  if (upcall == nullptr) return done(PMIX_ERR_NOT_SUPPORTED);
  auto args = std::make_shared<HostArgs>();
  args->procs.assign(procs.begin(), procs.end());
  auto info = wire::Infos::CopyOf(directives);
  if (!info.ok()) return done(info.status().code());
  args->info = std::move(*info);
  CallHost(upcall, std::move(args), std::move(done));
}

void ConnectOnPeerLost(Server& s, const PeerPtr& peer) {
  if (peer->ns == nullptr) return;
  ProcName who = fence::NameOf(peer->proc);
  pmix_status_t why = peer->finalized ? PMIX_ERR_LOST_CONNECTION : PMIX_ERR_PROC_TERM_WO_SYNC;
  if (!peer->finalized) State().gone[who] = why;
  for (ConnectKind kind : kKinds) {
    FailWhere(s, kind, why, [&](const Tracker& t) {
      if (t.participants.local.count(who) == 0) return false;
      bool contributed = t.contributions.count(who) != 0;
      return !(peer->finalized && contributed);  // a finalized contribution stands
    });
  }
}

void ConnectOnNamespaceGone(Server& s, const std::string& nspace) {
  for (ConnectKind kind : kKinds) {
    FailWhere(s, kind, PMIX_ERR_NOT_FOUND, [&](const Tracker& t) {
      for (const auto& p : t.procs)
        if (fence::NameOf(p).nspace == nspace) return true;
      return false;
    });
  }
  auto& gone = State().gone;
  for (auto it = gone.begin(); it != gone.end();)
    it = it->first.nspace == nspace ? gone.erase(it) : std::next(it);
}

void ConnectShutdown(Server& s) {
  for (ConnectKind kind : kKinds)
    FailWhere(s, kind, PMIX_ERR_INIT, [](const Tracker&) { return true; });
  State().gone.clear();
}

}  // namespace pmix::server
