// The server side of PMIx_Fence (standard ch. 8, §17.3.6, DESIGN §5/§8):
// each local participant's kFence request joins a tracker (server_fence.h);
// when all local participants are in, the fence completes here (all
// participants local: the host is not called) or goes to the host's
// fence_nb once, with the local participants' data when PMIX_COLLECT_DATA
// was asked for. The result goes back to every local participant: a status
// and, with data collection, the participants' records (wire/proc_data.h).
//
// Data path (no O(N^2) copying or packing): each record is stored once as
// committed (s.modex); the host gets one concatenation of the local
// participants' records as remote readers see them; the records the host
// returns are stored once (other nodes' processes' records in the store's
// arena, like local commits); the result is the host's job records (as
// they came) and the records of the local participants and of the
// processes the host returned, as local readers see them, made once for
// every reply (fence_result.h): a local client on a Unix socket receives
// descriptors of the sealed regions the store keeps records in (written
// once, at commit or on arrival from the host) and maps them, the rest
// inline; other peers get bytes every reply shares (wire::Body). A node's
// clients thus share one copy of other nodes' data too. Clients decode
// lazily (client_modex.h).
//
// Decisions the standard leaves open:
// - A participant whose connection closes without PMIx_Finalize is dropped
//   from every pending fence it belongs to, as OpenPMIx 4.2.2 does: the
//   fence completes among the survivors once they are all in, without data,
//   and they get PMIX_ERR_PARTIAL_SUCCESS (PMIX_ERR_LOST_CONNECTION when no
//   local participant is left). With remote participants the host gets the
//   fence (if it had not yet) without data and with
//   PMIX_LOCAL_COLLECTIVE_STATUS set to that status, so that the other nodes
//   learn of the failure; a successful host answer still gives the survivors
//   the local status. A later fence naming the dead process fails at once
//   with PMIX_ERR_PROC_TERM_WO_SYNC (the standard's status for "terminated
//   without calling PMIx_Finalize"; OpenPMIx 4.2.2 may wait for it forever),
//   except a survivor joining the interrupted fence. The events go out as
//   well (server_events.cc).
// - A participant that finalizes without contributing (or had finalized
//   when the fence began) is dropped the same way: the others get
//   PMIX_ERR_PARTIAL_SUCCESS instead of waiting forever (OpenPMIx 4.2.2
//   does the same; its pubi example relies on it). So is one the host
//   deregisters (PMIx_server_deregister_client) before it ever connected,
//   during the fence or before it began: the RM saw it end (refused,
//   crashed before PMIx_Init). A refused connection claiming to be a
//   participant changes nothing (OpenPMIx 4.2.2 drops the participant
//   then): a local user of another uid must not disrupt a job's fences.
// - The host gets the directives of every local participant
//   (fence::MergeDirectives), not only the first one's.
// - A participant that finalized cleanly after contributing keeps its
//   contribution (its reply goes nowhere).
// - Remote participants without a host fence_nb: PMIX_ERR_NOT_SUPPORTED; a
//   namespace not registered here then: PMIX_ERR_NOT_FOUND. With fence_nb an
//   unregistered namespace's processes are taken to be elsewhere.
// - The data buffer handed to fence_nb belongs to the host (§17.3.6: "the
//   host is responsible for free'ing the data"), whatever it returns.
//   It is the one the local participants' commits filled ahead
//   (host_blob.h) when that holds exactly their records as stored now;
//   else their records are copied into a new one at launch.
// - A fence with PMIX_GROUP_FT_COLLECTIVE (its first contributor's
//   directive) drops a local participant that dies or leaves its group
//   instead of failing, until it goes to the host.
// - Records received from the host are stored in the server's store with
//   PMIX_GLOBAL: their owner's server already filtered them for a remote
//   view, so every requester here may see them.
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <set>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "pmix.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/runtime/context.h"
#include "src/server/fence_result.h"
#include "src/server/server_collective.h"
#include "src/server/server_fence.h"
#include "src/server/server_group.h"
#include "src/server/server_get.h"
#include "src/server/server_internal.h"
#include "src/wire/proc_data.h"
#include "src/wire/protocol.h"

