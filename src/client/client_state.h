// The client library's state (PMIx_Init .. PMIx_Finalize).
//
// Threads: the connection and the cache belong to the progress thread
// (DESIGN §5); API calls post closures that use them (runtime::CallBlocking
// for the blocking forms). Immutable after init (safe on any thread while
// initialised): myproc, server identity, hostname.
//
// Per-operation code lives in its own file (client_fence.cc, client_get.cc,
// client_put.cc, client_events.cc) and uses Client through this header.
#ifndef PMIXX_SRC_CLIENT_CLIENT_STATE_H
#define PMIXX_SRC_CLIENT_CLIENT_STATE_H

#include <atomic>
#include <functional>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "mca/gds/base/gds_base.h"
#include "mca/gds/base/image.h"
#include "src/client/client_modex.h"
#include "pmix.h"
#include "src/event/dispatcher.h"
#include "src/groups/group_table.h"
#include "src/server/server_connect.h"
#include "src/runtime/progress.h"
#include "src/runtime/read_mostly.h"
#include "src/wire/connection.h"
#include "src/wire/protocol.h"

namespace pmix::client {

struct Client {
  pmix_proc_t myproc{};
  pmix_proc_t server{};       // the server's identity (from the welcome)
  std::string hostname;       // the node (the server's PMIX_HOSTNAME)
  std::shared_ptr<wire::Connection> conn;  // nullptr after the server was lost
  gds::Store cache;           // job data, own puts, PMIx_Store_internal (peers' data: `peers`)
  bool singleton = false;     // no server: PMIx_Init without PMIX_NAMESPACE etc.
  bool finalizing = false;    // PMIx_Finalize is tearing down: no lost-server event

  // Sends a request on the progress thread; on_reply gets the reply body
  // reader or PMIX_ERR_LOST_CONNECTION / PMIX_ERR_UNREACH (no server).
  void Request(wire::Msg type, const wire::Bytes& body,
               std::function<void(Status, wire::Reader&)> on_reply);
  // The same, handing over the reply frame (a body kept past the callback;
  // an empty frame with the error).
  void RequestFrame(wire::Msg type, const wire::Bytes& body,
                    std::function<void(Status, ptl::Frame&&)> on_reply);
  // One-way message; PMIX_ERR_UNREACH without a server.
  Status Send(wire::Msg type, const wire::Bytes& body);
  Status SendBody(wire::Msg type, wire::Body body);
  const pmix_bfrops_module_t* codec() const;

  // Put/Get state (client_put.cc, client_get.cc):
  // the puts since the last PMIx_Commit, in call order, one group per run
  // of the same scope (PMIX_INTERNAL puts stay local and are not listed);
  std::vector<std::pair<pmix_scope_t, wire::Infos>> pending_puts;
  // other namespaces whose job info the server already sent into the cache;
  std::set<std::string, std::less<>> fetched_jobs;
  // values handed out with PMIX_GET_POINTER_VALUES, valid until finalize.
  std::vector<gds::ValuePtr> pointer_values;
  // other processes' committed data as the server sent it, decoded on
  // first use (client_modex.h; locks itself, any thread).
  PeerData peers;
  // The regions fence results shared, mapped once for every reply that
  // names them again (wire/proc_data_region.h; locks itself).
  wire::RegionCache shared_regions;

  // Caller-thread reads (the Get fast path, client_get.cc): the progress
  // thread locks cache_mu around every write to the cache, which waits
  // for the readers inside; a reader on another thread enters it as a
  // reader, which never waits: while a write is under way it takes the
  // slow path instead (runtime/read_mostly.h). Reads on the progress
  // thread need no guard (nobody else writes). A new generation of a job
  // image (client_job_update.cc) is swapped in the same way: the old image
  // is released under the lock, so no reader is inside it when its memory
  // goes; a reader copies what it found before it leaves (values handed
  // out never point into an image).
  mutable runtime::ReadMostly cache_mu;
  // Puts/stores posted but not yet in the cache: while non-zero a reader
  // on another thread could see an older value, so it takes the slow path.
  std::atomic<int> writes_in_flight{0};

