// pmixrun's server module: the upcalls the PMIx server library makes on its
// progress thread. They never block: what the main loop must act on (an
// abort) is queued here and the doorbell rung (wakeup.h).
//
// Upcalls: client_connected(2), client_finalized (recorded), abort (queued),
// fence_nb (single node: returns the local data as the job's data),
// direct_modex (PMIX_ERR_NOT_FOUND: every process is local), notify_event
// (nothing to relay: the library already delivered the event to every
// local client in range, and there is no other node); spawn, connect and
// disconnect are host_spawn.h's; query and log host_query.h's; group
// host_group.h's.
#ifndef PMIXX_TOOLS_PMIXRUN_HOST_MODULE_H
#define PMIXX_TOOLS_PMIXRUN_HOST_MODULE_H

#include <string>
#include <vector>

#include "pmix_server.h"

namespace pmixrun {

struct AbortRequest {
  pmix_proc_t from{};  // the caller
  int status = 0;
  std::string message;
  std::vector<pmix_proc_t> targets;  // empty: the caller's whole job
};

// nspace: the job's namespace; verbose: log upcalls on stderr.
void FillModule(pmix_server_module_t* module, const std::string& nspace, int verbose);

// Main thread: the aborts requested since the last call.
std::vector<AbortRequest> TakeAborts();
// Whether `rank` called PMIx_Finalize (any thread).
bool RankFinalized(const std::string& nspace, pmix_rank_t rank);

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_HOST_MODULE_H
