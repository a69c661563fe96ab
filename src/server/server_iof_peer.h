// IO forwarding requests on the server (standard §18.3, §18.5.7-§18.5.9):
// PMIx_IOF_pull / PMIx_IOF_deregister / PMIx_IOF_push of its clients and
// tools (wire::Msg::kIof, bodies in src/iof/iof_wire.h), and of the
// server process itself.
//
// Pull: a registration in Server::iof whose sink sends each chunk to the
// requester (kDeliver, one-way, tagged with the requester's handle), after
// the host's iof_pull upcall accepted it (procs, directives, channels); a
// host without that upcall is taken to deliver everything through
// PMIx_server_IOF_deliver anyway (pmixrun does), so the pull succeeds. An
// error from the host fails the pull. PMIX_ERR_BAD_PARAM: no procs, or a
// channel mask that is empty or outside PMIX_FWD_ALL_CHANNELS.
// Deregister: the registration goes (PMIX_ERR_NOT_FOUND when the requester
// has none of that id); the host's iof_pull hears of it with PMIX_IOF_STOP
// added to the directives. A peer's registrations go with its connection.
// Push: data (or, eof, the end of the stream: an empty byte object and
// PMIX_IOF_COMPLETE among the directives) to the host's push_stdin, with
// the requester as source; its status is the answer
// (PMIX_ERR_NOT_SUPPORTED without the upcall).
//
// Threads: progress thread only.
#ifndef PMIXX_SRC_SERVER_SERVER_IOF_PEER_H
#define PMIXX_SRC_SERVER_SERVER_IOF_PEER_H

#include <functional>
#include <memory>
#include <vector>

#include "src/server/server_iof.h"
#include "src/server/server_state.h"
#include "src/wire/buffer.h"

namespace pmix::server {

using IofPullDone = std::function<void(pmix_status_t, uint64_t id)>;

// `owner`: the requester (a peer, or nullptr for this process); `conn`:
// where `sink` writes (back-pressure; empty for an in-process sink).
// Returns the registration's id at once (0 when refused at once).
uint64_t IofPull(Server& s, const void* owner, std::vector<pmix_proc_t> procs,
                 pmix_iof_channel_t channels, wire::Infos directives, IofSink sink,
                 std::weak_ptr<wire::Connection> conn, IofPullDone done);
pmix_status_t IofDeregister(Server& s, const void* owner, uint64_t id,
                            std::span<const pmix_info_t> directives);
void IofPush(Server& s, const pmix_proc_t& source, std::vector<pmix_proc_t> targets,
             wire::Infos directives, wire::Bytes data, bool eof,
             std::function<void(pmix_status_t)> done);

// The kIof message handler.
void HandleIof(Server& s, const PeerPtr& peer, ptl::Frame&& frame);
// A peer's connection closed: its registrations go.
void IofOnPeerLost(Server& s, const PeerPtr& peer);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_IOF_PEER_H
