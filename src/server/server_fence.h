// The bookkeeping behind the server's fence (PMIx_Fence, standard ch. 8 and
// §17.3.6), apart from messages and upcalls (server_fence.cc) so that it can
// be unit-tested on its own.
//
// A fence is one collective over a participant set. The server waits for
// every LOCAL participant to contribute (its client's kFence request), then
// either completes it by itself (every participant is local, DESIGN §8) or
// hands it to the host's fence_nb once, and finally answers every local
// contributor.
//
// Identity of a collective: its canonical participant set (Canonicalize) as
// a key (CollectiveKey). Two contributions with the same key belong to the
// same collective unless the contributor is already in the pending one:
// then it starts the next collective over the same set (sequential fences,
// possibly issued with Fence_nb before the first completed).
//
// Threads: progress thread only; nothing here is shared.
#ifndef PMIXX_SRC_SERVER_SERVER_FENCE_H
#define PMIXX_SRC_SERVER_SERVER_FENCE_H

#include <chrono>
#include <compare>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mca/ptl/base/frame.h"
#include "pmix_common.h"
#include "src/common/status.h"
#include "src/runtime/progress.h"
#include "src/wire/buffer.h"
#include "src/wire/doorbell.h"

namespace pmix::server {
struct Peer;
}

namespace pmix::server::fence {

// A process name as an ordered value.
struct ProcName {
  std::string nspace;
  pmix_rank_t rank = 0;
  auto operator<=>(const ProcName&) const = default;
};
ProcName NameOf(const pmix_proc_t& proc);
// The inverse of NameOf.
pmix_proc_t ProcOf(const ProcName& name);

// The participant list in canonical form: sorted by (nspace, rank),
// duplicates dropped, a {nspace, PMIX_RANK_WILDCARD} entry absorbing the
// explicit ranks of that nspace. PMIX_ERR_BAD_PARAM (nothing returned) for
// an empty list, an empty or unterminated nspace, or a rank that is neither
// a valid rank nor PMIX_RANK_WILDCARD.
Result<std::vector<pmix_proc_t>> Canonicalize(std::span<const pmix_proc_t> procs);

// The text that identifies a fence over a canonical set.
std::string CollectiveKey(std::span<const pmix_proc_t> canonical);

// True when `who` is in the canonical set (by rank or by wildcard).
bool Includes(std::span<const pmix_proc_t> canonical, const ProcName& who);

// What the server knows of a registered namespace.
struct NamespaceFacts {
  std::set<pmix_rank_t> local_ranks;  // ranks on this node
  uint32_t job_size = 0;              // 0: unknown (then no rank is assumed remote)
};
// nullopt: the namespace is not registered here.
using NamespaceLookup = std::function<std::optional<NamespaceFacts>(std::string_view nspace)>;

// Who takes part, seen from this node.
struct Participants {
  std::set<ProcName> local;  // the local participants: each must contribute
  bool remote = false;       // some participant lives on another node
};

// Resolves a canonical set. A wildcard stands for every rank of its
// namespace (the local ones, plus remote ones when the job is larger); an
// unregistered namespace has no local processes here, so all of its
// participants are remote. PMIX_ERR_NOT_FOUND: an explicit rank at or
// beyond a known job size.
Result<Participants> Resolve(std::span<const pmix_proc_t> canonical, const NamespaceLookup& lookup);

// One local participant's call, kept until the collective completes: the
// reply goes on the peer's connection (when it is still there) with the
// request's type and tag.
struct Contribution {
  std::weak_ptr<Peer> peer;
  ptl::Frame request;  // type and tag only
  // Set when the peer asked for its release through its doorbell page
  // (src/wire/doorbell.h): then no reply frame goes, the answer is rung
  // (status only) or sent as a frame tagged with the ticket's seq.
  std::optional<wire::doorbell::Ticket> ticket = {};
};

// A pending collective.
struct Tracker {
  uint64_t id = 0;
  std::string key;
  std::vector<pmix_proc_t> procs;  // canonical
  Participants participants;
  std::map<ProcName, Contribution> contributions;
  bool collect = false;     // some contributor asked for PMIX_COLLECT_DATA
  // Every local contributor's directives, merged (MergeDirectives: the
  // first value of a key wins); what the host's fence_nb receives.
  wire::Infos directives;
  std::optional<std::chrono::steady_clock::time_point> deadline;  // earliest PMIX_TIMEOUT
  std::unique_ptr<runtime::ProgressEngine::Timer> timer;          // armed for deadline
  // A local participant died before the collective completed: the status
  // the survivors get (server_collective.h DropDeparted).
  std::optional<pmix_status_t> departed;
  bool host_called = false;   // handed to the host: no more contributions
  bool host_pending = false;  // fence_nb accepted it: its callback is due
  // A participant's connection closed without PMIx_Finalize while this
  // was pending (a later contribution then gets the full check).
  bool lost_participant = false;

  // Every local participant has contributed (O(1) while contributions
  // are fewer than local participants).
  bool Ready() const;
  // `who` is among the participants (local or not).
  bool Involves(const ProcName& who) const { return Includes(procs, who); }
};

// The pending collectives, in creation order. Ids are never reused (a
// late host callback names an id that may be gone).
class Table {
 public:
  // The oldest pending collective with `key` that `who` has not
  // contributed to and that was not handed to the host yet; nullptr if none.
  Tracker* FindJoinable(std::string_view key, const ProcName& who);
  // A new collective (id assigned here).
  Tracker& Create(std::string key, std::vector<pmix_proc_t> procs, Participants participants);
  Tracker* Find(uint64_t id);
  // Removes and returns it (nullptr when gone).
  std::unique_ptr<Tracker> Take(uint64_t id);
  // Ids of the pending collectives, oldest first (a snapshot: safe while
  // the caller completes some of them).
  std::vector<uint64_t> Ids() const;
  size_t size() const { return trackers_.size(); }

 private:
  uint64_t next_id_ = 1;
  std::map<uint64_t, std::unique_ptr<Tracker>> trackers_;
};

}  // namespace pmix::server::fence

#endif  // PMIXX_SRC_SERVER_SERVER_FENCE_H