  // The proc sets this process connected (PMIx_Connect, canonical keys of
  // server_fence.h), for PMIx_Disconnect's check (client_connect.cc).
  std::set<std::string, std::less<>> connected_sets;

  // The groups this process is a member of (client_group.cc): group ids in
  // gets are translated with them.
  groups::Table groups;
};

// Any thread while initialised (for the Get fast path): the client, or
// nullptr during init/finalize. Only cache_mu-protected reads of the
// cache and the immutable members are allowed through it.
Client* ClientForReaders();

// Progress thread only: the initialised client, or nullptr.
Client* CurrentClient();
// Any thread: true between a successful PMIx_Init and the last PMIx_Finalize.
bool ClientInitialized();
// Any thread while initialised: this process's name.
const pmix_proc_t& MyProc();

// Posts fn to the progress thread with the client; if the client is gone
// by then (or was never initialised) fn is not run and `gone` is called
// with PMIX_ERR_INIT instead (both on the progress thread).
void PostToClient(std::function<void(Client&)> fn, std::function<void(Status)> gone);

// Message handlers for unsolicited frames from the server.
// `codec`: the one of the connection the frame came on.
void HandleEvent(Client& client, const pmix_bfrops_module_t* codec,
                 ptl::Frame&& frame);                  // client_events.cc
// A fence's answer sent as a frame tagged with a doorbell ticket's seq
// (client_fence.cc).
void HandleFenceAnswer(Client& client, ptl::Frame&& frame);
// client_fence.cc: chunks the server offers ahead of a fence (Msg::kChunks):
// kept, and those kept confirmed (Msg::kChunksKept).
void HandleChunks(Client& client, ptl::Frame&& frame);
// A newer generation of a namespace's job-data image (client_job_update.cc).
void HandleJobUpdate(Client& client, const pmix_bfrops_module_t* codec, ptl::Frame&& frame);
// The server connection was lost (PMIX_ERR_LOST_CONNECTION event etc.).
void EventsOnServerLost(Client& client);               // client_events.cc
// PMIx_Finalize: drop pending state before the connection closes.
void PutShutdown(Client& client);                      // client_put.cc
// Sends the puts not yet committed (PMIx_Commit's work, progress thread).
void CommitPending(Client& client);                    // client_put.cc
// Another namespace's job-data image as the server sent it
// (src/wire/job_image.h: nullptr for a NODATA namespace, or the error that
// made it unusable, which is logged) into the cache; marks the namespace
// fetched. The caller holds cache_mu exclusively (client_get.cc).
using ForeignImage = Result<std::shared_ptr<const gds::Image>>;
void AttachForeignJob(Client& client, const std::string& nspace, ForeignImage image);
// The job info records a connect (or group construction) reply carries
// into the cache: the namespaces not known yet (client_connect.cc). Takes
// cache_mu itself.
void IngestJobRecords(Client& client, std::span<const server::JobInfoRecord> records);

// Process groups (client_group_events.cc), progress thread:
// - an event the server delivered that concerns a group this process is
//   in updates its record before any handler runs; the returned callback
//   (possibly empty) tells the server what the handlers decided, for the
//   events that ask for a verdict;
event::Dispatcher::ChainDone GroupOnEvent(Client& client, const event::EventPtr& ev);
// - a get whose target is a group id ({grp, r} becomes the member's id in
//   *target) or whose key the server answers live (PMIX_GROUP_NAMES,
//   PMIX_PSET_NAMES): true when it took the get over (`done` is called,
//   possibly at once), false to go on with *target;
bool GroupGet(Client& client, pmix_proc_t* target, const std::string& key,
              std::function<void(Status, gds::ValuePtr)> done);
// - whether this process is in the custom range of an event through a
//   group id it is a member of.
bool InGroupRange(const Client& client, const event::Event& ev);
// Other jobs' job records a server passed on (PeerData::Add) into the
// cache (PMIX_GLOBAL); takes cache_mu. The first error (client_get.cc).
Status StoreJobRecords(Client& client, const std::vector<wire::ProcData>& jobs);

}  // namespace pmix::client

#endif  // PMIXX_SRC_CLIENT_CLIENT_STATE_H
