// Group members that leave or die, leader elections and the verdicts of
// event handlers (server_group.h; docs/groups.md has the rules).
#include <utility>

#include "pmix.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/runtime/context.h"
#include "src/server/server_fence.h"
#include "src/server/server_group.h"
#include "src/server/server_group_state.h"
#include "src/server/server_upcall.h"

namespace pmix::server {
namespace group {
namespace {

CollectiveOp* ConstructOf(const std::string& grp, uint64_t* id) {
  State& st = GetState();
  auto it = st.constructing.find(grp);
  if (it == st.constructing.end()) return nullptr;
  *id = it->second;
  return &st.ops[it->second];
}

InviteOp* InviteOf(const std::string& grp) {
  auto& invites = GetState().invites;
  auto it = invites.find(grp);
  return it == invites.end() ? nullptr : &it->second;
}

std::vector<pmix_proc_t> Remaining(const CollectiveOp& op) {
  std::vector<pmix_proc_t> out;
  for (const auto& m : op.members)
    if (op.dropped.count(fence::NameOf(m)) == 0) out.push_back(m);
  return out;
}

std::vector<pmix_proc_t> StillInvited(const InviteOp& op) {
  std::vector<pmix_proc_t> out;
  for (const auto& m : op.members)
    if (op.answers.at(fence::NameOf(m)) != Answer::kDropped) out.push_back(m);
  return out;
}

// What a process's handlers returned.
struct Verdict {
  bool abort = false;
  bool claim = false;
};

Verdict Read(std::span<const pmix_info_t> results) {
  Verdict v;
  for (const pmix_info_t& r : results) {
    if (r.value.type == PMIX_STATUS && r.value.data.status == PMIX_GROUP_CONSTRUCT_ABORT)
      v.abort = true;
    if (PMIX_CHECK_KEY(&r, PMIX_GROUP_LEADER) && event::InfoFlag(r)) v.claim = true;
  }
  return v;
}

// Ends a LEADER_FAILED round: the first claimer leads (none: the operation
// goes on without a leader) and every participant hears who it is.
void CloseElection(Server& s, const std::string& grp) {
  uint64_t id = 0;
  CollectiveOp* op = ConstructOf(grp, &id);
  InviteOp* inv = op == nullptr ? InviteOf(grp) : nullptr;
  Decisions* d = op != nullptr ? &op->decisions : inv != nullptr ? &inv->decisions : nullptr;
  if (d == nullptr || !d->electing) return;
  d->electing = false;
  d->awaiting.clear();
  d->timer.reset();
  std::vector<pmix_proc_t> targets = op != nullptr ? Remaining(*op) : StillInvited(*inv);
  wire::Infos extra;
  if (d->claimer) {
    pmix_proc_t leader = fence::ProcOf(*d->claimer);
    if (op != nullptr) op->leader = *d->claimer;
    if (inv != nullptr) {
      inv->leader = leader;
      inv->has_leader = true;
    }
    bool yes = true;
    extra.Add(PMIX_GROUP_LEADER, &yes, PMIX_BOOL).ok();
    Raise(s, PMIX_GROUP_LEADER_SELECTED, leader, targets, grp, &leader, extra.view());
  } else {
    bool no = false;
    extra.Add(PMIX_GROUP_LEADER, &no, PMIX_BOOL).ok();
    Raise(s, PMIX_GROUP_LEADER_SELECTED, s.myproc, targets, grp, nullptr, extra.view());
  }
  if (op != nullptr) return MaybeLaunch(s, id);
  MaybeCompleteInvite(s, grp);
}

// A construct member is gone.
void ConstructMemberLost(Server& s, uint64_t id, const pmix_proc_t& who) {
  CollectiveOp& op = GetState().ops[id];
  ProcName name = fence::NameOf(who);
  std::string grp = op.grp;
  if (op.leader && *op.leader == name) {
    op.leader.reset();
    DropFromCollective(s, id, name, false);
    StartElection(s, op.decisions, grp, who, Remaining(op));
    if (!op.decisions.electing) MaybeLaunch(s, id);
    return;
  }
  if (op.optional || op.ft) {
    DropFromCollective(s, id, name);
    return;
  }
  if (!op.notify) {
    TellHostFailed(s, id, PMIX_ERR_PROC_TERM_WO_SYNC);
    return FailCollective(s, id, PMIX_ERR_PROC_TERM_WO_SYNC);
  }
  DropFromCollective(s, id, name, false);
  std::vector<pmix_proc_t> targets = Remaining(op);
  if (op.leader) targets = {fence::ProcOf(*op.leader)};
  Raise(s, PMIX_GROUP_MEMBER_FAILED, who, targets, grp, &who);
  if (op.leader && IsConnected(s, fence::ProcOf(*op.leader))) {
    op.decisions.awaiting.insert(*op.leader);
    ArmDecisionTimer(op.decisions, [grp] {
      uint64_t live_id = 0;
      CollectiveOp* live = ConstructOf(grp, &live_id);
      Server* current = CurrentServer();
      if (live == nullptr || current == nullptr) return;
      live->decisions.awaiting.clear();
      MaybeLaunch(*current, live_id);
    });
  }
  MaybeLaunch(s, id);
}

void DestructMemberLost(Server& s, uint64_t id, const pmix_proc_t& who) {
  CollectiveOp& op = GetState().ops[id];
  if (!op.notify && !op.ft) op.failure = PMIX_ERR_PROC_TERM_WO_SYNC;
  DropFromCollective(s, id, fence::NameOf(who));
}

void InviteMemberLost(Server& s, const std::string& grp, const pmix_proc_t& who) {
  InviteOp* op = InviteOf(grp);
  ProcName name = fence::NameOf(who);
  auto it = op->answers.find(name);
  if (it == op->answers.end() || it->second == Answer::kDropped) return;
  if (op->has_leader && groups::SameProc(op->leader, who)) {
    it->second = Answer::kDropped;
    op->has_leader = false;
    op->decisions.awaiting.clear();  // its verdicts will not come
    StartElection(s, op->decisions, grp, who, StillInvited(*op));
    if (!op->decisions.electing) MaybeCompleteInvite(s, grp);
    return;
  }
  if (it->second == Answer::kPending)
    return OnInviteAnswer(s, *op, who, Answer::kDropped, PMIX_GROUP_INVITE_FAILED);
  it->second = Answer::kDropped;  // accepted, then died before completion
  MaybeCompleteInvite(s, grp);
}

// A member of a constructed group is gone (left, died, finalized).
void GroupMemberLost(Server& s, const std::string& grp, const pmix_proc_t& who, bool died,
                     pmix_status_t event) {
  State& st = GetState();
  groups::Group* g = st.registry.Find(grp);
  if (g == nullptr || !g->Remove(who)) return;
  if (died && !g->notify_termination) st.broken.insert(grp);
  std::vector<pmix_proc_t> remaining = g->Current();
  if (event == PMIX_GROUP_LEFT || g->notify_termination)
    Raise(s, event, who, remaining, grp, &who);
  bool local_left = false;
  for (const auto& m : remaining) local_left = local_left || IsLocal(s, m);
  if (auto it = st.destructing.find(grp); it != st.destructing.end()) {
    if (!died) {
      DropFromCollective(s, it->second, fence::NameOf(who));
    } else {
      DestructMemberLost(s, it->second, who);
    }
  }
  if (!local_left && st.destructing.count(grp) == 0) {
    st.registry.Erase(grp);
    st.broken.erase(grp);
  }
}

}  // namespace

void ArmDecisionTimer(Decisions& d, std::function<void()> expire) {
  if (d.timer != nullptr || runtime::Engine() == nullptr) return;
  d.timer = runtime::Engine()->AddTimer(kDecisionWait, std::move(expire));
}

void StartElection(Server& s, Decisions& d, const std::string& grp, const pmix_proc_t& dead,
                   std::span<const pmix_proc_t> targets) {
  d.electing = true;
  d.claimer.reset();
  d.awaiting.clear();
  d.timer.reset();
  for (const auto& t : targets)
    if (IsConnected(s, t)) d.awaiting.insert(fence::NameOf(t));
  Raise(s, PMIX_GROUP_LEADER_FAILED, dead, targets, grp, &dead);
  if (d.awaiting.empty()) {
    CloseElection(s, grp);
    return;
  }
  ArmDecisionTimer(d, [grp] {
    if (Server* current = CurrentServer(); current != nullptr) CloseElection(*current, grp);
  });
}

void HandleDecision(Server& s, const PeerPtr& peer, Request&& req) {
  Verdict v = Read(req.infos.view());
  ProcName sender = fence::NameOf(peer->proc);
  uint64_t id = 0;
  if (CollectiveOp* op = ConstructOf(req.grp, &id); op != nullptr) {
    Decisions& d = op->decisions;
    if (d.electing && req.code == PMIX_GROUP_LEADER_FAILED) {
      d.awaiting.erase(sender);
      if (v.claim && !d.claimer) d.claimer = sender;
    } else if (req.code == PMIX_GROUP_MEMBER_FAILED) {
      d.awaiting.erase(sender);
    }
    if (v.abort) {
      Raise(s, PMIX_GROUP_CONSTRUCT_ABORT, peer->proc, Remaining(*op), req.grp, nullptr);
      return FailCollective(s, id, PMIX_GROUP_CONSTRUCT_ABORT);
    }
    if (d.electing && d.awaiting.empty()) return CloseElection(s, req.grp);
    if (d.awaiting.empty()) d.timer.reset();
    return MaybeLaunch(s, id);
  }
  InviteOp* op = InviteOf(req.grp);
  if (op == nullptr) return;  // over already
  Decisions& d = op->decisions;
  if (d.electing && req.code == PMIX_GROUP_LEADER_FAILED) {
    d.awaiting.erase(sender);
    if (v.claim && !d.claimer) d.claimer = sender;
  } else if (!d.electing && op->has_leader && groups::SameProc(op->leader, peer->proc) &&
             req.procs.size() == 1) {
    d.awaiting.erase(fence::NameOf(req.procs[0]));
  }
  if (v.abort) return AbortInvite(s, req.grp, PMIX_GROUP_CONSTRUCT_ABORT);
  if (d.electing && d.awaiting.empty()) return CloseElection(s, req.grp);
  if (d.awaiting.empty()) d.timer.reset();
  MaybeCompleteInvite(s, req.grp);
}

void HandleLeave(Server& s, const PeerPtr& peer, const ptl::Frame& frame, Request&& req) {
  State& st = GetState();
  auto reply = [&](pmix_status_t status) { ReplyTo(peer, ReplyHeader(frame), status); };
  if (st.constructing.count(req.grp) != 0 || st.invites.count(req.grp) != 0)
    return reply(PMIX_ERR_INVALID_OPERATION);  // not while it is being built
  groups::Group* g = st.registry.Find(req.grp);
  if (g == nullptr || !g->Has(peer->proc)) return reply(PMIX_ERR_NOT_FOUND);
  GroupMemberLost(s, req.grp, peer->proc, false, PMIX_GROUP_LEFT);
  FenceOnParticipantLeft(s, peer->proc);
  reply(PMIX_SUCCESS);
}

}  // namespace group

void GroupOnPeerLost(Server& s, const PeerPtr& peer) {
  if (peer->ns == nullptr) return;
  using namespace group;
  State& st = GetState();
  const pmix_proc_t who = peer->proc;
  ProcName name = fence::NameOf(who);
  bool died = !peer->finalized;
  if (died) st.gone[name] = PMIX_ERR_PROC_TERM_WO_SYNC;
  for (auto it = st.joins.begin(); it != st.joins.end();) {
    PeerPtr waiting = it->second.peer.lock();
    it = waiting == nullptr || waiting == peer ? st.joins.erase(it) : std::next(it);
  }
  for (uint64_t id : st.table.Ids()) {
    fence::Tracker* t = st.table.Find(id);
    auto op = st.ops.find(id);
    if (t == nullptr || op == st.ops.end() || t->participants.local.count(name) == 0) continue;
    if (peer->finalized && t->contributions.count(name) != 0) continue;  // its call stands
    // (a destruct's members are the group's: handled with the group below)
    if (op->second.kind == Kind::kConstruct) ConstructMemberLost(s, id, who);
  }
  std::vector<std::string> invites;
  for (const auto& entry : st.invites) invites.push_back(entry.first);
  for (const auto& grp : invites)
    if (st.invites.count(grp) != 0) InviteMemberLost(s, grp, who);
  for (const auto& grp : st.registry.NamesOf(who))
    GroupMemberLost(s, grp, who, died, PMIX_GROUP_MEMBER_FAILED);
}

void GroupOnNamespaceGone(Server& s, const std::string& nspace) {
  using namespace group;
  State& st = GetState();
  for (uint64_t id : st.table.Ids()) {
    auto op = st.ops.find(id);
    if (op == st.ops.end()) continue;
    bool involved = false;
    for (const auto& m : op->second.members) involved = involved || fence::NameOf(m).nspace == nspace;
    if (involved) FailCollective(s, id, PMIX_ERR_NOT_FOUND);
  }
  std::vector<std::string> invites;
  for (const auto& [grp, op] : st.invites)
    for (const auto& m : op.members)
      if (fence::NameOf(m).nspace == nspace) {
        invites.push_back(grp);
        break;
      }
  for (const auto& grp : invites) AbortInvite(s, grp, PMIX_ERR_NOT_FOUND);
  std::vector<std::string> drop;
  for (auto& [grp, g] : st.registry.all()) {
    bool local_left = false;
    for (size_t i = 0; i < g.members.size(); ++i) {
      if (fence::NameOf(g.members[i]).nspace == nspace) g.present[i] = false;
      local_left = local_left || (g.present[i] && IsLocal(s, g.members[i]));
    }
    if (!local_left) drop.push_back(grp);
  }
  for (const auto& grp : drop) {
    st.registry.Erase(grp);
    st.broken.erase(grp);
  }
  for (auto it = st.gone.begin(); it != st.gone.end();)
    it = it->first.nspace == nspace ? st.gone.erase(it) : std::next(it);
}

void GroupShutdown(Server& s) {
  using namespace group;
  State& st = GetState();
  for (uint64_t id : st.table.Ids()) FailCollective(s, id, PMIX_ERR_INIT);
  std::vector<std::string> invites;
  for (const auto& entry : st.invites) invites.push_back(entry.first);
  for (const auto& grp : invites) {
    auto node = st.invites.extract(grp);
    ReplyTo(node.mapped().caller, node.mapped().reply_to, PMIX_ERR_INIT);
  }
  for (auto& [id, wait] : st.joins) ReplyTo(wait.peer, wait.reply_to, PMIX_ERR_INIT);
  st.joins.clear();
  st.registry.Clear();
  st.broken.clear();
  st.gone.clear();
}

}  // namespace pmix::server
