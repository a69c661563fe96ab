// Allocation requests and process monitoring on the server (standard
// §13.1 PMIx_Allocation_request[_nb], §13.3 PMIx_Process_monitor[_nb],
// upcalls §17.3 allocate / monitor).
//
// The library itself supports no allocation attribute, so every
// allocation request goes to the host; a monitor request goes to the host
// first and is handled by the library (server_monitor.h) when the host has
// no monitor upcall or answers PMIX_ERR_NOT_SUPPORTED. To the host: its allocate upcall with the directive
// and the request's infos, its monitor upcall with the monitor info, the
// error code and the directives. Both get the requester and, appended to
// the infos, PMIX_USERID and PMIX_GRPID of the requester (§13.1.1,
// §13.3.1); a PMIX_USERID / PMIX_GRPID the requester put there itself is
// dropped first, so the host can trust the ones it reads (AddRequesterIds). A NULL upcall
// in the host's module answers PMIX_ERR_NOT_SUPPORTED (allocation). The host's status
// and result infos go back to the requester.
//
// Heartbeats: PMIx_Heartbeat() is PMIx_Process_monitor_nb with the monitor
// PMIX_SEND_HEARTBEAT and no callback; it reaches the host's monitor upcall
// like any monitor request (the host, or the library when the host does
// not, keeps the watchdogs that PMIX_MONITOR_HEARTBEAT requests asked for). Such "void" attributes,
// loaded as a NULL PMIX_POINTER (which no codec packs), reach the host
// value-less (PMIX_UNDEF, reads as true), from local and remote callers
// alike (client_monitor.cc).
//
// Wire (requests; reply = status, info array results):
//   kAllocate: alloc directive (PMIX_ALLOC_DIRECTIVE), info array
//   kMonitor:  info array holding exactly the monitor, status error,
//              info array directives
//
// Threads: everything here runs on the server's progress thread.
#ifndef PMIXX_SRC_SERVER_SERVER_ALLOC_H
#define PMIXX_SRC_SERVER_SERVER_ALLOC_H

#include <span>

#include "src/server/server_state.h"
#include "src/server/server_upcall.h"

namespace pmix::server {

// `done` runs exactly once on the progress thread (possibly before the
// call returns), unless the server finalizes while the host holds the
// request.
void Allocate(Server& s, const Requester& who, pmix_alloc_directive_t directive,
              std::span<const pmix_info_t> info, InfosDone done);
void Monitor(Server& s, const Requester& who, const pmix_info_t& monitor, pmix_status_t error,
             std::span<const pmix_info_t> directives, InfosDone done);

// The kAllocate / kMonitor message handlers.
void HandleAllocate(Server& s, const PeerPtr& peer, ptl::Frame&& frame);
void HandleMonitor(Server& s, const PeerPtr& peer, ptl::Frame&& frame);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_ALLOC_H
