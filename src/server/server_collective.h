// What the server's collectives (fence: server_fence.cc; connect and
// disconnect: server_connect.cc) share beyond their tracker bookkeeping
// (server_fence.h): the registered namespaces as fence::Resolve reads them,
// the PMIX_TIMEOUT deadline, and the one answer that goes to every local
// contributor.
//
// Threads: progress thread only.
#ifndef PMIXX_SRC_SERVER_SERVER_COLLECTIVE_H
#define PMIXX_SRC_SERVER_SERVER_COLLECTIVE_H

#include <functional>

#include "src/server/server_fence.h"
#include "src/server/server_state.h"

namespace pmix::server::fence {

// What `s` knows of a namespace: its local ranks (from the host's
// registration and the clients registered so far) and its job size. The
// lookup refers to `s`: use it while `s` lives.
NamespaceLookup NamespacesOf(Server& s);

// The reply body for a contributor speaking `codec`.
using BodyFor = std::function<wire::Bytes(const pmix_bfrops_module_t* codec)>;

// Bounds `t` by PMIX_TIMEOUT `seconds` from now: unless an earlier bound
// is armed already, (re)arms t.deadline / t.timer so that `expire(t.id)`
// runs on the progress thread then (nothing without a progress engine).
void ArmDeadline(Tracker& t, int64_t seconds, std::function<void(uint64_t id)> expire);

// Replies to every contributor of `t` whose connection is still open,
// building one body per codec.
void AnswerAll(const Tracker& t, const BodyFor& body_for);

}  // namespace pmix::server::fence

#endif  // PMIXX_SRC_SERVER_SERVER_COLLECTIVE_H