namespace pmix::server {
namespace {

using fence::ProcName;
using fence::Tracker;

struct FenceState {
  fence::Table table;
  // Handed to the host and dropped here before its callback came (failed,
  // timed out): the host may still read their procs and directives.
  std::map<uint64_t, std::unique_ptr<Tracker>> detached;
  std::set<ProcName> dead;  // local procs whose connection closed without finalize
};

// Progress thread only. Never destroyed: a timer handle inside must not be
// torn down by static destruction after the engine is gone.
FenceState& State() {
  static FenceState* state = new FenceState();
  return *state;
}

void* IdToCbdata(uint64_t id) { return reinterpret_cast<void*>(static_cast<uintptr_t>(id)); }

// Every local participant gets the same failure.
void AnswerFailure(const Tracker& t, pmix_status_t status) {
  fence::AnswerAll(t, [status](const pmix_bfrops_module_t* codec, bool) {
    return fence::Answer{StatusBody(codec, status), {}, status};
  });
}

// A status for one request that did not join a fence.
void ReplyStatus(Peer& peer, const ptl::Frame& request,
                 const std::optional<wire::doorbell::Ticket>& ticket, pmix_status_t status) {
  fence::AnswerOne(
      peer,
      fence::Contribution{{}, ptl::Frame{request.flags, request.type, request.tag, {}}, ticket},
      fence::Answer{StatusBody(peer.conn->codec(), status), {}, status}, {});
}

// Removes a tracker; one whose host callback is still due is kept aside.
std::unique_ptr<Tracker> Finish(uint64_t id) {
  FenceState& st = State();
  std::unique_ptr<Tracker> t = st.table.Take(id);
  if (t == nullptr) return nullptr;
  t->timer.reset();
  if (t->host_pending) {
    auto keep = std::make_unique<Tracker>();
    keep->id = t->id;
    keep->procs = t->procs;
    keep->directives = std::move(t->directives);
    st.detached[id] = std::move(keep);
  }
  return t;
}

void Fail(uint64_t id, pmix_status_t status) {
  std::unique_ptr<Tracker> t = Finish(id);
  if (t == nullptr) return;
  output::Verbose("server", 2, "fence %llu failed: %s", static_cast<unsigned long long>(id),
                  PMIx_Error_string(status));
  AnswerFailure(*t, status);
}

// The local participants as processes.
std::vector<pmix_proc_t> LocalProcs(const Tracker& t) {
  std::vector<pmix_proc_t> procs;
  procs.reserve(t.participants.local.size());
  for (const auto& who : t.participants.local) procs.push_back(fence::ProcOf(who));
  return procs;
}

// The size of the local participants' records as a requester of `view` sees them.
size_t LocalSize(const Server& s, const Tracker& t, pmix_gds_view_t view) {
  size_t n = 0;
  for (const auto& who : t.participants.local) n += s.modex.Size(fence::ProcOf(who), view);
  return n;
}

// Success: the job records the host returned (inline), and the records
// of the processes whose data comes along -- with data collection the
// local participants', and those of other nodes' processes the host
// returned (stored already) -- as local peers see them, taken from the
// store and made once for every participant (fence_result.h: inline
// bytes, and regions whose descriptors go to the local clients).
void Complete(Server& s, uint64_t id, wire::Bytes jobs = {}, std::span<const pmix_proc_t> remote = {}) {
  Tracker* pending = State().table.Find(id);
  if (pending == nullptr) return;
  std::vector<pmix_proc_t> procs;
  if (pending->collect) procs = LocalProcs(*pending);
  procs.insert(procs.end(), remote.begin(), remote.end());
  fence::FenceResult result(s.modex, std::move(jobs), std::move(procs));
  std::unique_ptr<Tracker> t = Finish(id);
  fence::AnswerAll(*t, [&result](const pmix_bfrops_module_t* codec, bool fds_ok) {
    return result.For(codec, fds_ok);
  });
}

void HostDone(pmix_status_t status, const char* data, size_t ndata, void* cbdata,
              pmix_release_cbfunc_t release_fn, void* release_cbdata);

// Hands the collective to the host with data (malloc'd, ndata bytes; NULL
// for none), which the host owns from here on, whatever happens.
// local_status: a local failure to report (PMIX_LOCAL_COLLECTIVE_STATUS).
pmix_status_t CallHost(Server& s, Tracker& t, char* data, size_t ndata,
                       std::optional<pmix_status_t> local_status) {
  bool yes = true;
  Status added;
  if (t.collect && FindInfo(t.directives.view(), PMIX_COLLECT_DATA) == nullptr)
    added = t.directives.Add(PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
  if (added.ok() && local_status)
    added = t.directives.Add(PMIX_LOCAL_COLLECTIVE_STATUS, &*local_status, PMIX_STATUS);
  if (!added.ok()) {
    std::free(data);
    return added.code();
  }
  t.host_called = true;
  pmix_status_t rc = s.module.fence_nb(t.procs.data(), t.procs.size(), t.directives.data(),
                                       t.directives.size(), data, ndata, HostDone, IdToCbdata(t.id));
  if (rc == PMIX_SUCCESS) t.host_pending = true;
  return rc;
}

// A buffer of n bytes the host will own (and free()). A large one is
// advised to transparent huge pages before it is filled: it is fresh
// memory, and faulting it in 4 KiB at a time is most of the cost of
// handing the host megabytes (measured on a 2-core VM: 13 us a 4 KiB page,
// 0.7 ms for 8 MiB with huge pages -- and 17-21 ms once the hypervisor
// had taken the free pages back, bench/README.md). Where huge pages are
// off or unavailable the advice is a no-op.
char* HostBuffer(size_t n) {
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  char* p = static_cast<char*>(std::malloc(n));
  if (p != nullptr && n >= 2 * kHuge) {
    uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
    uintptr_t end = (reinterpret_cast<uintptr_t>(p) + n) & ~(kHuge - 1);
    if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  }
  return p;
}

// What the local participants' commits filled ahead for the host
// (host_blob.h) when it holds exactly their records, else {nullptr, 0};
// either way the blobs of the namespaces taking part start over.
std::pair<char*, size_t> TakeHostBlob(Server& s, const Tracker& t) {
  std::set<Namespace*> involved;
  for (const auto& who : t.participants.local)
    if (Namespace* ns = s.FindNamespace(who.nspace)) involved.insert(ns);
  if (involved.size() == 1) return (*involved.begin())->host_blob.Take(s.modex, LocalProcs(t));
  for (Namespace* ns : involved) ns->host_blob.Clear();
  return {nullptr, 0};
}

// Every local participant is in.
void Launch(Server& s, Tracker& t) {
  uint64_t id = t.id;
  if (!t.participants.remote) return t.departed ? Fail(id, *t.departed) : Complete(s, id);
  if (s.module.fence_nb == nullptr) return Fail(id, PMIX_ERR_NOT_SUPPORTED);
  if (t.departed) {
    pmix_status_t rc = CallHost(s, t, nullptr, 0, *t.departed);
    if (rc != PMIX_SUCCESS) Fail(id, rc == PMIX_OPERATION_SUCCEEDED ? *t.departed : rc);
    return;
  }
  char* data = nullptr;
  size_t ndata = t.collect ? LocalSize(s, t, PMIX_GDS_VIEW_REMOTE) : 0;
  if (t.collect) {
    auto [ahead, nahead] = TakeHostBlob(s, t);
    if (ahead != nullptr && nahead == ndata) {
      data = ahead;
      output::Verbose("server", 2, "fence %llu: the host's %zu bytes were filled as the commits came",
                      static_cast<unsigned long long>(id), ndata);
    } else {
      std::free(ahead);
    }
  }
  if (ndata > 0 && data == nullptr) {
    // The local participants' records as remote readers see them, copied
    // once into the buffer the host receives.
    data = HostBuffer(ndata);
    if (data == nullptr) return Fail(id, PMIX_ERR_NOMEM);
    size_t at = 0;
    for (const auto& who : t.participants.local)
      at += s.modex.CopyTo(fence::ProcOf(who), PMIX_GDS_VIEW_REMOTE, reinterpret_cast<uint8_t*>(data) + at);
  }
  pmix_status_t rc = CallHost(s, t, data, ndata, std::nullopt);
  if (rc == PMIX_OPERATION_SUCCEEDED) return Complete(s, id);
  if (rc != PMIX_SUCCESS) Fail(id, rc);
}

// The host's fence result where the host keeps it: given back
// (release_fn) when the last holder lets go, once the progress thread has
// copied what it keeps -- nothing of a single node's fence, whose records
// are all this server's own.
class HostResult {
 public:
  HostResult(const char* data, size_t ndata, pmix_release_cbfunc_t release_fn, void* release_cbdata)
      : data_(data), ndata_(data == nullptr ? 0 : ndata), release_fn_(release_fn), release_cbdata_(release_cbdata) {}
  HostResult(const HostResult&) = delete;
  HostResult& operator=(const HostResult&) = delete;
  ~HostResult() {
    if (release_fn_ != nullptr) release_fn_(release_cbdata_);
  }
  std::span<const uint8_t> bytes() const { return {reinterpret_cast<const uint8_t*>(data_), ndata_}; }

 private:
  const char* data_;
  size_t ndata_;
  pmix_release_cbfunc_t release_fn_;
  void* release_cbdata_;
};

// The host's result, back on the progress thread: the records of other
// nodes' participants, stored and passed on as they came.
void OnHostResult(Server& s, uint64_t id, pmix_status_t status, std::span<const uint8_t> data) {
  FenceState& st = State();
  if (st.detached.erase(id) != 0) return;  // already answered (failed or timed out)
  Tracker* t = st.table.Find(id);
  if (t == nullptr) return;
  t->host_pending = false;
  if (status != PMIX_SUCCESS) return Fail(id, status);
  if (t->departed) return Fail(id, *t->departed);  // no data from an interrupted fence
  auto foreign = get::ForeignRecords(s, data);
  Result<std::vector<wire::RecordRef>> taken = foreign.status();
  std::shared_ptr<const wire::Bytes> blob;
  if (foreign.ok()) {
    blob = std::make_shared<const wire::Bytes>(std::move(*foreign));
    taken = get::StoreRemoteData(s, blob);
  }
  if (!taken.ok()) {
    output::Error("server", "fence: the host's data is refused (%s)",
                  PMIx_Error_string(taken.status().code()));
    return Fail(id, taken.status().code());
  }
  // The processes' records are passed on from the store, where they lie
  // in the namespace's arena: shared with the local clients like local
  // commits, instead of a private copy in each. Job records go inline.
  wire::Bytes jobs;
  std::vector<pmix_proc_t> procs;
  std::set<std::pair<std::string_view, pmix_rank_t>> seen;
  for (const wire::RecordRef& ref : *taken) {
    if (ref.rank == PMIX_RANK_WILDCARD) {
      std::span<const uint8_t> record = ref.Record(*blob);
      jobs.insert(jobs.end(), record.begin(), record.end());
    } else if (seen.emplace(ref.nspace, ref.rank).second) {
      procs.push_back(ref.Proc());
    }
  }
  Complete(s, id, std::move(jobs), procs);
}

// pmix_modex_cbfunc_t: any thread, possibly inside fence_nb itself. The
// host's buffer is read on the progress thread and released after (or
// when the server stops first: the closure goes, and the holder with it).
void HostDone(pmix_status_t status, const char* data, size_t ndata, void* cbdata,
              pmix_release_cbfunc_t release_fn, void* release_cbdata) {
  ApiGuardVoid("fence_nb callback", [&] {
    uint64_t id = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(cbdata));
    std::shared_ptr<const HostResult> host;
    try {
      host = std::make_shared<const HostResult>(data, ndata, release_fn, release_cbdata);
    } catch (const std::bad_alloc&) {
      if (release_fn != nullptr) release_fn(release_cbdata);
      status = PMIX_ERR_NOMEM;
    }
    PostToServer([id, status, host](Server& s) {
      OnHostResult(s, id, status, host != nullptr ? host->bytes() : std::span<const uint8_t>());
    });
  });
}

void ArmDeadline(Tracker& t, int64_t seconds) {
  fence::ArmDeadline(t, seconds, [](uint64_t id) {
    if (CurrentServer() != nullptr) Fail(id, PMIX_ERR_TIMEOUT);
  });
}

// A fence asked to ride out departures (PMIX_GROUP_FT_COLLECTIVE, §14.2.5):
// `who` (left its group or died) is taken out of it instead of failing it,
// and the fence goes on when it was the last one missing. False when the
// fence does not ask for that or was handed to the host already.
bool DropFtParticipant(Server& s, Tracker& t, const ProcName& who) {
  if (t.host_called || !InfoFlag(t.directives.view(), PMIX_GROUP_FT_COLLECTIVE)) return false;
  if (t.participants.local.erase(who) == 0) return false;
  t.contributions.erase(who);
  if (t.Ready()) Launch(s, t);
  return true;
}

struct Prepared {
  std::vector<pmix_proc_t> procs;
  std::string key;
  fence::Participants participants;
  bool names_dead = false;  // a local participant died without finalizing
  std::vector<ProcName> finalized;  // local participants that finalized already
};

// Whether `who`, a local participant, left with PMIx_Finalize (or the host
// deregistered it: it will never contribute either).
bool Finalized(Server& s, const ProcName& who) {
  Namespace* ns = s.FindNamespace(who.nspace);
  if (ns == nullptr) return false;
  if (ns->deregistered.count(who.rank) != 0) return true;
  auto record = ns->clients.find(who.rank);
  return record != ns->clients.end() && record->second.peer == nullptr &&
         record->second.departed == PMIX_ERR_NOT_FOUND;
}

// Checks a request against what the server knows; the status to reply on error.
Result<Prepared> Prepare(Server& s, const Peer& peer, std::span<const pmix_proc_t> procs) {
  if (peer.ns == nullptr) return Status(PMIX_ERR_NOT_SUPPORTED);  // tools take no part
  auto canonical = fence::Canonicalize(procs);
  if (!canonical.ok()) return canonical.status();
  for (const auto& p : *canonical) {
    if (s.module.fence_nb == nullptr && s.FindNamespace(p.nspace) == nullptr)
      return Status(PMIX_ERR_NOT_FOUND);
  }
  auto participants = fence::Resolve(*canonical, fence::NamespacesOf(s));
  if (!participants.ok()) return participants.status();
  if (participants->remote && s.module.fence_nb == nullptr) return Status(PMIX_ERR_NOT_SUPPORTED);
  if (participants->local.count(fence::NameOf(peer.proc)) == 0) return Status(PMIX_ERR_BAD_PARAM);
  bool names_dead = false;
  std::vector<ProcName> finalized;
  for (const auto& who : participants->local) {
    if (State().dead.count(who) != 0 && s.FindPeer(fence::ProcOf(who)) == nullptr) names_dead = true;
    if (Finalized(s, who)) finalized.push_back(who);
  }
  std::string key = fence::CollectiveKey(*canonical);
  return Prepared{std::move(*canonical), std::move(key), std::move(*participants), names_dead,
                  std::move(finalized)};
}

// The pending collective a contribution over `procs` joins without the
// checks Prepare makes (nullptr: make them). Everything Prepare checked
// held when that collective began, and what changes it since -- a
// participant dying, finalizing or being deregistered, its namespace
// going -- reaches pending collectives as an event (FenceOnPeerLost,
// FenceOnNamespaceGone), except a death a later contribution must still
// be refused for, which the full check sees. So the N contributions of
// an N-process fence resolve the participants once, not N times (O(N^2)
// set building on the progress thread).
Tracker* Joinable(const Peer& peer, std::span<const pmix_proc_t> procs) {
  if (peer.ns == nullptr) return nullptr;
  auto canonical = fence::Canonicalize(procs);
  if (!canonical.ok()) return nullptr;
  ProcName me = fence::NameOf(peer.proc);
  Tracker* t = State().table.FindJoinable(fence::CollectiveKey(*canonical), me);
  if (t == nullptr || t->participants.local.count(me) == 0) return nullptr;
  if (t->lost_participant && !t->departed) return nullptr;
  return t;
}

}  // namespace

void HandleFence(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  wire::Reader r(peer->conn->codec(), frame.payload);
  std::vector<pmix_proc_t> procs = r.Procs();
  wire::Infos infos = r.InfoArray();
  Status parsed = r.status();
  std::optional<wire::doorbell::Ticket> ticket;
  if (parsed.ok() && !r.AtEnd()) {
    wire::doorbell::Ticket t;
    t.slot = r.U32();
    t.seq = r.U32();
    // Then, from a client waiting on release words too, the word.
    bool word_ok = true;
    if (r.status().ok() && !r.AtEnd()) {
      t.word = r.U32();
      word_ok = t.word < wire::doorbell::kReleaseWords && peer->release != nullptr;
    }
    // A ticket names a slot of the page this peer was given.
    if (r.status().ok() && r.AtEnd() && word_ok && t.slot < wire::doorbell::kSlots &&
        peer->doorbell != nullptr)
      ticket = t;
    else
      parsed = PMIX_ERR_BAD_PARAM;
  }
  if (parsed.ok()) {  // group ids stand for their members (§14.1)
    auto members = TranslateGroupProcs(s, procs);
    if (members.ok()) procs = std::move(*members);
    parsed = members.status();
  }
  if (!parsed.ok()) {
    ReplyStatus(*peer, frame, ticket, parsed.code());
    return;
  }
  ProcName me = fence::NameOf(peer->proc);
  std::vector<ProcName> finalized;  // local participants that finalized already
  Tracker* t = Joinable(*peer, procs);
  if (t == nullptr) {
    auto prepared = Prepare(s, *peer, procs);
    if (!prepared.ok()) {
      ReplyStatus(*peer, frame, ticket, prepared.status().code());
      return;
    }
    FenceState& st = State();
    t = st.table.FindJoinable(prepared->key, me);
    if (prepared->names_dead && (t == nullptr || !t->departed)) {
      // Only the fence the death interrupted goes on among the survivors.
      ReplyStatus(*peer, frame, ticket, PMIX_ERR_PROC_TERM_WO_SYNC);
      return;
    }
    if (t == nullptr) {
      t = &st.table.Create(std::move(prepared->key), std::move(prepared->procs),
                           std::move(prepared->participants));
    }
    finalized = std::move(prepared->finalized);
  }
  if (Status merged = fence::MergeDirectives(*t, infos.view()); !merged.ok()) {
    ReplyStatus(*peer, frame, ticket, merged.code());
    return;
  }
  // A participant that already finalized will never contribute: the fence
  // goes on among the others (PMIX_ERR_PARTIAL_SUCCESS), as in OpenPMIx 4.2.2.
  for (const ProcName& gone : finalized) {
    if (t->participants.local.count(gone) != 0 && t->contributions.count(gone) == 0)
      fence::DropDeparted(*t, gone);
  }
  bool collect = InfoFlag(infos.view(), PMIX_COLLECT_DATA);
  std::optional<int64_t> timeout = InfoInt(infos.view(), PMIX_TIMEOUT);
  t->collect = t->collect || collect;
  t->contributions[me] =
      fence::Contribution{peer, ptl::Frame{frame.flags, frame.type, frame.tag, {}}, ticket};
  if (timeout && *timeout > 0) ArmDeadline(*t, *timeout);
  if (t->Ready()) Launch(s, *t);
}

namespace {

// A duplicate of the server's release page descriptor (made at the first
// call); invalid when there is none.
ptl::Fd ReleaseFd(Server& s) {
  if (!s.release_fd.valid()) {
    auto made = wire::doorbell::ReleasePage::Create();
    if (!made.ok()) return ptl::Fd();
    s.release_page = std::move(made->first);
    s.release_fd = std::move(made->second);
  }
  return ptl::Fd(::fcntl(s.release_fd.get(), F_DUPFD_CLOEXEC, 0));
}

// The release page goes once no client maps it (a later client gets a
// new one).
void DropReleasePageIfUnused(Server& s) {
  if (s.release_page.use_count() != 1) return;
  s.release_page.reset();
  s.release_fd = ptl::Fd();
}

}  // namespace

void HandleDoorbell(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  const pmix_bfrops_module_t* codec = peer->conn->codec();
  // The body: empty, or a u32 of flags (1: the client can wait on a
  // release word too).
  wire::Reader r(codec, frame.payload);
  uint32_t flags = r.AtEnd() ? 0 : r.U32();
  pmix_status_t refused = PMIX_SUCCESS;
  if (!r.status().ok() || !r.AtEnd()) refused = PMIX_ERR_BAD_PARAM;
  if (peer->ns == nullptr || !peer->conn->can_pass_fds()) refused = PMIX_ERR_NOT_SUPPORTED;
  if (peer->doorbell != nullptr) refused = PMIX_EXISTS;  // one page per connection
  auto made = refused == PMIX_SUCCESS
                  ? wire::doorbell::Page::Create()
                  : Result<std::pair<std::unique_ptr<wire::doorbell::Page>, ptl::Fd>>(refused);
  if (!made.ok()) {
    peer->conn->Reply(frame, StatusBody(codec, made.status().code())).ok();
    return;
  }
  std::vector<ptl::Fd> fds;
  fds.push_back(std::move(made->second));
  ptl::Fd release = (flags & 1) != 0 ? ReleaseFd(s) : ptl::Fd();
  bool with_release = release.valid();
  if (with_release) fds.push_back(std::move(release));
  if (peer->conn->ReplyWithFds(frame, StatusBody(codec, PMIX_SUCCESS), std::move(fds)).ok()) {
    peer->doorbell = std::move(made->first);
    if (with_release) peer->release = s.release_page;
    OfferChunks(s, peer);  // what it committed before asking
  } else {
    DropReleasePageIfUnused(s);
  }
}

void NoteCommitForHost(Server& s, Namespace& ns, const pmix_proc_t& who) {
  // Without fence_nb no fence of such a job goes to the host.
  if (s.module.fence_nb != nullptr && ns.SpansOtherNodes()) ns.host_blob.Add(s.modex, who);
}

void OfferChunks(Server& s, const PeerPtr& peer) {
  if (peer->doorbell == nullptr || peer->ns == nullptr || !peer->conn->can_pass_fds() || peer->conn->closed())
    return;
  std::vector<std::shared_ptr<const modex::Arena::Chunk>> chunks;
  s.modex.ForEach(peer->proc, PMIX_GDS_VIEW_LOCAL,
                  [&](std::span<const uint8_t>, const std::shared_ptr<const modex::Arena::Chunk>& chunk, size_t) {
                    if (chunk == nullptr || chunk->module() == nullptr) return;
                    uint64_t serial = chunk->serial();
                    if (peer->kept_regions.count(serial) != 0 || peer->offered_regions.count(serial) != 0) return;
                    for (const auto& have : chunks)
                      if (have == chunk) return;
                    chunks.push_back(chunk);
                  });
  if (chunks.empty()) return;
  if (chunks.size() > ptl::kMaxFrameFds) chunks.resize(ptl::kMaxFrameFds);
  wire::Writer w(peer->conn->codec());
  w.U32(static_cast<uint32_t>(chunks.size()));
  std::vector<ptl::Fd> fds;
  for (const auto& chunk : chunks) {
    w.String(chunk->module()->name).U64(chunk->serial()).U64(chunk->size());
    ptl::Fd dup(::fcntl(chunk->fd(), F_DUPFD_CLOEXEC, 0));
    if (!dup.valid()) return;  // out of descriptors: the fence's frame carries them
    fds.push_back(std::move(dup));
  }
  auto body = w.Take();
  if (!body.ok()) return;
  if (!peer->conn->SendBody(static_cast<uint16_t>(wire::Msg::kChunks), 0, std::move(*body), 0, std::move(fds)).ok())
    return;
  for (const auto& chunk : chunks) peer->offered_regions[chunk->serial()] = chunk;
}

void HandleChunksKept(Server&, const PeerPtr& peer, ptl::Frame&& frame) {
  wire::Reader r(peer->conn->codec(), frame.payload);
  uint32_t n = r.U32();
  // Only chunks offered count: a client cannot claim to keep others.
  for (uint32_t i = 0; i < n && r.status().ok(); ++i) {
    uint64_t serial = r.U64();
    auto it = r.status().ok() ? peer->offered_regions.find(serial) : peer->offered_regions.end();
    if (it == peer->offered_regions.end()) continue;
    if (!it->second.expired()) peer->kept_regions[serial].chunk = it->second;
    peer->offered_regions.erase(it);
  }
  if (!r.status().ok() || !r.AtEnd())
    output::PeerError("server", "%s:%u sent a malformed list of kept chunks", peer->proc.nspace, peer->proc.rank);
}

void FenceOnPeerLost(Server& s, const PeerPtr& peer) {
  if (peer->release != nullptr) {
    peer->release.reset();
    DropReleasePageIfUnused(s);
  }
  if (peer->ns == nullptr) return;
  ProcName who = fence::NameOf(peer->proc);
  FenceState& st = State();
  if (!peer->finalized) st.dead.insert(who);
  for (uint64_t id : st.table.Ids()) {
    Tracker* t = st.table.Find(id);
    if (t != nullptr && !peer->finalized && t->Involves(who)) t->lost_participant = true;
    if (t == nullptr || t->participants.local.count(who) == 0) continue;
    // A finalized contribution stands; a process that finalized without
    // contributing never will (the others must not wait forever).
    if (peer->finalized && t->contributions.count(who) != 0) continue;
    if (DropFtParticipant(s, *t, who)) continue;  // PMIX_GROUP_FT_COLLECTIVE: silently
    fence::DropDeparted(*t, who);
    if (t->host_called) continue;  // the host's answer completes it
    if (t->Ready()) Launch(s, *t);  // else the survivors still to come complete it
  }
}

void FenceOnParticipantLeft(Server& s, const pmix_proc_t& proc) {
  ProcName who = fence::NameOf(proc);
  FenceState& st = State();
  for (uint64_t id : st.table.Ids()) {
    Tracker* t = st.table.Find(id);
    if (t != nullptr && t->contributions.count(who) == 0) DropFtParticipant(s, *t, who);
  }
}

void FenceOnNamespaceGone(Server&, const std::string& nspace) {
  FenceState& st = State();
  for (uint64_t id : st.table.Ids()) {
    Tracker* t = st.table.Find(id);
    if (t == nullptr) continue;
    bool involved = false;
    for (const auto& p : t->procs) involved = involved || fence::NameOf(p).nspace == nspace;
    if (involved) Fail(id, PMIX_ERR_NOT_FOUND);
  }
  for (auto it = st.dead.begin(); it != st.dead.end();)
    it = it->nspace == nspace ? st.dead.erase(it) : std::next(it);
}

void FenceShutdown(Server&) {
  FenceState& st = State();
  for (uint64_t id : st.table.Ids()) Fail(id, PMIX_ERR_INIT);
  st.detached.clear();
  st.dead.clear();
}

}  // namespace pmix::server
