// pmixrun's query and log upcalls (standard §17.3.18, §17.3.20). They run
// on the server's progress thread and never block.
//
// query: the library answers what it knows itself (namespaces, process
// tables, job data, ...: src/server/server_query_keys.h) and hands pmixrun
// the rest. pmixrun answers
//   PMIX_QUERY_JOB_STATUS (PMIX_STATUS)  PMIX_SUCCESS for a job it runs
//                                        (PMIX_NSPACE, default the
//                                        requester's job)
//   PMIX_QUERY_SUPPORTED_KEYS (string)   the keys it answers itself
// and reports PMIX_ERR_NOT_FOUND when it answers none of the keys.
//
// log: PMIX_LOG_STDERR / PMIX_LOG_STDOUT go to pmixrun's stderr / stdout as
// "[pmixrun log from <nspace>:<rank>] <text>", PMIX_LOG_SYSLOG and
// PMIX_LOG_LOCAL_SYSLOG to syslog(3); PMIX_LOG_ONCE stops after the first
// of those; PMIX_LOG_TIMESTAMP / PMIX_LOG_GENERATE_TIMESTAMP prefix the
// time. Status: SUCCESS when every channel was served,
// PMIX_ERR_PARTIAL_SUCCESS when some were, PMIX_ERR_NOT_SUPPORTED when
// none (the library then tries the channels itself).
#ifndef PMIXX_TOOLS_PMIXRUN_HOST_QUERY_H
#define PMIXX_TOOLS_PMIXRUN_HOST_QUERY_H

#include "pmix_server.h"

namespace pmixrun {

void FillQueryModule(pmix_server_module_t* module);
void FillLogModule(pmix_server_module_t* module);

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_HOST_QUERY_H
