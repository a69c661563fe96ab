// Job control on the server (standard §13.2, PMIx_Job_control[_nb]).
//
// A request's cleanup directives (server_cleanup.h) are kept by the
// library itself: they run when the target process's connection closes
// (finalized or lost), when its namespace is deregistered (targets of rank
// PMIX_RANK_WILDCARD, and targets that never connected), or at server
// finalize. No target means the requester itself. Every other directive
// goes to the host's job_control upcall, with PMIX_USERID and PMIX_GRPID
// of the requester in place of any the requester sent (§13.2.1,
// AddRequesterIds); a request that has nothing left after
// the cleanup directives succeeds without an upcall (as OpenPMIx 4.2.2
// does for Open MPI's MPI_Init), one that has and finds no upcall fails
// with PMIX_ERR_NOT_SUPPORTED.
//
// Wire (wire::Msg::kJobControl, a request): body = procs targets, info
// array directives; reply = status, info array results.
//
// Threads: everything here runs on the server's progress thread.
#ifndef PMIXX_SRC_SERVER_SERVER_JOB_CONTROL_H
#define PMIXX_SRC_SERVER_SERVER_JOB_CONTROL_H

#include <functional>
#include <span>
#include <string>

#include "src/server/server_state.h"
#include "src/server/server_upcall.h"
#include "src/wire/buffer.h"

namespace pmix::server {

// Called exactly once with the outcome and the host's results, on the
// progress thread (possibly before JobControl returns), unless the server
// finalizes while the host still holds the request.
using JobControlDone = InfosDone;

void JobControl(Server& s, const Requester& who, std::span<const pmix_proc_t> targets,
                std::span<const pmix_info_t> directives, JobControlDone done);

// The kJobControl message handler.
void HandleJobControl(Server& s, const PeerPtr& peer, ptl::Frame&& frame);

// Hooks for the core (server_peers.cc, server_registry.cc, server.cc).
void JobControlOnPeerLost(Server& s, const PeerPtr& peer);
void JobControlOnNamespaceGone(Server& s, const std::string& nspace);
void JobControlShutdown(Server& s);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_JOB_CONTROL_H
