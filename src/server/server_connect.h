// PMIx_Connect / PMIx_Disconnect on the server (standard §12.3, §17.3.12,
// §17.3.13): collectives over a proc set, aggregated like a fence.
//
// Each local participant's request joins a tracker (server_fence.h: the
// same canonical sets, participant resolution and trackers; connects and
// disconnects are kept apart from fences and from each other). When every
// local participant is in, the host's connect / disconnect upcall is called
// ONCE with the canonical procs and every local contributor's directives
// (fence::MergeDirectives: the first value of a key wins), and
// its status goes back to every local participant.
//
// Decisions the standard leaves open:
// - No connect (disconnect) upcall in the host's module: when every
//   participant is local to this server there is nothing to coordinate
//   across nodes, and the operation succeeds without the host. With
//   remote participants (or a namespace not registered here) it fails
//   with PMIX_ERR_NOT_SUPPORTED.
// - A local participant whose connection closes without PMIx_Finalize
//   fails every pending operation it belongs to with
//   PMIX_ERR_PROC_TERM_WO_SYNC; one that finalized before contributing
//   fails them with PMIX_ERR_LOST_CONNECTION (it can no longer take part).
//   Later requests naming a participant that died (not one that finalized)
//   fail at once with PMIX_ERR_PROC_TERM_WO_SYNC until it connects again.
//   A participant that finalized after contributing keeps its contribution.
// - PMIX_TIMEOUT (seconds, the earliest of the contributors'): the server
//   answers PMIX_ERR_TIMEOUT; a host callback arriving later is dropped.
//   The directive also goes to the host (§12.3.1: every attribute does).
// - A namespace deregistered while an operation over it is pending fails
//   it with PMIX_ERR_NOT_FOUND; server finalize fails pending ones with
//   PMIX_ERR_INIT.
// - Whether a disconnect names a previously connected set is checked by
//   each client (client_connect.cc), which knows what it connected.
//
// Wire (wire::Msg::kConnect / kDisconnect, requests): body = procs,
// info array directives. Reply: status; on success a connect's reply goes
// on with u32 n, then n times: string nspace, the namespace's job-data
// image (src/wire/job_image.h: a descriptor to a client on a Unix socket)
// -- of every participating namespace registered here, so that the client
// can answer job-level gets about it locally, as §12.2.1 promises for
// spawned jobs. A disconnect's reply has n = 0.
//
// Threads: everything here runs on the server's progress thread.
#ifndef PMIXX_SRC_SERVER_SERVER_CONNECT_H
#define PMIXX_SRC_SERVER_SERVER_CONNECT_H

#include <span>
#include <string>
#include <vector>

#include "src/server/server_state.h"
#include "src/server/server_upcall.h"
#include "mca/gds/base/image.h"
#include "src/wire/buffer.h"

namespace pmix::server {

enum class ConnectKind { kConnect, kDisconnect };

// One namespace's job info as a connect reply carries it: its job-data
// image (src/wire/job_image.h; nullptr for a NODATA namespace).
struct JobInfoRecord {
  std::string nspace;
  std::shared_ptr<const gds::Image> image;
};

// The job-data image of every namespace among `procs` that is registered
// here, one record per namespace (first appearance first): what a
// connect's reply carries, and a group construction's too.
std::vector<JobInfoRecord> JobInfoRecords(Server& s, std::span<const pmix_proc_t> procs);

// The reply body (see above); records only with PMIX_SUCCESS. fds: the
// frame's descriptors when the peer can take them (else nullptr: images
// inline).
Status PackConnectReply(wire::Writer& w, pmix_status_t status,
                        std::span<const JobInfoRecord> records, std::vector<ptl::Fd>* fds);
// Reads it back: the status, and the records into *records (images taken
// from the reply's descriptors fds). An unusable image fails the whole
// reply with its status.
pmix_status_t UnpackConnectReply(wire::Reader& r, std::vector<ptl::Fd>& fds,
                                 std::vector<JobInfoRecord>* records);

// The message handlers (kConnect, kDisconnect).
void HandleConnect(Server& s, const PeerPtr& peer, ptl::Frame&& frame);
void HandleDisconnect(Server& s, const PeerPtr& peer, ptl::Frame&& frame);

// A process that is itself a server calls PMIx_Connect / PMIx_Disconnect:
// it has no local collective to join, so the request goes to its host's
// upcall directly (PMIX_ERR_NOT_SUPPORTED without one). `done` as
// CallHostForStatus.
void ConnectAsServer(Server& s, ConnectKind kind, std::span<const pmix_proc_t> procs,
                     std::span<const pmix_info_t> directives, StatusDone done);

// Hooks for the core (server_peers.cc, server_registry.cc, server.cc).
void ConnectOnPeerLost(Server& s, const PeerPtr& peer);
void ConnectOnNamespaceGone(Server& s, const std::string& nspace);
void ConnectShutdown(Server& s);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_CONNECT_H
