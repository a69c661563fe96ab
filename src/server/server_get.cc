// The server's side of PMIx_Commit and PMIx_Get (standard §5.3, §6.2):
// committed data into the store, gets answered from the store, held until
// a local target commits, or sent to the host (server_dmodex.cc).
//
// kCommit body: u32 group count, then per group u32 scope + info array.
// kGet request: proc, key (NULL: all), infos, bool want_job. Reply:
// status, bool has_job [, i32 nlocalprocs, info array], ProcData records.
#include <cstring>

#include "src/client/get_rules.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/runtime/context.h"
#include "src/server/server_get.h"
#include "src/server/server_group.h"

namespace pmix::server {
namespace get {
namespace {

constexpr uint32_t kMaxCommitGroups = 1u << 20;

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
  pmix_gds_view_t view = ViewOf(s, proc);
  if (key.empty()) {
    Namespace* ns = s.FindNamespace(proc.nspace);
    if (ns != nullptr && ns->IsLocal(proc.rank))
      return ns->committed.count(proc.rank) != 0 ? Status() : Status(PMIX_ERR_NOT_FOUND);
    auto all = s.store.Fetch(proc, gds::Where::Proc(), view, "");
    return all.ok() ? Status() : Status(PMIX_ERR_NOT_FOUND);
  }
  auto v = s.store.FetchValue(proc, gds::Where::Proc(), view, key);
  return v.ok() ? Status() : v.status();
}

// Rank PMIX_RANK_UNDEF: the first rank of the namespace that holds the key.
Status FindOwner(Server& s, const Request& req, pmix_rank_t* owner) {
  auto ranks = s.store.Instances(req.target, PMIX_GDS_REALM_PROC);
  if (!ranks.ok()) return PMIX_ERR_NOT_FOUND;
  Status answer = PMIX_ERR_NOT_FOUND;
  for (const pmix_info_t& id : ranks->view()) {
    pmix_proc_t proc = req.target;
    proc.rank = id.value.data.rank;
    Status found = Probe(s, proc, req.key);
    if (found.ok()) {
      *owner = proc.rank;
      return found;
    }
    if (found.code() == PMIX_ERR_EXISTS_OUTSIDE_SCOPE) answer = found;
  }
  return answer;
}

void ServeJobData(Server& s, Request&& req) {
  bool valid = req.target.rank < PMIX_RANK_VALID;
  if (s.FindNamespace(req.target.nspace) != nullptr) {
    // The client searches what it receives with its own realm rules.
    return ReplyData(s, req, valid ? req.target.rank : PMIX_RANK_UNDEF);
  }
  if (req.immediate || s.module.direct_modex == nullptr) return ReplyStatus(req, PMIX_ERR_NOT_FOUND);
  AskHost(s, std::move(req));
}

// Why a local target can no longer commit (PMIX_SUCCESS: it still can).
// Rank PMIX_RANK_UNDEF: only when every local client is gone.
pmix_status_t Departed(const Namespace* ns, const pmix_proc_t& target) {
  if (ns == nullptr || ns->clients.empty()) return PMIX_SUCCESS;
  if (target.rank != PMIX_RANK_UNDEF) {
    auto it = ns->clients.find(target.rank);
    return it == ns->clients.end() ? PMIX_SUCCESS : it->second.departed;
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
  std::vector<wire::ProcData> records;
  if (owner < PMIX_RANK_VALID) {
    pmix_proc_t proc = req.target;
    proc.rank = owner;
    auto rec = wire::CollectProcData(s.store, proc, ViewOf(s, proc));
    if (rec.ok() && rec->kvs.size() > 0) records.push_back(std::move(*rec));
  }
  if (req.want_job && ns == nullptr) {  // job data the host sent for an unregistered job
    auto job = JobRecord(s, req.target.nspace);
    if (job.kvs.size() > 0) records.push_back(std::move(job));
  }
  wire::Writer w(conn->codec());
  w.Status(PMIX_SUCCESS).Bool(req.want_job && ns != nullptr);
  if (req.want_job && ns != nullptr) w.I32(ns->nlocalprocs).InfoArray(ns->registration.view());
  wire::PackProcData(w, records);
  auto body = w.Take();
  if (!body.ok()) return ReplyStatus(req, body.status().code());
  conn->Reply(req.reply_to, *body).ok();
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

void HandleCommit(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  wire::Reader r(peer->conn->codec(), frame.payload);
  uint32_t ngroups = r.U32();
  for (uint32_t g = 0; r.status().ok() && g < ngroups && g < get::kMaxCommitGroups; ++g) {
    uint32_t scope = r.U32();
    wire::Infos kvs = r.InfoArray();
    if (!r.status().ok() || getrules::CheckPutScope(static_cast<pmix_scope_t>(scope)).code() !=
                                PMIX_SUCCESS || scope == PMIX_INTERNAL)
      continue;
    for (const pmix_info_t& kv : kvs.view()) {
      if (getrules::IsReservedKey(kv.key)) continue;  // never from a client (RFC0009)
      Status stored = s.store.PutValue(peer->proc, gds::Where::Proc(),
                                       static_cast<pmix_scope_t>(scope), kv.key, kv.value);
      if (!stored.ok())
        output::PeerError("server", "commit from %s:%u: key %s not stored (%d)", peer->proc.nspace,
                          peer->proc.rank, kv.key, stored.code());
    }
  }
  if (!r.status().ok()) {
    output::PeerError("server", "malformed commit from %s:%u", peer->proc.nspace, peer->proc.rank);
  }
  if (peer->ns != nullptr) peer->ns->committed.insert(peer->proc.rank);
  const pmix_proc_t& who = peer->proc;
  get::Release(s, [&who](const get::Request& req) {
    return PMIx_Check_nspace(req.target.nspace, who.nspace) &&
           (req.target.rank == who.rank || req.target.rank == PMIX_RANK_UNDEF);
  });
  get::DmodexOnCommit(s, who);
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
}

void GetShutdown(Server& s) {
  get::FailHeld([](const get::Held&) { return true; }, PMIX_ERR_INIT);
  pmix_proc_t none{};
  get::DmodexFail(s, none, PMIX_ERR_INIT, true);
  get::State& state = get::GetState();
  state.host_inflight.clear();
  state.host_retry.clear();
  state.dmodex_holds.clear();
  state.next_id = 1;
}

}  // namespace pmix::server
