// Internal to the server's process groups (server_group*.cc): the state
// they share and the helpers they call each other through. The contract
// the rest of the server sees is server_group.h.
//
// Threads: progress thread only.
#ifndef PMIXX_SRC_SERVER_SERVER_GROUP_STATE_H
#define PMIXX_SRC_SERVER_SERVER_GROUP_STATE_H

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "src/groups/group_table.h"
#include "src/server/server_fence.h"
#include "src/server/server_group_msg.h"
#include "src/server/server_state.h"

namespace pmix::server::group {

using fence::ProcName;

// How long the server waits for a process's event handlers to decide
// (leader election, a leader's verdict on a failed or answering member)
// before it goes on with the default: a handler that never completes must
// not hold the others forever.
inline constexpr std::chrono::seconds kDecisionWait{10};

// Handler decisions the server waits for, and what they said.
struct Decisions {
  std::set<ProcName> awaiting;
  std::optional<ProcName> claimer;  // the first process that claimed leadership
  bool electing = false;            // a LEADER_FAILED round is open
  std::unique_ptr<runtime::ProgressEngine::Timer> timer;
  bool Pending() const { return electing || !awaiting.empty(); }
};

enum class Kind { kConstruct, kDestruct };

// A construct or destruct collective: what it needs beyond its tracker
// (State::table, keyed "group-construct|destruct\n<grp>").
struct CollectiveOp {
  Kind kind = Kind::kConstruct;
  std::string grp;
  std::vector<pmix_proc_t> members;  // construct: group-rank order; destruct: current members
  std::set<ProcName> dropped;        // members that died (or left) on the way
  bool optional = false;             // PMIX_GROUP_OPTIONAL
  bool notify = false;               // PMIX_GROUP_NOTIFY_TERMINATION
  bool ft = false;                   // PMIX_GROUP_FT_COLLECTIVE
  bool want_context_id = false;      // PMIX_GROUP_ASSIGN_CONTEXT_ID
  std::optional<ProcName> leader;    // PMIX_GROUP_LEADER
  pmix_status_t failure = PMIX_SUCCESS;  // destruct: a member died unannounced
  Decisions decisions;
};

enum class Answer { kPending, kAccepted, kDropped };

// An invitation (PMIx_Group_invite), kept by the inviting process's server.
struct InviteOp {
  std::string grp;
  pmix_proc_t leader{};                // the current leader
  bool has_leader = true;
  std::weak_ptr<Peer> caller;          // the inviter, whose request is answered at the end
  ptl::Frame reply_to;
  std::vector<pmix_proc_t> members;    // as invited (the inviter included), group-rank order
  std::map<ProcName, Answer> answers;
  bool optional = false;
  bool notify = false;
  bool ft = false;
  bool want_context_id = false;
  bool timed_out = false;
  bool completing = false;             // the host is assigning the context id
  std::unique_ptr<runtime::ProgressEngine::Timer> timeout;
  Decisions decisions;
};

// A PMIx_Group_join that accepted, waiting for the group to complete.
struct JoinWait {
  std::string grp;
  std::weak_ptr<Peer> peer;
  ptl::Frame reply_to;
  std::unique_ptr<runtime::ProgressEngine::Timer> timeout;
};

struct State {
  fence::Table table;                                         // construct/destruct trackers
  std::map<uint64_t, CollectiveOp> ops;                       // by tracker id
  std::map<std::string, uint64_t, std::less<>> constructing;  // group -> tracker id
  std::map<std::string, uint64_t, std::less<>> destructing;
  groups::Table registry;                                     // groups with members here
  std::set<std::string, std::less<>> broken;                  // lost a member unannounced
  std::map<std::string, InviteOp, std::less<>> invites;
  std::map<uint64_t, JoinWait> joins;
  uint64_t next_join = 1;
  std::map<ProcName, pmix_status_t> gone;  // local processes that died (until they reconnect)
};
// Never destroyed (timers inside must not outlive the engine at exit).
State& GetState();

// --- shared helpers (server_group.cc) ---------------------------------------

// Answers a request of `peer` with a kGroup reply.
void ReplyTo(const std::weak_ptr<Peer>& peer, const ptl::Frame& request, pmix_status_t status,
             std::span<const pmix_info_t> results = {}, std::span<const JobInfoRecord> jobs = {},
             std::span<const wire::ProcData> data = {});
// The results of a completed construction: context id (when there is
// one) first, then the membership.
wire::Infos ResultsOf(const groups::Group& g);
// What the members of a new group receive: the job info of their
// namespaces and the local members' data.
std::vector<JobInfoRecord> JobsOf(Server& s, std::span<const pmix_proc_t> members);
std::vector<wire::ProcData> LocalDataOf(Server& s, std::span<const pmix_proc_t> members);
// Whether `proc` is a client of this server (registered local rank).
bool IsLocal(Server& s, const pmix_proc_t& proc);
// A connected local client.
bool IsConnected(Server& s, const pmix_proc_t& proc);
// Raises a group event: code from source to targets (PMIX_RANGE_CUSTOM)
// with PMIX_GROUP_ID = grp, PMIX_EVENT_AFFECTED_PROC = *affected (when
// given) and `extra`; the host hears of it when a target is not local.
void Raise(Server& s, pmix_status_t code, const pmix_proc_t& source,
           std::span<const pmix_proc_t> targets, const std::string& grp,
           const pmix_proc_t* affected, std::span<const pmix_info_t> extra = {});
// The group's namespaces' sizes, for ExpandMembers.
groups::JobSize JobSizes(Server& s);
// group references among procs replaced by members (groups::Translate).
Result<std::vector<pmix_proc_t>> TranslateHere(Server& s, std::span<const pmix_proc_t> procs);
// Stores a member's PMIX_GROUP_INFO / PMIX_GROUP_ENDPT_DATA directives as
// its data (server store, PMIX_GLOBAL) so that it travels with the rest.
void StoreContribution(Server& s, const pmix_proc_t& who, std::span<const pmix_info_t> directives);
// A group completed here or was announced by the host: registered, and
// the joins waiting for it answered.
void AnswerJoins(Server& s, const std::string& grp, pmix_status_t status);

// --- collectives (server_group.cc) ------------------------------------------
void HandleConstruct(Server& s, const PeerPtr& peer, const ptl::Frame& frame, Request&& req);
void HandleDestruct(Server& s, const PeerPtr& peer, const ptl::Frame& frame, Request&& req);
// Launches the collective when every local participant is in and no
// decision is pending.
void MaybeLaunch(Server& s, uint64_t id);
// A local participant failed a collective that spans nodes and was not
// handed to the host yet: the host hears it (PMIX_LOCAL_COLLECTIVE_STATUS
// = status) so that the other nodes' servers can fail it too.
void TellHostFailed(Server& s, uint64_t id, pmix_status_t status);
// Ends a collective with `status` (an abort, a failure, a timeout).
void FailCollective(Server& s, uint64_t id, pmix_status_t status);
// Takes `who` out of a collective (died, left) and, with `launch`,
// launches it when that was the last missing one; false when not in it.
bool DropFromCollective(Server& s, uint64_t id, const ProcName& who, bool launch = true);

// --- invitations (server_group_invite.cc) -----------------------------------
void HandleInvite(Server& s, const PeerPtr& peer, const ptl::Frame& frame, Request&& req);
void HandleJoin(Server& s, const PeerPtr& peer, const ptl::Frame& frame, Request&& req);
// An invited process answered (here or through the host), or failed:
// `event` goes to the leader (unless !raise: the host delivers it) and
// its handlers' verdict is awaited.
void OnInviteAnswer(Server& s, InviteOp& op, const pmix_proc_t& who, Answer answer,
                    pmix_status_t event, bool raise = true);
void MaybeCompleteInvite(Server& s, const std::string& grp);
void AbortInvite(Server& s, const std::string& grp, pmix_status_t status);

// --- failures and decisions (server_group_fail.cc) --------------------------
void HandleDecision(Server& s, const PeerPtr& peer, Request&& req);
void HandleLeave(Server& s, const PeerPtr& peer, const ptl::Frame& frame, Request&& req);
// Opens a LEADER_FAILED round among `targets` (the local connected ones
// are waited for).
void StartElection(Server& s, Decisions& d, const std::string& grp, const pmix_proc_t& dead,
                   std::span<const pmix_proc_t> targets);
// Arms the decision timer of `d`; `expire` runs when it fires.
void ArmDecisionTimer(Decisions& d, std::function<void()> expire);

}  // namespace pmix::server::group

#endif  // PMIXX_SRC_SERVER_SERVER_GROUP_STATE_H
