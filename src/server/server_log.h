// PMIx_Log on the server (standard §13.4, host upcall §17.3.20).
//
// A request goes to the host's log upcall with the requester: the data as
// given, the directives plus PMIX_LOG_SOURCE (the requester, unless the
// directives name a source), PMIX_USERID and PMIX_GRPID in place of any
// the requester sent (§13.4.1, AddRequesterIds). The
// host's status is the outcome. When the host has no log upcall, or
// answers PMIX_ERR_NOT_SUPPORTED, the server serves the channels it can
// itself (log_channels.h: stderr, stdout, syslog) and fails with
// PMIX_ERR_NOT_SUPPORTED for the others.
//
// Wire (wire::Msg::kLog, a request): body = info array data, info array
// directives; reply = status, info array (empty).
//
// Threads: progress thread only.
#ifndef PMIXX_SRC_SERVER_SERVER_LOG_H
#define PMIXX_SRC_SERVER_SERVER_LOG_H

#include <functional>
#include <memory>

#include "src/server/server_state.h"
#include "src/server/server_upcall.h"
#include "src/wire/buffer.h"

namespace pmix::server {

// Called exactly once with the outcome, on the progress thread (possibly
// before Log returns), unless the server finalizes while the host holds
// the request.
using LogDone = std::function<void(pmix_status_t)>;

void Log(Server& s, const Requester& who, std::shared_ptr<const wire::Infos> data,
         std::shared_ptr<const wire::Infos> directives, LogDone done);

// The kLog message handler.
void HandleLog(Server& s, const PeerPtr& peer, ptl::Frame&& frame);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_LOG_H
