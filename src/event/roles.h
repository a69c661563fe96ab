// How an event raised with PMIx_Notify_event leaves the process, per role:
// the entry points src/event/event_api.cc calls after it picked the role
// the process holds (server first, then client). Defined in
// src/server/server_events.cc and src/client/client_events.cc, which also
// hold the handlers of the role's event messages (wire::Msg::kNotify on
// the server, wire::Msg::kEvent on the client).
//
// Threads: progress thread only. `done` is called exactly once, on the
// progress thread, possibly before the function returns.
#ifndef PMIXX_SRC_EVENT_ROLES_H
#define PMIXX_SRC_EVENT_ROLES_H

#include <functional>
#include <memory>

#include "src/common/status.h"
#include "src/event/event.h"

namespace pmix::server {
struct Server;
struct Peer;
// An event the host (or the server library itself) raised: the server's
// own handlers, then every connected client in range (PMIX_RANGE_PROC_LOCAL:
// the server's handlers only). Never echoed to the host's notify_event.
void EventsNotifyFromHost(Server& server, event::EventPtr event, std::function<void(Status)> done);
// A client (or tool) was admitted (hello done, host accepted it): sends it
// the events the server relayed before, in arrival order, that are in its
// range (the server's bounded cache: the last 64 events, without those
// raised with PMIX_EVENT_DO_NOT_CACHE or by the peer itself; a
// PMIX_DEBUGGER_RELEASE only to clients of the namespaces registered when it
// was raised). For
// server_peers.cc, right after the peer joins Server::peers.
void EventsOnPeerConnected(Server& server, const std::shared_ptr<Peer>& peer);
}  // namespace pmix::server

namespace pmix::client {
struct Client;
// An event this client raised: its own handlers when it is in the range
// (always for PMIX_RANGE_PROC_LOCAL, never for PMIX_RANGE_RM), and the
// server (wire::Msg::kNotify) for every range but PROC_LOCAL. `done` gets
// the server's answer (PMIX_ERR_UNREACH for PMIX_RANGE_RM in a singleton;
// other ranges succeed there after the local delivery).
void EventsNotify(Client& client, event::EventPtr event, std::function<void(Status)> done);
// Finalize: drop the process's handlers and pending deliveries (unless a
// server role remains in the process). For client.cc's teardown.
void EventsShutdown(Client& client);
}  // namespace pmix::client

#endif  // PMIXX_SRC_EVENT_ROLES_H
