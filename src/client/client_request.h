// Client requests answered with a status and an info array: the shape of
// most client APIs that the server (or its host) completes — job control,
// publish/lookup, query, log, spawn, allocation, monitoring, ...
//
// StartInfoRequest posts the operation to the progress thread. There, in a
// client or tool connected to a server, `write` packs the body of a `msg`
// request to the server and the reply is read as: status, then
// (optionally) an info array; in a process that is a server and has no
// such connection (PMIx_server_init), `as_server` runs it locally
// (nullptr: PMIX_ERR_NOT_SUPPORTED), since its own host is the one that
// would answer. `done` runs exactly once, on the progress thread, and only when
// StartInfoRequest returned PMIX_SUCCESS (never before it returned).
//
// `write` and `as_server` run on the progress thread after the caller's
// call returned: they must capture copies of the caller's data.
#ifndef PMIXX_SRC_CLIENT_CLIENT_REQUEST_H
#define PMIXX_SRC_CLIENT_CLIENT_REQUEST_H

#include <functional>

#include "pmix.h"
#include "src/common/status.h"
#include "src/server/server_state.h"
#include "src/server/server_upcall.h"
#include "src/wire/buffer.h"
#include "src/wire/protocol.h"

namespace pmix::client {

struct InfoReply {
  pmix_status_t status = PMIX_ERROR;
  wire::Infos info;
};
using InfoDone = std::function<void(InfoReply&&)>;
using BodyWriter = std::function<void(wire::Writer&)>;
using ServerRunner = std::function<void(server::Server&, InfoDone)>;

pmix_status_t StartInfoRequest(wire::Msg msg, BodyWriter write, ServerRunner as_server,
                               InfoDone done);

// For `as_server`: the server-side operation's completion (status and
// infos / status only) turned into `done`'s InfoReply.
server::InfosDone AsInfosDone(InfoDone done);
server::StatusDone AsStatusDone(InfoDone done);

// The blocking form of any operation started like StartInfoRequest:
// `start(done)` starts it (returns its status), this waits for done
// (runtime::WaitForCallback: PMIX_ERR_WOULD_BLOCK on the progress thread).
Result<InfoReply> WaitInfoReply(const std::function<pmix_status_t(InfoDone)>& start);

// Hands a reply to a standard info callback; the infos stay valid until
// the callee invokes the release function it is given. cbfunc may be NULL.
void DeliverInfoReply(pmix_info_cbfunc_t cbfunc, void* cbdata, InfoReply&& reply);

// For blocking APIs with (pmix_info_t** info, size_t* ninfo) outputs:
// *info/*ninfo get a malloc'd copy (NULL/0 when empty; either pointer may
// be NULL when the caller wants none). Returns reply.status, or the copy's
// failure.
pmix_status_t CopyInfoReplyOut(const InfoReply& reply, pmix_info_t** info, size_t* ninfo);

}  // namespace pmix::client

#endif  // PMIXX_SRC_CLIENT_CLIENT_REQUEST_H
