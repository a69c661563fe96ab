// The server library's state (PMIx_server_init .. PMIx_server_finalize).
//
// Threads: every member is owned by the progress thread (DESIGN §5). API
// functions post closures that touch it; host callbacks (the cbfunc of an
// upcall, which a host may call from any thread) post back to it first.
// Server* is valid on the progress thread between init and finalize;
// CurrentServer() returns nullptr outside that window.
//
// Per-operation code lives in its own file (server_fence.cc, server_get.cc,
// server_events.cc, ...) and is reached through the handler table in
// server.cc; the hooks at the end of this file are how the core tells those
// files about connections coming and going and data arriving.
#ifndef PMIXX_SRC_SERVER_SERVER_STATE_H
#define PMIXX_SRC_SERVER_SERVER_STATE_H

#include <sys/types.h>

#include <map>
#include <optional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "mca/gds/base/gds_base.h"
#include "mca/ptl/base/ptl_base.h"
#include "pmix_server.h"
#include "src/hwloc/share.h"
#include "src/jobinfo/jobinfo.h"
#include "src/runtime/progress.h"
#include "src/server/server_accept.h"
#include "src/server/host_blob.h"
#include "src/server/modex_store.h"
#include "src/server/server_iof.h"
#include "src/server/server_tool.h"
#include "src/wire/connection.h"
#include "src/wire/doorbell.h"

namespace pmix::server {

struct Namespace;

// One connected client (or tool), after a successful hello.
struct Peer {
  std::shared_ptr<wire::Connection> conn;
  pmix_proc_t proc{};
  uid_t uid = 0;
  gid_t gid = 0;
  pid_t pid = 0;
  void* server_object = nullptr;  // what the host gave register_client
  bool finalized = false;         // sent kFinalize before closing
  bool is_tool = false;
  Namespace* ns = nullptr;        // nullptr for tools without a registered nspace
  // The page this client's fences are released through (kDoorbell).
  std::unique_ptr<wire::doorbell::Page> doorbell;
  // The server's release page, when this client waits on its words too
  // (wire/doorbell.h); nullptr otherwise.
  std::shared_ptr<wire::doorbell::ReleasePage> release;
  // The modex chunks this client keeps by serial (sent with a ticketed
  // answer's frame), each alive while its chunk is: a later answer may
  // name them in mail; a dead one is named among those to forget. With
  // each, where in it the records sent to this client so far lie (sorted,
  // merged), which a later answer's mail leaves out: records are never
  // rewritten, and one the client holds is its data still (server_collective.h).
  struct KeptChunk {
    std::weak_ptr<const void> chunk;
    std::vector<std::pair<size_t, size_t>> sent;  // (offset, length)
  };
  std::map<uint64_t, KeptChunk> kept_regions;
  // Chunks offered to this client ahead of a fence (Msg::kChunks) whose
  // keeping it has not confirmed yet (Msg::kChunksKept), by serial.
  std::map<uint64_t, std::weak_ptr<const void>> offered_regions;
};
using PeerPtr = std::shared_ptr<Peer>;

// A client the host registered (PMIx_server_register_client).
struct ClientRecord {
  uid_t uid = 0;
  gid_t gid = 0;
  void* server_object = nullptr;
  PeerPtr peer;  // set while it is connected
  pid_t pid = 0;  // its pid once it has connected, kept after it left (proc tables)
  // Set when its connection closed (PMIX_ERR_NOT_FOUND after a finalize,
  // PMIX_ERR_PROC_TERM_WO_SYNC otherwise), cleared when it connects again:
  // a later get of data it never committed fails with it at once.
  pmix_status_t departed = PMIX_SUCCESS;
  // Its exit code, when the host said (PMIX_EXIT_CODE in an event about it,
  // e.g. PMIX_EVENT_PROC_TERMINATED): proc tables report it.
  std::optional<int> exit_code;
};

// A namespace the host registered (PMIx_server_register_nspace). Its job
// data is one image in the server's store (store.FindImage(name), built
// in the gds region module's medium), which clients receive as it is.
struct Namespace {
  std::string name;
  int nlocalprocs = 0;
  jobinfo::Summary summary;     // job size, local ranks, nodes, ...
  std::map<pmix_rank_t, ClientRecord> clients;
  std::set<pmix_rank_t> committed;  // local ranks that committed at least once
  // Ranks the host deregistered (PMIx_server_deregister_client) and did not
  // register again: gone for good, no collective waits for them, a Get of
  // what they never committed fails at once. What their record said last
  // (pid, exit code, how they left; never a peer) stays for proc tables.
  std::map<pmix_rank_t, ClientRecord> deregistered;
  // What its next collect fence hands the host, filled as the local
  // commits come (host_blob.h), when its job spans other nodes.
  fence::HostBlob host_blob;
  bool IsLocal(pmix_rank_t rank) const;
  // Whether a process of `uid` may read its job data (the image: the
  // region itself for a local client, its bytes otherwise). The data
  // belongs to the users its clients were registered as; a namespace
  // with none (a job of other nodes that the host told this server
  // about) names no owner and is readable by anyone admitted.
  bool ReadableBy(uid_t uid) const;
  // Whether some of its ranks live on other nodes (the job size is known
  // and larger than its local ranks).
  bool SpansOtherNodes() const;
  // The ranks on this node: those the host listed and those registered.
  std::set<pmix_rank_t> LocalRanks() const;
  // rank's record, registered or deregistered; nullptr when neither.
  const ClientRecord* Record(pmix_rank_t rank) const;
  ClientRecord* Record(pmix_rank_t rank);
};

struct Server {
  pmix_server_module_t module{};  // the host's upcalls (NULL entries: unsupported)
  pmix_proc_t myproc{};           // PMIX_SERVER_NSPACE / PMIX_SERVER_RANK
  std::string hostname;           // PMIX_HOSTNAME or gethostname()
  std::string tmpdir;             // PMIX_SERVER_TMPDIR (or a private one)
  std::string system_tmpdir;      // PMIX_SYSTEM_TMPDIR
  bool own_tmpdir = false;        // tmpdir was made by the library (removed at finalize)
  uid_t uid = 0;
  gid_t gid = 0;
  gds::Store store;               // job data (RFC0009 placement)
  modex::Store modex;             // committed data, local and remote (modex_store.h)
  // The release page doorbell clients share (wire/doorbell.h), made at
  // the first that can use it, and its descriptor, duplicated to each.
  std::shared_ptr<wire::doorbell::ReleasePage> release_page;
  ptl::Fd release_fd;
  std::map<std::string, Namespace, std::less<>> nspaces;
  std::vector<ptl::Listener> listeners;
  std::vector<std::unique_ptr<runtime::ProgressEngine::FdWatch>> listen_watches;
  wire::Infos resources;          // PMIx_server_register_resources: every job's job-level info
  std::set<PeerPtr> peers;        // connected (hello done) peers
  // Accepted connections whose hello is pending, with the timer that
  // closes them if it does not come in time.
  std::map<std::shared_ptr<wire::Connection>, std::unique_ptr<runtime::ProgressEngine::Timer>>
      greeting;
  std::set<PeerPtr> admitting;    // hello accepted, waiting for the host's client_connected
  AcceptState accept;             // the accept loop and its limits (server_accept.h)
  // PMIx_Register_attributes: the attribute names the host supports, per
  // module function (server_attributes.h).
  std::map<std::string, std::vector<std::string>, std::less<>> host_attributes;
  // PMIx_server_deliver_inventory: the inventory delivered per node, by
  // its PMIX_HOSTNAME (server_inventory.h).
  std::map<std::string, wire::Infos, std::less<>> inventory;
  // Who gets forwarded output (PMIx_server_IOF_deliver, server_iof.h).
  IofRegistry iof;
  // The node topology shared with clients, when it is (server_topology.h).
  std::unique_ptr<hwloc::SharedTopology> shared_topology;
  // Tool support, connected tools, rendezvous files (server_tool.h).
  ToolSupport tools;

