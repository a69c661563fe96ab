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
// array" (nothing when the peer is gone by then); InfosReplier /
// StatusReplier make the `done` of a request handler that answers so.
//
// Requester: who asks for an operation the host completes. Every upcall
// whose infos carry PMIX_USERID / PMIX_GRPID gets them through
// AddRequesterIds, so the host can trust the ones it reads.
//
// Threads: call all of these on the progress thread.
#ifndef PMIXX_SRC_SERVER_SERVER_UPCALL_H
#define PMIXX_SRC_SERVER_SERVER_UPCALL_H

#include <sys/types.h>

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "pmix_server.h"
#include "src/server/server_state.h"
#include "src/wire/buffer.h"

namespace pmix::server {

struct Requester {
  pmix_proc_t proc{};
  uid_t uid = 0;
  gid_t gid = 0;
};
// A connected peer as requester: its name and the ids it authenticated with.
Requester RequesterOf(const Peer& peer);
// This process as requester of its own server (a server process running
// a client API itself): its name and its real uid/gid.
Requester SelfRequester(const Server& s);

// Drops every PMIX_USERID / PMIX_GRPID already in *infos (a requester must
// not pose as another user), then appends the requester's. Order of the
// other infos is kept. On error *infos is unchanged.
Status AddRequesterIds(wire::Infos* infos, const Requester& who);
// The same on a copy of `in`.
Result<wire::Infos> WithRequesterIds(std::span<const pmix_info_t> in, const Requester& who);

using InfosDone = std::function<void(pmix_status_t, wire::Infos&&)>;
using StatusDone = std::function<void(pmix_status_t)>;

void CallHostForInfos(const std::function<pmix_status_t(pmix_info_cbfunc_t, void*)>& call,
                      InfosDone done);
void CallHostForStatus(const std::function<pmix_status_t(pmix_op_cbfunc_t, void*)>& call,
                       StatusDone done);

// CallHostForLookup: the same for a pmix_lookup_cbfunc_t completion (the
// host's publish/lookup datastore). `done` gets what the host found, copied
// before its callback returns: found.data[i] (key and value) was published
// by found.publishers[i].
struct LookupFound {
  wire::Infos data;
  std::vector<pmix_proc_t> publishers;
};
using LookupDone = std::function<void(pmix_status_t, LookupFound&&)>;
void CallHostForLookup(const std::function<pmix_status_t(pmix_lookup_cbfunc_t, void*)>& call,
                       LookupDone done);

// CallHostForSpawn: the same for a pmix_spawn_cbfunc_t completion (the
// host's spawn). `done` gets the status and the namespace the host named
// ("" when it named none, e.g. with PMIX_OPERATION_SUCCEEDED).
using SpawnResultDone = std::function<void(pmix_status_t, std::string)>;
void CallHostForSpawn(const std::function<pmix_status_t(pmix_spawn_cbfunc_t, void*)>& call,
                      SpawnResultDone done);

void ReplyStatusInfos(const std::weak_ptr<Peer>& peer, const ptl::Frame& request,
                      pmix_status_t status, const wire::Infos& infos);

// A `done` that answers `request` of `peer` with status, info array /
// status and an empty info array (nothing when the peer is gone by then).
InfosDone InfosReplier(const PeerPtr& peer, const ptl::Frame& request);
StatusDone StatusReplier(const PeerPtr& peer, const ptl::Frame& request);

// The header of `frame` without its payload: what a reply needs, cheap to
// keep in a continuation.
ptl::Frame ReplyHeader(const ptl::Frame& frame);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_UPCALL_H
