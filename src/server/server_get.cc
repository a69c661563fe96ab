// The server's side of PMIx_Get (standard §5.3, §6.2): gets answered from
// the stores (committed data: s.modex, server_commit.cc), held until a
// local target commits, or sent to the host (server_dmodex.cc).
//
// kGet request: proc, key (NULL: all), infos, bool want_job. Reply:
// status, bool has_job [, i32 nlocalprocs, info array], then records
// (wire/proc_data.h, the connection's codec) to the end of the body.
#include <cstring>

#include "mca/bfrops/base/bfrops_base.h"
#include "src/client/get_rules.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/runtime/context.h"
#include "src/server/server_get.h"
#include "src/server/server_group.h"
#include "src/wire/job_image.h"

namespace pmix::server {
namespace get {
namespace {

bool IsJobRequest(const Request& req) {
  return getrules::IsReservedKey(req.key) || req.target.rank == PMIX_RANK_WILDCARD;
}

Result<Request> ParseGet(const PeerPtr& peer, const ptl::Frame& frame) {
  wire::Reader r(peer->conn->codec(), frame.payload);
  Request req;
  req.requester = peer;
  req.target = r.Proc();
  req.key = r.String();
  req.infos = r.InfoArray();
  req.want_job = r.Bool();
  if (!r.status().ok()) return r.status();
  if (req.key.size() > PMIX_MAX_KEYLEN) return Status(PMIX_ERR_BAD_PARAM);
  auto view = req.infos.view();
  req.immediate = InfoFlag(view, PMIX_IMMEDIATE);
  req.refresh = InfoFlag(view, PMIX_GET_REFRESH_CACHE);
  int64_t timeout = InfoInt(view, PMIX_TIMEOUT).value_or(0);
  req.timeout = timeout > 0 && timeout <= INT32_MAX ? static_cast<int>(timeout) : 0;
  req.reply_to = ptl::Frame{frame.flags, frame.type, frame.tag, {}};
  return req;
}

// Whether key (or, for an empty key, any data) of proc is visible.
Status Probe(Server& s, const pmix_proc_t& proc, const std::string& key) {
  if (key.empty()) {
    Namespace* ns = s.FindNamespace(proc.nspace);
    if (ns != nullptr && ns->IsLocal(proc.rank))
      return ns->committed.count(proc.rank) != 0 ? Status() : Status(PMIX_ERR_NOT_FOUND);
  }
  return s.modex.Find(proc, ViewOf(s, proc), key);
}

// Rank PMIX_RANK_UNDEF: the first rank of the namespace that holds the key.
Status FindOwner(Server& s, const Request& req, pmix_rank_t* owner) {
  Status answer = PMIX_ERR_NOT_FOUND;
  for (pmix_rank_t rank : s.modex.Ranks(req.target.nspace)) {
    pmix_proc_t proc = req.target;
    proc.rank = rank;
    Status found = Probe(s, proc, req.key);
    if (found.ok()) {
      *owner = proc.rank;
      return found;
    }
    if (found.code() == PMIX_ERR_EXISTS_OUTSIDE_SCOPE) answer = found;
  }
  return answer;
}

// Whether who may read ns's job data: a process of the namespace, root,
// the server's own uid, or one of the users it belongs to
// (Namespace::ReadableBy). A process of another user is never handed the
// region or the bytes of a job that is not its own.
bool MayReadJob(const Server& s, const Peer& who, const Namespace& ns) {
  return who.ns == &ns || who.uid == 0 || who.uid == s.uid || ns.ReadableBy(who.uid);
}

void ServeJobData(Server& s, Request&& req) {
  bool valid = req.target.rank < PMIX_RANK_VALID;
  if (Namespace* ns = s.FindNamespace(req.target.nspace); ns != nullptr) {
    if (!MayReadJob(s, *req.requester, *ns)) return ReplyStatus(req, PMIX_ERR_NO_PERMISSIONS);
    // The client searches what it receives with its own realm rules.
    return ReplyData(s, req, valid ? req.target.rank : PMIX_RANK_UNDEF);
  }
  if (req.immediate || s.module.direct_modex == nullptr) return ReplyStatus(req, PMIX_ERR_NOT_FOUND);
  AskHost(s, std::move(req));
}

// Why a local target can no longer commit (PMIX_SUCCESS: it still can).
// Rank PMIX_RANK_UNDEF: only when every local client is gone.
pmix_status_t Departed(const Namespace* ns, const pmix_proc_t& target) {
  if (ns == nullptr || (ns->clients.empty() && ns->deregistered.empty())) return PMIX_SUCCESS;
  if (target.rank != PMIX_RANK_UNDEF) {
    const ClientRecord* record = ns->Record(target.rank);
    return record == nullptr ? PMIX_SUCCESS : record->departed;
  }
  for (const auto& [rank, record] : ns->clients) {
    if (record.departed == PMIX_SUCCESS) return PMIX_SUCCESS;
  }
  return PMIX_ERR_NOT_FOUND;
}

void ServeProcData(Server& s, Request&& req) {
  bool valid = req.target.rank < PMIX_RANK_VALID;
  Namespace* ns = s.FindNamespace(req.target.nspace);
  bool remote = valid && (ns == nullptr || !ns->IsLocal(req.target.rank));
  bool host = s.module.direct_modex != nullptr;
  if (req.refresh && remote && host && !req.immediate) return AskHost(s, std::move(req));
  if (TryAnswer(s, req)) return;
  if (req.immediate || req.refresh) return ReplyStatus(req, PMIX_ERR_NOT_FOUND);
  if (remote) {
    if (!host) return ReplyStatus(req, PMIX_ERR_NOT_FOUND);
    return AskHost(s, std::move(req));
  }
  if (pmix_status_t gone = Departed(ns, req.target); gone != PMIX_SUCCESS)
    return ReplyStatus(req, gone);
  Hold(s, std::move(req), Wait::kCommit);
}

// PMIX_GROUP_NAMES / PMIX_PSET_NAMES: from the server's live state, never
// from a store (server_group.h), and never kept by the client.
void ServeLiveKey(Server& s, const Request& req) {
  gds::ValuePtr v = LiveKeyValue(s, req.target, req.key);
  const auto& conn = req.requester->conn;
  if (v == nullptr || conn == nullptr || conn->closed()) return ReplyStatus(req, PMIX_ERR_NOT_FOUND);
  std::vector<wire::ProcData> records(1);
  records[0].proc = req.target;
  pmix_info_t kv;
  PMIx_Info_construct(&kv);
  PMIX_LOAD_KEY(kv.key, req.key.c_str());
  kv.value = *v;  // shallow: Append deep-copies it
  Status added = records[0].kvs.Append(kv);
  if (!added.ok()) return ReplyStatus(req, added.code());
  wire::Writer w(conn->codec());
  w.Status(PMIX_SUCCESS).Bool(false);
  wire::PackProcData(w, records);
  auto body = w.Take();
  if (!body.ok()) return ReplyStatus(req, body.status().code());
  conn->Reply(req.reply_to, *body).ok();
}

void OnTimeout(uint64_t id) {
  auto& held = GetState().held;
  auto it = held.find(id);
  if (it == held.end()) return;
  ReplyStatus(it->second.req, PMIX_ERR_TIMEOUT);
  held.erase(it);
}

// Answers and drops the held requests `pick` selects that the store can now answer.
template <class Pick>
void Release(Server& s, Pick pick) {
  auto& held = GetState().held;
  for (auto it = held.begin(); it != held.end();) {
    if (it->second.wait == Wait::kCommit && pick(it->second.req) && TryAnswer(s, it->second.req)) {
      it = held.erase(it);
    } else {
      ++it;
    }
  }
}

// Fails and drops the held requests `pick` selects.
template <class Pick>
void FailHeld(Pick pick, pmix_status_t status) {
  auto& held = GetState().held;
  for (auto it = held.begin(); it != held.end();) {
    if (pick(it->second)) {
      ReplyStatus(it->second.req, status);
      it = held.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace

void ReleaseCommitted(Server& s, const pmix_proc_t& who) {
  Release(s, [&who](const Request& req) {
    return PMIx_Check_nspace(req.target.nspace, who.nspace) &&
           (req.target.rank == who.rank || req.target.rank == PMIX_RANK_UNDEF);
  });
}

State& GetState() {
  static State state;
  return state;
}

bool SameProc(const pmix_proc_t& a, const pmix_proc_t& b) {
  return a.rank == b.rank && PMIx_Check_nspace(a.nspace, b.nspace);
}

pmix_gds_view_t ViewOf(Server& s, const pmix_proc_t& proc) {
  Namespace* ns = s.FindNamespace(proc.nspace);
  return ns != nullptr && ns->IsLocal(proc.rank) ? PMIX_GDS_VIEW_LOCAL : PMIX_GDS_VIEW_REMOTE;
}

void ReplyStatus(const Request& req, pmix_status_t status) {
  const auto& conn = req.requester->conn;
  if (conn == nullptr || conn->closed()) return;
  wire::Writer w(conn->codec());
  w.Status(status).Bool(false);
  auto body = w.Take();
  conn->Reply(req.reply_to, body.ok() ? *body : wire::Bytes{}).ok();
}

wire::ProcData JobRecord(Server& s, const char* nspace) {
  wire::ProcData rec;
  PMIx_Load_procid(&rec.proc, nspace, PMIX_RANK_WILDCARD);
  auto kvs = s.store.Fetch(rec.proc, gds::Where::Job(), PMIX_GDS_VIEW_ALL, "");
  if (kvs.ok()) {
    auto copy = wire::Infos::CopyOf(kvs->view());
    if (copy.ok()) rec.kvs = std::move(*copy);
  }
  return rec;
}

void ReplyData(Server& s, const Request& req, pmix_rank_t owner) {
  const auto& conn = req.requester->conn;
  if (conn == nullptr || conn->closed()) return;
  Namespace* ns = s.FindNamespace(req.target.nspace);
  wire::Bytes records;  // default codec
  if (owner < PMIX_RANK_VALID) {
    pmix_proc_t proc = req.target;
    proc.rank = owner;
    pmix_gds_view_t view = ViewOf(s, proc);
    records.reserve(s.modex.Size(proc, view));
    s.modex.Append(proc, view, records);
  }
  if (req.want_job && ns == nullptr) {  // job data the host sent for an unregistered job
    auto job = JobRecord(s, req.target.nspace);
    auto codec = bfrops::DefaultCodec();
    Status added = !codec.ok() ? codec.status() : job.kvs.size() == 0 ? Status()
                 : wire::AppendRecord(*codec, job.proc, job.kvs.view(), records);
    if (!added.ok()) return ReplyStatus(req, added.code());
  }
  auto tail = ForCodec(conn->codec(), std::make_shared<const wire::Bytes>(std::move(records)));
  if (!tail.ok()) return ReplyStatus(req, tail.status().code());
  // A process's committed data goes to any asker; the job's image only to
  // those who may read it.
  bool with_job = req.want_job && ns != nullptr && MayReadJob(s, *req.requester, *ns);
  wire::Writer w(conn->codec());
  w.Status(PMIX_SUCCESS).Bool(with_job);
  std::vector<ptl::Fd> fds;  // the job's image, shared with a local peer (job_image.h)
  if (with_job) {
    w.I32(ns->nlocalprocs);
    Status packed = wire::PackImage(w, s.store.FindImage(ns->name).get(),
                                    conn->can_pass_fds() ? &fds : nullptr);
    if (!packed.ok()) return ReplyStatus(req, packed.code());
  }
  auto head = w.Take();
  if (!head.ok()) return ReplyStatus(req, head.status().code());
  conn->ReplyBody(req.reply_to, wire::Body(std::move(*head), std::move(*tail)), std::move(fds))
      .ok();
}

Result<std::shared_ptr<const wire::Bytes>> ForCodec(const pmix_bfrops_module_t* codec,
                                                    std::shared_ptr<const wire::Bytes> records) {
  auto fallback = bfrops::DefaultCodec();
  if (!fallback.ok()) return fallback.status();
  if (codec == *fallback || records == nullptr || records->empty()) return records;
  auto transcoded = wire::Transcode(*fallback, codec, *records);
  if (!transcoded.ok()) return transcoded.status();
  return std::shared_ptr<const wire::Bytes>(std::make_shared<wire::Bytes>(std::move(*transcoded)));
}

bool TryAnswer(Server& s, const Request& req) {
  pmix_rank_t owner = req.target.rank;
  Status found = req.target.rank == PMIX_RANK_UNDEF ? FindOwner(s, req, &owner)
                                                     : Probe(s, req.target, req.key);
  if (found.ok()) {
    ReplyData(s, req, owner);
    return true;
  }
  if (found.code() == PMIX_ERR_EXISTS_OUTSIDE_SCOPE) {
    ReplyStatus(req, found.code());
    return true;
  }
  return false;
}

void Hold(Server&, Request&& req, Wait wait) {
  State& state = GetState();
  uint64_t id = state.next_id++;
  Held held;
  held.wait = wait;
  if (req.timeout > 0) {
    held.timer = runtime::Engine()->AddTimer(std::chrono::seconds(req.timeout),
                                             [id] { OnTimeout(id); });
  }
  held.req = std::move(req);
  state.held.emplace(id, std::move(held));
}

}  // namespace get

void HandleGet(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  auto req = get::ParseGet(peer, frame);
  if (!req.ok()) {
    get::Request bad;
    bad.requester = peer;
    bad.reply_to = ptl::Frame{frame.flags, frame.type, frame.tag, {}};
    return get::ReplyStatus(bad, req.status().code());
  }
  if (IsLiveKey(req->key)) return get::ServeLiveKey(s, *req);
  if (get::IsJobRequest(*req)) return get::ServeJobData(s, std::move(*req));
  get::ServeProcData(s, std::move(*req));
}

void GetOnPeerLost(Server& s, const PeerPtr& peer) {
  auto& held = get::GetState().held;
  for (auto it = held.begin(); it != held.end();) {
    it = it->second.req.requester == peer ? held.erase(it) : std::next(it);
  }
  // A target that left: what it committed was answered already.
  pmix_status_t why = peer->finalized ? PMIX_ERR_NOT_FOUND : PMIX_ERR_PROC_TERM_WO_SYNC;
  const pmix_proc_t& gone = peer->proc;
  get::FailHeld([&gone](const get::Held& h) {
    return h.wait == get::Wait::kCommit && get::SameProc(h.req.target, gone);
  }, why);
  get::DmodexFail(s, gone, why, false);
}

void GetOnNamespaceGone(Server& s, const std::string& nspace) {
  pmix_proc_t all;
  PMIx_Load_procid(&all, nspace.c_str(), PMIX_RANK_WILDCARD);
  get::FailHeld([&all](const get::Held& h) {
    return h.wait == get::Wait::kCommit && PMIx_Check_nspace(h.req.target.nspace, all.nspace);
  }, PMIX_ERR_NOT_FOUND);
  get::DmodexFail(s, all, PMIX_ERR_NOT_FOUND, true);
  s.modex.Remove(all);
  auto& hidden = get::GetState().hidden;
  for (auto it = hidden.lower_bound({nspace, 0}); it != hidden.end() && it->first.first == nspace;)
    it = hidden.erase(it);
}

void GetShutdown(Server& s) {
  get::FailHeld([](const get::Held&) { return true; }, PMIX_ERR_INIT);
  pmix_proc_t none{};
  get::DmodexFail(s, none, PMIX_ERR_INIT, true);
  get::State& state = get::GetState();
  state.host_inflight.clear();
  state.host_retry.clear();
  state.dmodex_holds.clear();
  state.hidden.clear();
  state.next_id = 1;
}

}  // namespace pmix::server
