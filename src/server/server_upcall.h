// Host upcalls and peer replies shared by the server's per-operation files.
//
// CallHostForInfos / CallHostForStatus wrap one upcall of the host's
// module whose completion is a pmix_info_cbfunc_t / pmix_op_cbfunc_t:
// `call(cbfunc, cbdata)` makes the upcall and returns its status. `done`
// then runs exactly once on the progress thread: with what the host hands
// its callback (results copied, the host's release function called at
// once), or at once with the upcall's own outcome when the host will not
// call back (PMIX_OPERATION_SUCCEEDED becomes PMIX_SUCCESS). A callback
// that arrives after the server finalized is dropped. The host may call
// back from any thread, also from inside the upcall.
//
// ReplyStatusInfos answers a peer's request with the body "status, info
// array" (nothing when the peer is gone by then).
//
// Threads: call all of these on the progress thread.
#ifndef PMIXX_SRC_SERVER_SERVER_UPCALL_H
#define PMIXX_SRC_SERVER_SERVER_UPCALL_H

#include <functional>
#include <memory>

#include "pmix_server.h"
#include "src/server/server_state.h"
#include "src/wire/buffer.h"

namespace pmix::server {

using InfosDone = std::function<void(pmix_status_t, wire::Infos&&)>;
using StatusDone = std::function<void(pmix_status_t)>;

void CallHostForInfos(const std::function<pmix_status_t(pmix_info_cbfunc_t, void*)>& call,
                      InfosDone done);
void CallHostForStatus(const std::function<pmix_status_t(pmix_op_cbfunc_t, void*)>& call,
                       StatusDone done);

void ReplyStatusInfos(const std::weak_ptr<Peer>& peer, const ptl::Frame& request,
                      pmix_status_t status, const wire::Infos& infos);

// The header of `frame` without its payload: what a reply needs, cheap to
// keep in a continuation.
ptl::Frame ReplyHeader(const ptl::Frame& frame);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_UPCALL_H
