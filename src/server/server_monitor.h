// Process monitoring done by the server library itself (standard §13.3)
// when the host does not take the request (no monitor upcall, or the
// upcall answers PMIX_ERR_NOT_SUPPORTED), as OpenPMIx does:
//
// - PMIX_MONITOR_HEARTBEAT: the requester promises heartbeats
//   (PMIx_Heartbeat(), i.e. the monitor PMIX_SEND_HEARTBEAT) at least every
//   PMIX_MONITOR_HEARTBEAT_TIME seconds (default 1); after
//   PMIX_MONITOR_HEARTBEAT_DROPS (default 1) periods without one the event
//   `error` (or PMIX_MONITOR_HEARTBEAT_ALERT when it is PMIX_SUCCESS) is
//   raised, range PMIX_RANGE_NAMESPACE, source and
//   PMIX_EVENT_AFFECTED_PROC the silent proc, with PMIX_MONITOR_ID. It is
//   raised once per stall; a later heartbeat re-arms it.
// - PMIX_MONITOR_FILE (the path): every PMIX_MONITOR_FILE_CHECK_TIME
//   seconds (default 1) the file is checked for growth
//   (PMIX_MONITOR_FILE_SIZE), access (PMIX_MONITOR_FILE_ACCESS) and/or
//   modification (PMIX_MONITOR_FILE_MODIFY); naming none of them is
//   PMIX_ERR_BAD_PARAM (as OpenPMIx 4.2.2 answers); after PMIX_MONITOR_FILE_DROPS (default 1) checks without
//   change, PMIX_MONITOR_FILE_ALERT (or `error`) is raised likewise.
// - PMIX_MONITOR_CANCEL (char*, the PMIX_MONITOR_ID; NULL or "" = all):
//   stops the requester's monitors.
//
// A monitor ends with its proc's connection. Progress thread only.
#ifndef PMIXX_SRC_SERVER_SERVER_MONITOR_H
#define PMIXX_SRC_SERVER_SERVER_MONITOR_H

#include <span>

#include "src/server/server_state.h"
#include "src/server/server_upcall.h"

namespace pmix::server {

// Handles the request; `done` runs once (before the return). Answers
// PMIX_ERR_NOT_SUPPORTED for a monitor it does not know.
void MonitorInLibrary(Server& s, const pmix_proc_t& who, const pmix_info_t& monitor,
                      pmix_status_t error, std::span<const pmix_info_t> directives,
                      const InfosDone& done);

// The server finalizes: every monitor stops.
void MonitorShutdown(Server& s);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_MONITOR_H