  Namespace* FindNamespace(std::string_view nspace);
  // The connected peer for proc, or nullptr.
  PeerPtr FindPeer(const pmix_proc_t& proc);
};

// Progress thread only: the running server, or nullptr.
Server* CurrentServer();

// Message handlers: one per wire::Msg the server accepts from a peer.
// `frame` is the request (reply with peer->conn->Reply(frame, body)).
using Handler = void (*)(Server& server, const PeerPtr& peer, ptl::Frame&& frame);
void HandleFence(Server& server, const PeerPtr& peer, ptl::Frame&& frame);   // server_fence.cc
void HandleDoorbell(Server& server, const PeerPtr& peer, ptl::Frame&& frame);  // server_fence.cc
// server_fence.cc: a doorbell client confirms the chunks it keeps.
void HandleChunksKept(Server& server, const PeerPtr& peer, ptl::Frame&& frame);
// server_fence.cc: offers a doorbell client the modex chunks holding its
// own records that it neither keeps nor was offered (Msg::kChunks).
void OfferChunks(Server& server, const PeerPtr& peer);
// server_fence.cc: who committed (a local process of ns) is added to what
// ns's next collect fence hands the host (Namespace::host_blob).
void NoteCommitForHost(Server& server, Namespace& ns, const pmix_proc_t& who);
void HandleGet(Server& server, const PeerPtr& peer, ptl::Frame&& frame);     // server_get.cc
void HandleCommit(Server& server, const PeerPtr& peer, ptl::Frame&& frame);  // server_get.cc
void HandleNotify(Server& server, const PeerPtr& peer, ptl::Frame&& frame);  // server_events.cc
void HandleGetCredential(Server& server, const PeerPtr& peer, ptl::Frame&& frame);  // server_credential.cc
void HandleValidateCredential(Server& server, const PeerPtr& peer, ptl::Frame&& frame);

// Hooks the core calls (each owner implements its own; all on the progress thread).
// A peer's connection closed (after finalize or not): fail/adjust what it was part of.
void FenceOnPeerLost(Server& server, const PeerPtr& peer);   // server_fence.cc
void GetOnPeerLost(Server& server, const PeerPtr& peer);     // server_get.cc
void EventsOnPeerLost(Server& server, const PeerPtr& peer);  // server_events.cc
// The host deregistered a local client that never connected (refused,
// crashed before PMIx_Init; server_peers.cc): the collectives pending on it
// drop it as one that finalized without contributing.
void ClientDeregistered(Server& server, Namespace& ns, pmix_rank_t rank);
// A process left a group (PMIx_Group_leave): fences that ride out
// departures (PMIX_GROUP_FT_COLLECTIVE) stop waiting for it.
void FenceOnParticipantLeft(Server& server, const pmix_proc_t& proc);  // server_fence.cc
// A namespace is being deregistered: drop what refers to it.
void FenceOnNamespaceGone(Server& server, const std::string& nspace);
void GetOnNamespaceGone(Server& server, const std::string& nspace);
// The server is finalizing: complete everything pending with PMIX_ERR_INIT... and drop it.
void FenceShutdown(Server& server);
void GetShutdown(Server& server);
void EventsShutdown(Server& server);

// Runs `fn` on the progress thread with the server (dropped when it is
// gone by then). For host callbacks, which may come on any thread.
void PostToServer(std::function<void(Server&)> fn);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_STATE_H
