// Internal entry points between the server core's files (server.cc,
// server_peers.cc, server_registry.cc). Progress thread only, except
// ServerInitialized.
#ifndef PMIXX_SRC_SERVER_SERVER_INTERNAL_H
#define PMIXX_SRC_SERVER_SERVER_INTERNAL_H

#include <memory>
#include <span>
#include <string>

#include "src/event/event.h"
#include "src/server/server_state.h"

namespace pmix::server {

// Any thread: between a successful PMIx_server_init and the last finalize.
bool ServerInitialized();

// The first frame of an accepted connection: the peer's hello.
void OnHello(Server& server, const std::shared_ptr<wire::Connection>& conn, ptl::Frame&& frame);

// The admission steps every role shares (server_peers.cc; a tool's own
// steps are in server_tool.cc):
// refuses a hello: the status goes back (best effort: a small frame on a
// fresh socket) and the connection is closed;
void RefuseHello(const std::shared_ptr<wire::Connection>& conn, const ptl::Frame& hello,
                 pmix_status_t status, const char* why);
// whether a peer may use this psec module here: a selected one, "none"
// only when it is the first choice (else anyone could claim it);
bool AcceptablePsec(const std::string& psec);
// an admitted peer goes live: its messages are routed, its loss handled,
// it joins Server::peers;
void ActivatePeer(Server& server, const std::shared_ptr<Peer>& peer);
// the welcome: the body every role gets (server, hostname, local procs,
// gds, its namespace's job-data image or none -- src/wire/job_image.h: a
// descriptor appended to *fds for a peer on a Unix socket), which a role
// may extend, then sent as the hello's reply with those descriptors; the
// events cached for it follow. A welcome that cannot be written closes
// the connection.
Status WriteWelcome(const Server& server, const Peer& peer, wire::Writer& w,
                    std::vector<ptl::Fd>* fds);
void SendWelcome(Server& server, const std::shared_ptr<Peer>& peer, const ptl::Frame& hello,
                 wire::Writer& w, std::vector<ptl::Fd> fds);

// The environment PMIx_server_setup_fork gives every client (besides its
// own name), built once the server listens: setup_fork reads it without
// the progress thread, because hosts call it in the forked child (Slurm),
// where that thread does not exist. Publish on the progress thread at
// init, Retract at finalize; Current from any thread (nullptr: none).
void PublishForkEnv(const Server& server);
void RetractForkEnv();

// Runs fn on the progress thread with the server; cbfunc gets its status
// there, after the caller's API call returned. Blocking (returns fn's
// status; PMIX_ERR_WOULD_BLOCK on the progress thread) when cbfunc is
// NULL. PMIX_ERR_INIT before PMIx_server_init.
pmix_status_t RunOp(std::function<Status(Server&)> fn, pmix_op_cbfunc_t cbfunc, void* cbdata);

// An event the server library raises itself (the group events of
// server_group*.cc): kept in the relay cache, sent to every connected
// client in its range, to the server's own handlers when in range, and to
// the host's notify_event when `to_host` (some target lives elsewhere).
void EventsRaise(Server& server, std::shared_ptr<const event::Event> ev, bool to_host);

// A reply body that is only a status.
wire::Bytes StatusBody(const pmix_bfrops_module_t* codec, pmix_status_t status);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_INTERNAL_H
