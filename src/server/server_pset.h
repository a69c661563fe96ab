// Process sets on the server (standard §14.1, §17.2.19-20):
// PMIx_server_define_process_set / PMIx_server_delete_process_set keep the
// host's sets and tell every local client (PMIX_PROCESS_SET_DEFINE with
// PMIX_PSET_NAME and PMIX_PSET_MEMBERS; PMIX_PROCESS_SET_DELETE with
// PMIX_PSET_NAME; source: the server, range PMIX_RANGE_LOCAL). Gets of
// PMIX_PSET_NAMES and the pset queries are answered from them.
//
// Decisions: defining a name that exists is PMIX_EXISTS, deleting an
// unknown one PMIX_ERR_NOT_FOUND; both APIs are blocking (they return
// PMIX_ERR_WOULD_BLOCK inside an upcall or callback).
//
// Threads: the APIs from any thread; the rest on the progress thread.
#ifndef PMIXX_SRC_SERVER_SERVER_PSET_H
#define PMIXX_SRC_SERVER_SERVER_PSET_H

#include <string>
#include <string_view>
#include <vector>

#include "mca/gds/base/gds_base.h"
#include "src/server/query_answers.h"
#include "src/server/server_state.h"

namespace pmix::server {

// The sets `proc` belongs to, sorted.
std::vector<std::string> PsetNamesOf(const pmix_proc_t& proc);

// PMIX_QUERY_NUM_PSETS, PMIX_QUERY_PSET_NAMES, PMIX_QUERY_PSET_MEMBERSHIP
// (qualifier PMIX_PSET_NAME): the answer, or nullptr.
gds::ValuePtr PsetQueryAnswer(const query::Query& q, std::string_view key);
bool IsPsetQueryKey(std::string_view key);

void PsetShutdown(Server& s);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_PSET_H
