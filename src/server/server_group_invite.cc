// Invitations on the server (PMIx_Group_invite / PMIx_Group_join, standard
// §14.2.10-13): the inviter's server keeps the invitation; every answer
// reaches the leader as an event (PMIX_GROUP_INVITE_ACCEPTED / _DECLINED /
// _FAILED), whose handlers' verdict comes back as a decision; when every
// invited process answered (or failed, or the timeout struck) the group is
// complete: PMIX_GROUP_CONSTRUCT_COMPLETE goes to its members, the
// inviter's call returns and so do the accepting members' joins.
#include <utility>

#include "pmix.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/runtime/context.h"
#include "src/server/server_group.h"
#include "src/server/server_group_state.h"
#include "src/server/server_upcall.h"

namespace pmix::server::group {
namespace {

void Refuse(const PeerPtr& peer, const ptl::Frame& frame, pmix_status_t status) {
  ReplyTo(peer, ReplyHeader(frame), status);
}

InviteOp* FindInvite(const std::string& grp) {
  auto& invites = GetState().invites;
  auto it = invites.find(grp);
  return it == invites.end() ? nullptr : &it->second;
}

std::vector<pmix_proc_t> Accepted(const InviteOp& op) {
  std::vector<pmix_proc_t> out;
  for (const auto& m : op.members) {
    auto it = op.answers.find(fence::NameOf(m));
    if (it != op.answers.end() && it->second == Answer::kAccepted) out.push_back(m);
  }
  return out;
}

// Everyone still in the invitation (answered yes or not yet).
std::vector<pmix_proc_t> StillIn(const InviteOp& op) {
  std::vector<pmix_proc_t> out;
  for (const auto& m : op.members)
    if (op.answers.at(fence::NameOf(m)) != Answer::kDropped) out.push_back(m);
  return out;
}

void OnTimeout(const std::string& grp);

void FinishInvite(Server& s, const std::string& grp, std::optional<size_t> context_id) {
  State& st = GetState();
  auto node = st.invites.extract(grp);
  if (node.empty()) return;
  InviteOp& op = node.mapped();
  groups::Group g = groups::Group::Of(grp, Accepted(op));
  g.context_id = context_id;
  g.notify_termination = op.notify;
  g.ft_collective = op.ft;
  wire::Infos results = ResultsOf(g);
  std::vector<pmix_proc_t> members = g.members;
  bool reduced = members.size() != op.members.size();
  st.registry.Erase(grp);
  st.registry.Add(std::move(g)).ok();
  pmix_proc_t source = op.has_leader ? op.leader : s.myproc;
  Raise(s, PMIX_GROUP_CONSTRUCT_COMPLETE, source, members, grp, nullptr, results.view());
  if (context_id) Raise(s, PMIX_GROUP_CONTEXT_ID_ASSIGNED, source, members, grp, nullptr,
                        results.view());
  if (reduced) Raise(s, PMIX_GROUP_MEMBERSHIP_UPDATE, source, members, grp, nullptr,
                     results.view());
  auto jobs = JobsOf(s, members);
  auto data = LocalDataOf(s, members);
  ReplyTo(op.caller, op.reply_to, PMIX_SUCCESS, results.view(), jobs, data);
  AnswerJoins(s, grp, PMIX_SUCCESS);
}

// The host assigns the context id of an invited group: the leader's server
// alone calls the upcall (PMIX_GROUP_LEADER says so), over the final members.
void AskContextId(Server& s, InviteOp& op) {
  if (s.module.group == nullptr) return AbortInvite(s, op.grp, PMIX_ERR_NOT_SUPPORTED);
  struct Args {
    std::string grp;
    std::vector<pmix_proc_t> procs;
    wire::Infos dirs;
  };
  auto args = std::make_shared<Args>();
  args->grp = op.grp;
  args->procs = Accepted(op);
  bool yes = true;
  pmix_status_t local = PMIX_SUCCESS;
  Status added = args->dirs.Add(PMIX_GROUP_ASSIGN_CONTEXT_ID, &yes, PMIX_BOOL);
  if (added.ok()) added = args->dirs.Add(PMIX_GROUP_LEADER, &yes, PMIX_BOOL);
  if (added.ok()) added = args->dirs.Add(PMIX_LOCAL_COLLECTIVE_STATUS, &local, PMIX_STATUS);
  if (!added.ok()) return AbortInvite(s, op.grp, added.code());
  op.completing = true;
  pmix_server_grp_fn_t upcall = s.module.group;
  CallHostForInfos(
      [&](pmix_info_cbfunc_t cbfunc, void* cbdata) {
        return upcall(PMIX_GROUP_CONSTRUCT, args->grp.data(), args->procs.data(),
                      args->procs.size(), args->dirs.data(), args->dirs.size(), cbfunc, cbdata);
      },
      [args](pmix_status_t status, wire::Infos&& infos) {
        Server* s = CurrentServer();
        if (s == nullptr || FindInvite(args->grp) == nullptr) return;
        if (status != PMIX_SUCCESS && status != PMIX_OPERATION_SUCCEEDED)
          return AbortInvite(*s, args->grp, status);
        std::optional<size_t> id;
        const pmix_info_t* ctx = FindInfo(infos.view(), PMIX_GROUP_CONTEXT_ID);
        size_t value = 0;
        if (ctx != nullptr && PMIx_Value_get_number(&ctx->value, &value, PMIX_SIZE) == PMIX_SUCCESS)
          id = value;
        FinishInvite(*s, args->grp, id);
      });
}

void OnTimeout(const std::string& grp) {
  Server* s = CurrentServer();
  InviteOp* op = FindInvite(grp);
  if (s == nullptr || op == nullptr) return;
  op->timeout.reset();
  std::vector<pmix_proc_t> silent;
  for (const auto& m : op->members)
    if (op->answers[fence::NameOf(m)] == Answer::kPending) silent.push_back(m);
  if (!op->optional && !silent.empty()) op->timed_out = true;
  for (const auto& m : silent) {
    if (FindInvite(grp) == nullptr) return;
    OnInviteAnswer(*s, *op, m, Answer::kDropped, PMIX_GROUP_INVITE_FAILED);
  }
  MaybeCompleteInvite(*s, grp);
}

}  // namespace

void HandleInvite(Server& s, const PeerPtr& peer, const ptl::Frame& frame, Request&& req) {
  State& st = GetState();
  if (peer->ns == nullptr) return Refuse(peer, frame, PMIX_ERR_NOT_SUPPORTED);
  if (!groups::ValidName(req.grp.c_str()) || s.FindNamespace(req.grp) != nullptr)
    return Refuse(peer, frame, PMIX_ERR_BAD_PARAM);
  if (st.registry.Find(req.grp) != nullptr || st.invites.count(req.grp) != 0 ||
      st.constructing.count(req.grp) != 0)
    return Refuse(peer, frame, PMIX_EXISTS);
  auto translated = TranslateHere(s, req.procs);
  if (!translated.ok()) return Refuse(peer, frame, translated.status().code());
  auto members = groups::ExpandMembers(*translated, JobSizes(s));
  if (!members.ok()) return Refuse(peer, frame, members.status().code());
  bool in = false;
  for (const auto& m : *members) in = in || groups::SameProc(m, peer->proc);
  if (!in) members->insert(members->begin(), peer->proc);  // the inviter is a member
  InviteOp& op = st.invites[req.grp];
  op.grp = req.grp;
  op.leader = peer->proc;
  op.caller = peer;
  op.reply_to = ReplyHeader(frame);
  op.members = std::move(*members);
  for (const auto& m : op.members)
    op.answers[fence::NameOf(m)] =
        groups::SameProc(m, peer->proc) ? Answer::kAccepted : Answer::kPending;
  auto dirs = req.infos.view();
  op.optional = InfoFlag(dirs, PMIX_GROUP_OPTIONAL);
  op.notify = InfoFlag(dirs, PMIX_GROUP_NOTIFY_TERMINATION);
  op.ft = InfoFlag(dirs, PMIX_GROUP_FT_COLLECTIVE);
  op.want_context_id = InfoFlag(dirs, PMIX_GROUP_ASSIGN_CONTEXT_ID);
  StoreContribution(s, peer->proc, dirs);
  std::optional<int64_t> timeout = InfoInt(dirs, PMIX_TIMEOUT);
  if (timeout && *timeout > 0 && runtime::Engine() != nullptr)
    op.timeout = runtime::Engine()->AddTimer(std::chrono::seconds(*timeout),
                                             [grp = req.grp] { OnTimeout(grp); });
  wire::Infos extra;
  groups::AddProcArray(extra, PMIX_GROUP_MEMBERSHIP, op.members).ok();
  std::string grp = req.grp;
  std::vector<pmix_proc_t> everyone = op.members;
  Raise(s, PMIX_GROUP_INVITED, peer->proc, everyone, grp, nullptr, extra.view());
  // Invited local processes that are dead already cannot answer.
  for (const auto& m : everyone) {
    InviteOp* live = FindInvite(grp);
    if (live == nullptr) return;
    auto gone = st.gone.find(fence::NameOf(m));
    if (gone != st.gone.end() && !IsConnected(s, m))
      OnInviteAnswer(s, *live, m, Answer::kDropped, PMIX_GROUP_INVITE_FAILED);
  }
  MaybeCompleteInvite(s, grp);
}

void HandleJoin(Server& s, const PeerPtr& peer, const ptl::Frame& frame, Request&& req) {
  State& st = GetState();
  if (peer->ns == nullptr) return Refuse(peer, frame, PMIX_ERR_NOT_SUPPORTED);
  if (!groups::ValidName(req.grp.c_str()) || req.procs.size() != 1)
    return Refuse(peer, frame, PMIX_ERR_BAD_PARAM);
  bool accept = req.opt == PMIX_GROUP_ACCEPT;
  InviteOp* op = FindInvite(req.grp);
  if (op == nullptr && IsLocal(s, req.procs[0])) return Refuse(peer, frame, PMIX_ERR_NOT_FOUND);
  if (op != nullptr && op->answers.count(fence::NameOf(peer->proc)) == 0)
    return Refuse(peer, frame, PMIX_ERR_NOT_FOUND);  // not invited
  if (accept) {
    uint64_t id = st.next_join++;
    JoinWait& wait = st.joins[id];
    wait.grp = req.grp;
    wait.peer = peer;
    wait.reply_to = ReplyHeader(frame);
    std::optional<int64_t> timeout = InfoInt(req.infos.view(), PMIX_TIMEOUT);
    if (timeout && *timeout > 0 && runtime::Engine() != nullptr)
      wait.timeout = runtime::Engine()->AddTimer(std::chrono::seconds(*timeout), [id] {
        auto& joins = GetState().joins;
        auto it = joins.find(id);
        if (it == joins.end()) return;
        ReplyTo(it->second.peer, it->second.reply_to, PMIX_ERR_TIMEOUT);
        joins.erase(it);
      });
  } else {
    ReplyTo(peer, ReplyHeader(frame), PMIX_SUCCESS);
  }
  pmix_status_t code = accept ? PMIX_GROUP_INVITE_ACCEPTED : PMIX_GROUP_INVITE_DECLINED;
  if (op != nullptr) {
    StoreContribution(s, peer->proc, req.infos.view());
    return OnInviteAnswer(s, *op, peer->proc, accept ? Answer::kAccepted : Answer::kDropped, code);
  }
  // The leader lives on another node: its server learns through the host.
  Raise(s, code, peer->proc, req.procs, req.grp, &peer->proc);
}

void OnInviteAnswer(Server& s, InviteOp& op, const pmix_proc_t& who, Answer answer,
                    pmix_status_t event, bool raise) {
  ProcName name = fence::NameOf(who);
  auto it = op.answers.find(name);
  if (it == op.answers.end() || it->second != Answer::kPending) return;
  it->second = answer;
  if (!op.has_leader) return MaybeCompleteInvite(s, op.grp);
  pmix_proc_t leader = op.leader;
  if (raise) Raise(s, event, who, std::span<const pmix_proc_t>(&leader, 1), op.grp, &who);
  // The leader's handlers may abort: wait for their verdict when it can come.
  if (IsConnected(s, leader)) {
    op.decisions.awaiting.insert(name);
    std::string grp = op.grp;
    ArmDecisionTimer(op.decisions, [grp] {
      InviteOp* live = FindInvite(grp);
      Server* current = CurrentServer();
      if (live == nullptr || current == nullptr) return;
      live->decisions.awaiting.clear();
      MaybeCompleteInvite(*current, grp);
    });
  }
  MaybeCompleteInvite(s, op.grp);
}

void MaybeCompleteInvite(Server& s, const std::string& grp) {
  InviteOp* op = FindInvite(grp);
  if (op == nullptr || op->completing || op->decisions.Pending()) return;
  for (const auto& [who, answer] : op->answers)
    if (answer == Answer::kPending) return;
  op->decisions.timer.reset();
  op->timeout.reset();
  if (op->timed_out) return AbortInvite(s, grp, PMIX_ERR_TIMEOUT);
  if (Accepted(*op).empty()) return AbortInvite(s, grp, PMIX_GROUP_CONSTRUCT_ABORT);
  if (op->want_context_id) return AskContextId(s, *op);
  FinishInvite(s, grp, std::nullopt);
}

void AbortInvite(Server& s, const std::string& grp, pmix_status_t status) {
  auto node = GetState().invites.extract(grp);
  if (node.empty()) return;
  InviteOp& op = node.mapped();
  output::Verbose("server", 2, "group %s: invitation ended: %s", grp.c_str(),
                  PMIx_Error_string(status));
  std::vector<pmix_proc_t> targets = StillIn(op);
  Raise(s, PMIX_GROUP_CONSTRUCT_ABORT, op.has_leader ? op.leader : s.myproc, targets, grp,
        nullptr);
  ReplyTo(op.caller, op.reply_to, status);
  AnswerJoins(s, grp, status == PMIX_ERR_TIMEOUT ? status : PMIX_GROUP_CONSTRUCT_ABORT);
}

}  // namespace pmix::server::group
