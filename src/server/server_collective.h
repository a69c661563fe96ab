// What the server's collectives (fence: server_fence.cc; connect and
// disconnect: server_connect.cc) share beyond their tracker bookkeeping
// (server_fence.h): the registered namespaces as fence::Resolve reads them,
// the PMIX_TIMEOUT deadline, and the one answer that goes to every local
// contributor.
//
// Threads: progress thread only.
#ifndef PMIXX_SRC_SERVER_SERVER_COLLECTIVE_H
#define PMIXX_SRC_SERVER_SERVER_COLLECTIVE_H

#include <functional>

#include "src/server/server_fence.h"
#include "src/server/server_state.h"
#include "src/wire/proc_data_region.h"

namespace pmix::server::fence {

// What `s` knows of a namespace: its local ranks (from the host's
// registration and the clients registered so far) and its job size. The
// lookup refers to `s`: use it while `s` lives.
NamespaceLookup NamespacesOf(Server& s);

// The reply body for a contributor speaking `codec` (a plain wire::Bytes
// converts; a body with a shared tail sends that tail to every contributor
// without copying it).
using BodyFor = std::function<wire::Body(const pmix_bfrops_module_t* codec)>;

// Bounds `t` by PMIX_TIMEOUT `seconds` from now: unless an earlier bound
// is armed already, (re)arms t.deadline / t.timer so that `expire(t.id)`
// runs on the progress thread then (nothing without a progress engine).
void ArmDeadline(Tracker& t, int64_t seconds, std::function<void(uint64_t id)> expire);

// A local participant `who` of `t` died without finalizing (OpenPMIx 4.2.2
// semantics): it is no longer awaited and its contribution, if any, is
// dropped, so that the collective can complete among the survivors. Returns
// (and records in t.departed) the status the survivors get:
// PMIX_ERR_PARTIAL_SUCCESS while local participants remain, else
// PMIX_ERR_LOST_CONNECTION (what the host then sees as
// PMIX_LOCAL_COLLECTIVE_STATUS).
pmix_status_t DropDeparted(Tracker& t, const ProcName& who);

// The directives handed to the host for `t`: every local contributor's, not
// only the first one's. `infos` (one contributor's) are appended to
// t.directives except keys already there (the first value of a key wins).
Status MergeDirectives(Tracker& t, std::span<const pmix_info_t> infos);

// Replies to every contributor of `t` whose connection is still open,
// building one body per codec (body_for is called once per codec). A
// contributor with a ticket is answered through its doorbell instead.
void AnswerAll(const Tracker& t, const BodyFor& body_for);

// A reply that may share descriptors (sealed regions, e.g. a fence's
// result): every reply made from it carries its own duplicates of `fds`
// (borrowed: the caller keeps them open during AnswerAll), in order, as
// the frame's descriptors.
struct Answer {
  wire::Body body;
  std::vector<int> fds = {};
  // Set when the body is nothing but this status: what a doorbell rings
  // (Contribution::ticket) instead of a frame.
  std::optional<pmix_status_t> status_only = {};
  // The shared chunks whose descriptors `fds` are (serial, and the chunk
  // itself): a doorbell peer keeps them (Peer::kept_regions).
  struct SharedChunk {
    uint64_t serial = 0;
    std::shared_ptr<const void> chunk;
  };
  std::vector<SharedChunk> shared = {};
  // When every record lies in those chunks: the records' fields naming
  // the chunks by serial (wire/proc_data_region.h, packed once), which a
  // doorbell peer keeping them all gets as mail instead of a frame
  // (wire/doorbell.h). nullptr otherwise.
  std::shared_ptr<const wire::Bytes> mail = {};
  // The same fields unpacked (the chunks in the order of `shared`, no
  // descriptor): what a peer was sent already is left out of its mail.
  std::vector<wire::RegionRecords> named = {};
};
// The answer for a contributor speaking `codec` whose connection can
// (fds_ok) or cannot carry descriptors.
using AnswerFor = std::function<Answer(const pmix_bfrops_module_t* codec, bool fds_ok)>;
// As above, one answer per (codec, fds_ok). A contributor whose duplicates
// cannot be had (out of descriptors) gets the answer for (codec, false),
// which must carry no descriptor.
void AnswerAll(const Tracker& t, const AnswerFor& answer_for);
// Doorbell slots whose answers are stored but whose waiters are not woken
// yet (wire/doorbell.h Store, Wake): AnswerAll stores every answer, then
// wakes them all when this goes, waiters on one release word with one
// call (ReleasePage::Release). The pages must outlive it.
class Wakes {
 public:
  Wakes() = default;
  Wakes(const Wakes&) = delete;
  Wakes& operator=(const Wakes&) = delete;
  ~Wakes();
  // The waiter of peer's `ticket` (and of its release word, if any).
  void Add(const Peer& peer, const wire::doorbell::Ticket& ticket);

 private:
  struct Due {
    uint8_t* page;
    uint32_t slot;
    uint32_t word;
    wire::doorbell::ReleasePage* release;
  };
  std::vector<Due> due_;
};
// One contributor's answer (with its own duplicates of the descriptors):
// a reply frame, or through its doorbell when it holds a ticket (a frame
// tagged with the ticket when the answer is more than a status), woken at
// once or, given `wakes`, when they go.
void AnswerOne(Peer& peer, const Contribution& c, const Answer& a, std::vector<ptl::Fd> fds,
               Wakes* wakes = nullptr);
// Byte ranges of a chunk, (offset, length) each.
using Extents = std::vector<std::pair<size_t, size_t>>;
// Adds extents to sent, which stays sorted and merged (touching or
// overlapping ranges become one).
void AddSent(Extents& sent, const Extents& extents);
// extents (sorted) less what sent (sorted, merged) covers. Both are made
// of whole records, so what is left is whole records too.
Extents Unsent(const Extents& extents, const Extents& sent);

// The answer to a ticket as mail (wire/doorbell.h), when it can go so:
// every record lies in chunks the peer keeps, and the names of those
// chunks, with the chunks the peer may now forget, fit a mailbox. The
// records the peer was sent before (Peer::KeptChunk::sent) are left out:
// a record is never rewritten in its chunk, and the server sends a record
// again only while it is the process's data still, which the client then
// holds already (its data goes only when later data replaces it, which
// would come too). A fence with no new commit is thus mail of the chunks
// to forget alone. False (nothing done) otherwise.
// The waiter is woken when `wakes` goes.
bool Mail(Peer& peer, const wire::doorbell::Ticket& ticket, const Answer& a, Wakes& wakes);

}  // namespace pmix::server::fence

#endif  // PMIXX_SRC_SERVER_SERVER_COLLECTIVE_H
