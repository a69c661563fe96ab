// Process groups on the server (server_group.h): the kGroup message, the
// helpers the group files share, and the construct / destruct collectives.
#include "src/server/server_group.h"

#include <utility>

#include "pmix.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/runtime/context.h"
#include "src/server/server_collective.h"
#include "src/server/server_group_state.h"
#include "src/server/server_internal.h"
#include "src/server/server_upcall.h"

namespace pmix::server {
namespace group {

State& GetState() {
  static State* state = new State();
  return *state;
}

// --- shared helpers ---------------------------------------------------------

void ReplyTo(const std::weak_ptr<Peer>& weak, const ptl::Frame& request, pmix_status_t status,
             std::span<const pmix_info_t> results, std::span<const JobInfoRecord> jobs,
             std::span<const wire::ProcData> data) {
  PeerPtr peer = weak.lock();
  if (peer == nullptr || peer->conn == nullptr || peer->conn->closed()) return;
  wire::Writer w(peer->conn->codec());
  Status packed = PackReply(w, status, results, jobs, data);
  auto body = packed.ok() ? w.Take() : Result<wire::Bytes>(packed);
  if (!body.ok()) {
    output::Error("server", "group: cannot pack a reply: %s",
                  PMIx_Error_string(body.status().code()));
    peer->conn->Reply(request, StatusBody(peer->conn->codec(), body.status().code())).ok();
    return;
  }
  peer->conn->Reply(request, *body).ok();
}

wire::Infos ResultsOf(const groups::Group& g) {
  wire::Infos out;
  if (g.context_id) {
    size_t id = *g.context_id;
    out.Add(PMIX_GROUP_CONTEXT_ID, &id, PMIX_SIZE).ok();
  }
  groups::AddProcArray(out, PMIX_GROUP_MEMBERSHIP, g.Current()).ok();
  return out;
}

std::vector<JobInfoRecord> JobsOf(Server& s, std::span<const pmix_proc_t> members) {
  return JobInfoRecords(s, members);
}

std::vector<wire::ProcData> LocalDataOf(Server& s, std::span<const pmix_proc_t> members) {
  std::vector<wire::ProcData> out;
  for (const pmix_proc_t& m : members) {
    if (!IsLocal(s, m)) continue;
    auto kvs = s.modex.FetchAll(m, PMIX_GDS_VIEW_LOCAL);  // committed data (modex_store.h)
    if (kvs.ok() && kvs->size() > 0) out.push_back(wire::ProcData{m, std::move(*kvs)});
  }
  return out;
}

bool IsLocal(Server& s, const pmix_proc_t& proc) {
  Namespace* ns = s.FindNamespace(proc.nspace);
  return ns != nullptr && proc.rank < PMIX_RANK_VALID && ns->IsLocal(proc.rank);
}

bool IsConnected(Server& s, const pmix_proc_t& proc) { return s.FindPeer(proc) != nullptr; }

void Raise(Server& s, pmix_status_t code, const pmix_proc_t& source,
           std::span<const pmix_proc_t> targets, const std::string& grp,
           const pmix_proc_t* affected, std::span<const pmix_info_t> extra) {
  if (targets.empty()) return;
  wire::Infos info;
  Status st = groups::AddProcArray(info, PMIX_EVENT_CUSTOM_RANGE, targets);
  if (st.ok()) st = info.Add(PMIX_GROUP_ID, grp.c_str(), PMIX_STRING);
  if (st.ok() && affected != nullptr) st = info.Add(PMIX_EVENT_AFFECTED_PROC, affected, PMIX_PROC);
  for (const pmix_info_t& i : extra)
    if (st.ok()) st = info.Append(i);
  auto made = st.ok() ? event::MakeEvent(code, source, PMIX_RANGE_CUSTOM, info.data(), info.size())
                      : Result<event::Event>(st);
  if (!made.ok()) {
    output::Error("server", "group %s: event %s not raised: %s", grp.c_str(),
                  PMIx_Error_string(code), PMIx_Error_string(made.status().code()));
    return;
  }
  bool remote = false;
  for (const pmix_proc_t& t : targets) remote = remote || !IsLocal(s, t);
  EventsRaise(s, std::make_shared<const event::Event>(std::move(made).value()), remote);
}

groups::JobSize JobSizes(Server& s) {
  return [&s](std::string_view nspace) -> std::optional<uint32_t> {
    Namespace* ns = s.FindNamespace(nspace);
    if (ns == nullptr || ns->summary.job_size == 0) return std::nullopt;
    return ns->summary.job_size;
  };
}

Result<std::vector<pmix_proc_t>> TranslateHere(Server& s, std::span<const pmix_proc_t> procs) {
  (void)s;
  const groups::Table& registry = GetState().registry;
  return groups::Translate(procs, [&registry](std::string_view name) {
    return registry.Find(name);
  });
}

void StoreContribution(Server& s, const pmix_proc_t& who, std::span<const pmix_info_t> dirs) {
  wire::Infos kvs;
  for (const pmix_info_t& d : dirs) {
    if (PMIX_CHECK_KEY(&d, PMIX_GROUP_ENDPT_DATA)) {
      kvs.Append(d).ok();
    } else if (PMIX_CHECK_KEY(&d, PMIX_GROUP_INFO) && d.value.type == PMIX_DATA_ARRAY &&
               d.value.data.darray != nullptr && d.value.data.darray->type == PMIX_INFO) {
      const auto* inner = static_cast<const pmix_info_t*>(d.value.data.darray->array);
      for (size_t i = 0; inner != nullptr && i < d.value.data.darray->size; ++i)
        kvs.Append(inner[i]).ok();
    }
  }
  if (kvs.size() == 0) return;
  Status stored = s.modex.AddKvs(who, PMIX_GLOBAL, kvs.view());  // with the committed data
  if (!stored.ok())
    output::Error("server", "group data of %s:%u not stored: %s", who.nspace, who.rank,
                  PMIx_Error_string(stored.code()));
}

void AnswerJoins(Server& s, const std::string& grp, pmix_status_t status) {
  State& st = GetState();
  const groups::Group* g = st.registry.Find(grp);
  wire::Infos results;
  std::vector<JobInfoRecord> jobs;
  std::vector<wire::ProcData> data;
  if (status == PMIX_SUCCESS && g != nullptr) {
    results = ResultsOf(*g);
    jobs = JobsOf(s, g->members);
    data = LocalDataOf(s, g->Current());
  }
  for (auto it = st.joins.begin(); it != st.joins.end();) {
    if (it->second.grp != grp) {
      ++it;
      continue;
    }
    ReplyTo(it->second.peer, it->second.reply_to, status, results.view(), jobs, data);
    it = st.joins.erase(it);
  }
}

}  // namespace group

namespace group {
namespace {

using fence::Tracker;

std::string ConstructKey(const std::string& grp) { return "group-construct\n" + grp; }
std::string DestructKey(const std::string& grp) { return "group-destruct\n" + grp; }

void Refuse(const PeerPtr& peer, const ptl::Frame& frame, pmix_status_t status) {
  ReplyTo(peer, ReplyHeader(frame), status);
}

bool SameMembers(std::span<const pmix_proc_t> a, std::span<const pmix_proc_t> b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!groups::SameProc(a[i], b[i])) return false;
  return true;
}

// Reads one contributor's directives into the collective: the group flags
// into `op`, every directive into t.directives for the host (the shared
// fence::MergeDirectives: every local contributor's, first value wins).
Status Absorb(CollectiveOp& op, Tracker& t, const ProcName& who, std::span<const pmix_info_t> dirs) {
  op.optional = op.optional || InfoFlag(dirs, PMIX_GROUP_OPTIONAL);
  op.notify = op.notify || InfoFlag(dirs, PMIX_GROUP_NOTIFY_TERMINATION);
  op.ft = op.ft || InfoFlag(dirs, PMIX_GROUP_FT_COLLECTIVE);
  op.want_context_id = op.want_context_id || InfoFlag(dirs, PMIX_GROUP_ASSIGN_CONTEXT_ID);
  if (!op.leader && InfoFlag(dirs, PMIX_GROUP_LEADER)) op.leader = who;
  return fence::MergeDirectives(t, dirs);
}

// Directives the group machinery hands the host itself (merged flags, the
// local status, the members' data) rather than as one member gave them.
bool OwnedByGroups(const pmix_info_t& info) {
  for (const char* key :
       {PMIX_GROUP_ASSIGN_CONTEXT_ID, PMIX_GROUP_NOTIFY_TERMINATION, PMIX_GROUP_OPTIONAL,
        PMIX_GROUP_FT_COLLECTIVE, PMIX_GROUP_LOCAL_ONLY, PMIX_GROUP_LEADER, PMIX_GROUP_ENDPT_DATA,
        PMIX_GROUP_INFO, PMIX_LOCAL_COLLECTIVE_STATUS})
    if (PMIX_CHECK_KEY(&info, key)) return true;
  return false;
}

// The members as the host and the results name them: without the dropped.
std::vector<pmix_proc_t> Remaining(const CollectiveOp& op) {
  std::vector<pmix_proc_t> out;
  for (const pmix_proc_t& m : op.members)
    if (op.dropped.count(fence::NameOf(m)) == 0) out.push_back(m);
  return out;
}

// What the host's group upcall answered.
struct HostAnswer {
  std::optional<size_t> context_id;
  std::optional<std::vector<pmix_proc_t>> membership;
  std::vector<wire::ProcData> data;  // other servers' members' data
};

HostAnswer ReadHostAnswer(std::span<const pmix_info_t> infos) {
  HostAnswer a;
  for (const pmix_info_t& i : infos) {
    if (PMIX_CHECK_KEY(&i, PMIX_GROUP_CONTEXT_ID)) {
      size_t id = 0;
      if (PMIx_Value_get_number(&i.value, &id, PMIX_SIZE) == PMIX_SUCCESS) a.context_id = id;
    } else if (PMIX_CHECK_KEY(&i, PMIX_GROUP_MEMBERSHIP)) {
      a.membership = groups::ProcsOf(i.value);
    } else if (PMIX_CHECK_KEY(&i, PMIX_GROUP_ENDPT_DATA) && i.value.type == PMIX_BYTE_OBJECT &&
               i.value.data.bo.size > 0) {
      const auto* bytes = reinterpret_cast<const uint8_t*>(i.value.data.bo.bytes);
      auto records = wire::DecodeProcDataBlob({bytes, i.value.data.bo.size});
      if (!records.ok()) continue;  // not ours: another library's encoding
      for (auto& rec : *records) a.data.push_back(std::move(rec));
    }
  }
  return a;
}

// Other nodes' members' data into the store (ours is authoritative here).
std::vector<wire::ProcData> KeepRemote(Server& s, std::vector<wire::ProcData>&& records) {
  std::vector<wire::ProcData> out;
  for (auto& rec : records) {
    if (IsLocal(s, rec.proc)) continue;
    Status stored = rec.proc.rank == PMIX_RANK_WILDCARD ? wire::StoreProcData(s.store, rec, PMIX_GLOBAL)
                                                        : s.modex.AddKvs(rec.proc, PMIX_GLOBAL, rec.kvs.view());
    if (!stored.ok()) continue;
    out.push_back(std::move(rec));
  }
  return out;
}

// Takes a collective out of the tables.
std::pair<std::unique_ptr<Tracker>, std::optional<CollectiveOp>> Take(uint64_t id) {
  State& st = GetState();
  std::unique_ptr<Tracker> t = st.table.Take(id);
  auto it = st.ops.find(id);
  if (t == nullptr || it == st.ops.end()) return {nullptr, std::nullopt};
  CollectiveOp op = std::move(it->second);
  st.ops.erase(it);
  (op.kind == Kind::kConstruct ? st.constructing : st.destructing).erase(op.grp);
  t->timer.reset();
  op.decisions.timer.reset();
  return {std::move(t), std::move(op)};
}

void AnswerAll(const Tracker& t, pmix_status_t status, std::span<const pmix_info_t> results,
               std::span<const JobInfoRecord> jobs, std::span<const wire::ProcData> data) {
  fence::AnswerAll(t, [&](const pmix_bfrops_module_t* codec) {
    wire::Writer w(codec);
    Status packed = PackReply(w, status, results, jobs, data);
    auto body = packed.ok() ? w.Take() : Result<wire::Bytes>(packed);
    return body.ok() ? std::move(*body) : StatusBody(codec, body.status().code());
  });
}

void CompleteConstruct(Server& s, uint64_t id, pmix_status_t status, HostAnswer&& host) {
  auto [t, op] = Take(id);
  if (t == nullptr) return;  // answered already (a late host callback)
  if (status != PMIX_SUCCESS) {
    output::Verbose("server", 2, "group %s: construct failed: %s", op->grp.c_str(),
                    PMIx_Error_string(status));
    return AnswerAll(*t, status, {}, {}, {});
  }
  std::vector<pmix_proc_t> remaining = Remaining(*op);
  groups::Group g = groups::Group::Of(op->grp, host.membership ? *host.membership : remaining);
  g.context_id = host.context_id;
  g.notify_termination = op->notify;
  g.ft_collective = op->ft;
  std::vector<wire::ProcData> data = KeepRemote(s, std::move(host.data));
  for (auto& rec : LocalDataOf(s, g.members)) data.push_back(std::move(rec));
  std::vector<JobInfoRecord> jobs = JobsOf(s, g.members);
  wire::Infos results = ResultsOf(g);
  bool reduced = !SameMembers(g.members, op->members);
  std::vector<pmix_proc_t> members = g.members;
  State& st = GetState();
  st.registry.Erase(op->grp);  // a stale entry (cannot normally exist)
  st.registry.Add(std::move(g)).ok();
  pmix_status_t outcome = reduced ? PMIX_ERR_PARTIAL_SUCCESS : PMIX_SUCCESS;
  AnswerAll(*t, outcome, results.view(), jobs, data);
  if (reduced)
    Raise(s, PMIX_GROUP_MEMBERSHIP_UPDATE, s.myproc, members, op->grp, nullptr, results.view());
}

void CompleteDestruct(Server&, uint64_t id, pmix_status_t status) {
  auto [t, op] = Take(id);
  if (t == nullptr) return;
  if (status == PMIX_SUCCESS && op->failure != PMIX_SUCCESS) status = op->failure;
  State& st = GetState();
  if (status == PMIX_SUCCESS || status == op->failure) {
    st.registry.Erase(op->grp);
    st.broken.erase(op->grp);
  }
  AnswerAll(*t, status, {}, {}, {});
}

void Complete(Server& s, uint64_t id, pmix_status_t status, HostAnswer&& host) {
  auto it = GetState().ops.find(id);
  if (it == GetState().ops.end()) return;
  if (it->second.kind == Kind::kConstruct) return CompleteConstruct(s, id, status, std::move(host));
  CompleteDestruct(s, id, status);
}

// What the upcall reads until its callback.
struct HostArgs {
  std::string grp;
  std::vector<pmix_proc_t> procs;
  wire::Infos directives;
};

Result<wire::Infos> HostDirectives(Server& s, const CollectiveOp& op, const Tracker& t) {
  wire::Infos dirs;
  for (const pmix_info_t& d : t.directives.view())
    if (!OwnedByGroups(d)) PMIX_RETURN_IF_ERROR(dirs.Append(d));
  pmix_status_t local = PMIX_SUCCESS;
  PMIX_RETURN_IF_ERROR(dirs.Add(PMIX_LOCAL_COLLECTIVE_STATUS, &local, PMIX_STATUS));
  if (op.kind == Kind::kDestruct) return dirs;
  bool yes = true;
  for (auto [flag, key] : {std::pair{op.want_context_id, PMIX_GROUP_ASSIGN_CONTEXT_ID},
                           std::pair{op.notify, PMIX_GROUP_NOTIFY_TERMINATION},
                           std::pair{op.optional, PMIX_GROUP_OPTIONAL},
                           std::pair{op.ft, PMIX_GROUP_FT_COLLECTIVE}})
    if (flag) PMIX_RETURN_IF_ERROR(dirs.Add(key, &yes, PMIX_BOOL));
  if (!t.participants.remote) PMIX_RETURN_IF_ERROR(dirs.Add(PMIX_GROUP_LOCAL_ONLY, &yes, PMIX_BOOL));
  // The local members' stored records as remote readers see them, as the
  // fence hands them to fence_nb (wire/proc_data.h blobs).
  wire::Bytes blob;
  for (const auto& who : t.participants.local)
    s.modex.Append(fence::ProcOf(who), PMIX_GDS_VIEW_REMOTE, blob);
  pmix_byte_object_t bo{reinterpret_cast<char*>(blob.data()), blob.size()};
  PMIX_RETURN_IF_ERROR(dirs.Add(PMIX_GROUP_ENDPT_DATA, &bo, PMIX_BYTE_OBJECT));
  return dirs;
}

void CallHost(Server& s, uint64_t id, CollectiveOp& op, Tracker& t) {
  auto dirs = HostDirectives(s, op, t);
  if (!dirs.ok()) return FailCollective(s, id, dirs.status().code());
  auto args = std::make_shared<HostArgs>();
  args->grp = op.grp;
  args->procs = op.kind == Kind::kConstruct ? Remaining(op) : op.members;
  args->directives = std::move(*dirs);
  pmix_group_operation_t kind = op.kind == Kind::kConstruct ? PMIX_GROUP_CONSTRUCT
                                                            : PMIX_GROUP_DESTRUCT;
  pmix_server_grp_fn_t upcall = s.module.group;
  t.host_called = true;
  CallHostForInfos(
      [&](pmix_info_cbfunc_t cbfunc, void* cbdata) {
        return upcall(kind, args->grp.data(), args->procs.data(), args->procs.size(),
                      args->directives.data(), args->directives.size(), cbfunc, cbdata);
      },
      [args, id](pmix_status_t status, wire::Infos&& infos) {
        Server* current = CurrentServer();
        if (current == nullptr) return;
        if (status == PMIX_OPERATION_SUCCEEDED) status = PMIX_SUCCESS;
        Complete(*current, id, status, ReadHostAnswer(infos.view()));
      });
}

void Launch(Server& s, uint64_t id, CollectiveOp& op, Tracker& t) {
  bool need_host = t.participants.remote || (op.kind == Kind::kConstruct && op.want_context_id);
  if (!need_host) return Complete(s, id, PMIX_SUCCESS, HostAnswer{});
  if (s.module.group == nullptr) return FailCollective(s, id, PMIX_ERR_NOT_SUPPORTED);
  CallHost(s, id, op, t);
}

// A timeout: an optional construct done here completes with whoever came.
void Expire(uint64_t id) {
  Server* s = CurrentServer();
  State& st = GetState();
  Tracker* t = st.table.Find(id);
  auto it = st.ops.find(id);
  if (s == nullptr || t == nullptr || it == st.ops.end()) return;
  CollectiveOp& op = it->second;
  if (op.kind == Kind::kConstruct && op.optional && !t->host_called) {
    std::vector<ProcName> missing;
    for (const auto& who : t->participants.local)
      if (t->contributions.count(who) == 0) missing.push_back(who);
    for (const auto& who : missing) DropFromCollective(*s, id, who);
    if (!missing.empty()) return;  // DropFromCollective launched it
  }
  FailCollective(*s, id, PMIX_ERR_TIMEOUT);
}

struct Prepared {
  std::vector<pmix_proc_t> canonical;
  fence::Participants participants;
};

Result<Prepared> Resolve(Server& s, std::span<const pmix_proc_t> members) {
  auto canonical = fence::Canonicalize(members);
  if (!canonical.ok()) return canonical.status();
  bool host = s.module.group != nullptr;
  for (const auto& p : *canonical)
    if (!host && s.FindNamespace(p.nspace) == nullptr) return Status(PMIX_ERR_NOT_SUPPORTED);
  auto participants = fence::Resolve(*canonical, fence::NamespacesOf(s));
  if (!participants.ok()) return participants.status();
  if (participants->remote && !host) return Status(PMIX_ERR_NOT_SUPPORTED);
  return Prepared{std::move(*canonical), std::move(*participants)};
}

// The local participants that died before the collective started.
std::vector<ProcName> AlreadyGone(Server& s, const fence::Participants& participants) {
  std::vector<ProcName> out;
  for (const auto& who : participants.local) {
    auto it = GetState().gone.find(who);
    if (it != GetState().gone.end() && s.FindPeer(fence::ProcOf(who)) == nullptr)
      out.push_back(who);
  }
  return out;
}

// Records a local participant's call (its reply waits in the tracker).
void Record(uint64_t id, const PeerPtr& peer, const ptl::Frame& frame,
            std::span<const pmix_info_t> dirs) {
  Tracker* t = GetState().table.Find(id);
  t->contributions[fence::NameOf(peer->proc)] = fence::Contribution{peer, ReplyHeader(frame)};
  std::optional<int64_t> timeout = InfoInt(dirs, PMIX_TIMEOUT);
  if (timeout && *timeout > 0) fence::ArmDeadline(*t, *timeout, Expire);
}

}  // namespace

void HandleConstruct(Server& s, const PeerPtr& peer, const ptl::Frame& frame, Request&& req) {
  State& st = GetState();
  if (peer->ns == nullptr) return Refuse(peer, frame, PMIX_ERR_NOT_SUPPORTED);
  if (!groups::ValidName(req.grp.c_str()) || s.FindNamespace(req.grp) != nullptr)
    return Refuse(peer, frame, PMIX_ERR_BAD_PARAM);
  if (st.registry.Find(req.grp) != nullptr || st.invites.count(req.grp) != 0)
    return Refuse(peer, frame, PMIX_EXISTS);
  auto translated = TranslateHere(s, req.procs);
  if (!translated.ok()) return Refuse(peer, frame, translated.status().code());
  auto members = groups::ExpandMembers(*translated, JobSizes(s));
  if (!members.ok()) return Refuse(peer, frame, members.status().code());
  ProcName me = fence::NameOf(peer->proc);
  bool in = false;
  for (const auto& m : *members) in = in || fence::NameOf(m) == me;
  if (!in) return Refuse(peer, frame, PMIX_ERR_BAD_PARAM);
  uint64_t id = 0;
  if (auto it = st.constructing.find(req.grp); it != st.constructing.end()) {
    id = it->second;
    Tracker* t = st.table.Find(id);
    if (t->contributions.count(me) != 0 || t->host_called) return Refuse(peer, frame, PMIX_EXISTS);
    if (!SameMembers(st.ops[id].members, *members)) return Refuse(peer, frame, PMIX_ERR_BAD_PARAM);
  } else {
    auto prepared = Resolve(s, *members);
    if (!prepared.ok()) return Refuse(peer, frame, prepared.status().code());
    Tracker& t = st.table.Create(ConstructKey(req.grp), std::move(prepared->canonical),
                                 std::move(prepared->participants));
    id = t.id;
    CollectiveOp& op = st.ops[id];
    op.grp = req.grp;
    op.members = std::move(*members);
    st.constructing[req.grp] = id;
  }
  CollectiveOp& op = st.ops[id];
  if (Status merged = Absorb(op, *st.table.Find(id), me, req.infos.view()); !merged.ok())
    return Refuse(peer, frame, merged.code());
  StoreContribution(s, peer->proc, req.infos.view());
  Record(id, peer, frame, req.infos.view());
  // Members that died before this construct began fail it, or are dropped
  // when the construct tolerates failures.
  bool tolerate = op.optional || op.ft || op.notify;
  for (const ProcName& who : AlreadyGone(s, st.table.Find(id)->participants)) {
    if (!tolerate) return FailCollective(s, id, PMIX_ERR_PROC_TERM_WO_SYNC);
    DropFromCollective(s, id, who, false);
  }
  MaybeLaunch(s, id);
}

void HandleDestruct(Server& s, const PeerPtr& peer, const ptl::Frame& frame, Request&& req) {
  State& st = GetState();
  if (peer->ns == nullptr) return Refuse(peer, frame, PMIX_ERR_NOT_SUPPORTED);
  const groups::Group* g = groups::ValidName(req.grp.c_str()) ? st.registry.Find(req.grp) : nullptr;
  if (g == nullptr) return Refuse(peer, frame, PMIX_ERR_NOT_FOUND);
  if (!g->Has(peer->proc)) return Refuse(peer, frame, PMIX_ERR_BAD_PARAM);
  ProcName me = fence::NameOf(peer->proc);
  uint64_t id = 0;
  if (auto it = st.destructing.find(req.grp); it != st.destructing.end()) {
    id = it->second;
    Tracker* t = st.table.Find(id);
    if (t->contributions.count(me) != 0 || t->host_called) return Refuse(peer, frame, PMIX_EXISTS);
  } else {
    std::vector<pmix_proc_t> members = g->Current();
    auto prepared = Resolve(s, members);
    if (!prepared.ok()) return Refuse(peer, frame, prepared.status().code());
    Tracker& t = st.table.Create(DestructKey(req.grp), std::move(prepared->canonical),
                                 std::move(prepared->participants));
    id = t.id;
    CollectiveOp& op = st.ops[id];
    op.kind = Kind::kDestruct;
    op.grp = req.grp;
    op.members = std::move(members);
    op.notify = g->notify_termination;
    op.ft = g->ft_collective;
    if (st.broken.count(req.grp) != 0) op.failure = PMIX_ERR_PROC_TERM_WO_SYNC;
    st.destructing[req.grp] = id;
  }
  CollectiveOp& op = st.ops[id];
  op.ft = op.ft || InfoFlag(req.infos.view(), PMIX_GROUP_FT_COLLECTIVE);
  if (Status merged = fence::MergeDirectives(*st.table.Find(id), req.infos.view()); !merged.ok())
    return Refuse(peer, frame, merged.code());
  Record(id, peer, frame, req.infos.view());
  MaybeLaunch(s, id);
}

void TellHostFailed(Server& s, uint64_t id, pmix_status_t status) {
  State& st = GetState();
  Tracker* t = st.table.Find(id);
  auto it = st.ops.find(id);
  if (t == nullptr || it == st.ops.end() || !t->participants.remote || t->host_called ||
      s.module.group == nullptr)
    return;
  auto args = std::make_shared<HostArgs>();
  args->grp = it->second.grp;
  args->procs = Remaining(it->second);
  if (!args->directives.Add(PMIX_LOCAL_COLLECTIVE_STATUS, &status, PMIX_STATUS).ok()) return;
  pmix_group_operation_t kind = it->second.kind == Kind::kConstruct ? PMIX_GROUP_CONSTRUCT
                                                                    : PMIX_GROUP_DESTRUCT;
  pmix_server_grp_fn_t upcall = s.module.group;
  t->host_called = true;
  CallHostForInfos(
      [&](pmix_info_cbfunc_t cbfunc, void* cbdata) {
        return upcall(kind, args->grp.data(), args->procs.data(), args->procs.size(),
                      args->directives.data(), args->directives.size(), cbfunc, cbdata);
      },
      [args](pmix_status_t, wire::Infos&&) {});  // the collective fails here anyway
}

void MaybeLaunch(Server& s, uint64_t id) {
  State& st = GetState();
  Tracker* t = st.table.Find(id);
  auto it = st.ops.find(id);
  if (t == nullptr || it == st.ops.end()) return;
  if (t->host_called || it->second.decisions.Pending() || !t->Ready()) return;
  Launch(s, id, it->second, *t);
}

void FailCollective(Server& s, uint64_t id, pmix_status_t status) {
  auto it = GetState().ops.find(id);
  if (it == GetState().ops.end()) return;
  if (it->second.kind == Kind::kConstruct) return CompleteConstruct(s, id, status, HostAnswer{});
  CompleteDestruct(s, id, status);
}

bool DropFromCollective(Server& s, uint64_t id, const ProcName& who, bool launch) {
  State& st = GetState();
  Tracker* t = st.table.Find(id);
  auto it = st.ops.find(id);
  if (t == nullptr || it == st.ops.end() || it->second.dropped.count(who) != 0) return false;
  bool member = false;
  for (const auto& m : it->second.members) member = member || fence::NameOf(m) == who;
  if (!member) return false;
  it->second.dropped.insert(who);
  t->participants.local.erase(who);
  t->contributions.erase(who);
  if (launch) MaybeLaunch(s, id);
  return true;
}

}  // namespace group

void HandleGroup(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  wire::Reader r(peer->conn->codec(), frame.payload);
  auto req = group::UnpackRequest(r);
  if (!req.ok()) {
    // A malformed decision is one-way: nothing to answer.
    group::ReplyTo(peer, ReplyHeader(frame), req.status().code());
    return;
  }
  switch (req->op) {
    case group::Op::kConstruct: return group::HandleConstruct(s, peer, frame, std::move(*req));
    case group::Op::kDestruct: return group::HandleDestruct(s, peer, frame, std::move(*req));
    case group::Op::kInvite: return group::HandleInvite(s, peer, frame, std::move(*req));
    case group::Op::kJoin: return group::HandleJoin(s, peer, frame, std::move(*req));
    case group::Op::kLeave: return group::HandleLeave(s, peer, frame, std::move(*req));
    case group::Op::kDecision: return group::HandleDecision(s, peer, std::move(*req));
  }
}

}  // namespace pmix::server
