// PMIx_Query_info on the server (standard §7.1, host upcall §17.3.18).
//
// A query's keys are answered, each by the first that can:
//   1. the library itself (server_query_keys.h: namespaces, process tables,
//      available servers, host function support, ...);
//   2. the server's store: a job-level (or, with PMIX_RANK/PMIX_PROCID,
//      process-level) key of a registered namespace, looked up as a get
//      would with the query's qualifiers (PMIX_NSPACE names the job;
//      default: the requester's);
//   3. the host's query upcall, called once with the remaining keys (each
//      query keeping its qualifiers) and the requester; no upcall counts
//      as PMIX_ERR_NOT_SUPPORTED for those keys.
// The answers are merged as query_answers.h says (flat info array;
// SUCCESS / PARTIAL_SUCCESS / NOT_FOUND or the host's error).
//
// Wire (wire::Msg::kQuery, a request): body = the queries
// (query::PackQueries); reply = status, info array.
//
// Threads: progress thread only.
#ifndef PMIXX_SRC_SERVER_SERVER_QUERY_H
#define PMIXX_SRC_SERVER_SERVER_QUERY_H

#include <functional>

#include "src/server/query_answers.h"
#include "src/server/server_state.h"
#include "src/wire/buffer.h"

namespace pmix::server {

// Called exactly once with the merged outcome, on the progress thread
// (possibly before Query returns), unless the server finalizes while the
// host holds the request.
using QueryDone = std::function<void(pmix_status_t, wire::Infos&&)>;

void Query(Server& s, const pmix_proc_t& requester, query::QueryList&& queries, QueryDone done);

// The kQuery message handler.
void HandleQuery(Server& s, const PeerPtr& peer, ptl::Frame&& frame);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_QUERY_H
