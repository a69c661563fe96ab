// pmixrun's server module (see host_module.h).
#include "src/tools/pmixrun/host_module.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <utility>

#include "pmix.h"
#include "src/tools/pmixrun/host_debug.h"
#include "src/tools/pmixrun/host_group.h"
#include "src/tools/pmixrun/host_job_control.h"
#include "src/tools/pmixrun/host_pubsub.h"
#include "src/tools/pmixrun/host_query.h"
#include "src/tools/pmixrun/host_spawn.h"
#include "src/tools/pmixrun/host_tools.h"
#include "src/tools/pmixrun/stdin_feed.h"
#include "src/tools/pmixrun/wakeup.h"

namespace pmixrun {
namespace {

struct ModuleState {
  std::mutex mutex;
  std::string nspace;
  int verbose = 0;
  std::vector<AbortRequest> aborts;
  std::set<std::pair<std::string, pmix_rank_t>> finalized;
};

ModuleState& State() {
  static ModuleState state;
  return state;
}

void Log(const char* what, const pmix_proc_t* proc) {
  if (State().verbose > 0)
    std::fprintf(stderr, "pmixrun: %s %s:%u\n", what, proc ? proc->nspace : "?",
                 proc ? proc->rank : 0);
}

pmix_status_t Connected(const pmix_proc_t* proc, void*, pmix_op_cbfunc_t, void*) {
  Log("connected", proc);
  return PMIX_OPERATION_SUCCEEDED;
}

pmix_status_t Connected2(const pmix_proc_t* proc, void*, pmix_info_t[], size_t, pmix_op_cbfunc_t,
                         void*) {
  Log("connected", proc);
  return PMIX_OPERATION_SUCCEEDED;
}

pmix_status_t Finalized(const pmix_proc_t* proc, void*, pmix_op_cbfunc_t, void*) {
  Log("finalized", proc);
  PubsubProcGone(proc->nspace, proc->rank);  // its PMIX_PERSIST_PROC data
  std::lock_guard<std::mutex> lock(State().mutex);
  State().finalized.emplace(proc->nspace, proc->rank);
  return PMIX_OPERATION_SUCCEEDED;
}

pmix_status_t Abort(const pmix_proc_t* proc, void*, int status, const char msg[],
                    pmix_proc_t procs[], size_t nprocs, pmix_op_cbfunc_t, void*) {
  Log("abort from", proc);
  AbortRequest req;
  req.from = *proc;
  req.status = status;
  req.message = msg != nullptr ? msg : "";
  for (size_t i = 0; i < nprocs && procs != nullptr; ++i) req.targets.push_back(procs[i]);
  {
    std::lock_guard<std::mutex> lock(State().mutex);
    State().aborts.push_back(std::move(req));
  }
  Ring(kUpcall);
  return PMIX_OPERATION_SUCCEEDED;
}

void FreeCopy(void* data) { std::free(data); }

// Every participant is on this node, so the local contributions are the
// whole job's: hand back a copy (the library's buffer lives for the call).
pmix_status_t FenceNb(const pmix_proc_t[], size_t, const pmix_info_t[], size_t, char* data,
                      size_t ndata, pmix_modex_cbfunc_t cbfunc, void* cbdata) {
  if (cbfunc == nullptr) return PMIX_OPERATION_SUCCEEDED;
  char* copy = nullptr;
  if (ndata > 0) {
    copy = static_cast<char*>(std::malloc(ndata));
    if (copy == nullptr) return PMIX_ERR_NOMEM;
    std::memcpy(copy, data, ndata);
  }
  cbfunc(PMIX_SUCCESS, copy, ndata, cbdata, FreeCopy, copy);
  return PMIX_SUCCESS;
}

pmix_status_t DirectModex(const pmix_proc_t* proc, const pmix_info_t[], size_t, pmix_modex_cbfunc_t,
                          void*) {
  Log("direct modex (not found) for", proc);
  return PMIX_ERR_NOT_FOUND;
}

pmix_status_t NotifyEvent(pmix_status_t code, const pmix_proc_t* source, pmix_data_range_t range,
                          pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t, void*) {
  if (State().verbose > 0)
    std::fprintf(stderr, "pmixrun: event %d (%s) from %s:%u, range %d\n", code,
                 PMIx_Error_string(code), source ? source->nspace : "?", source ? source->rank : 0,
                 static_cast<int>(range));
  (void)NoteDebugEvent(code, source, info, ninfo);  // host_debug.h
  return PMIX_OPERATION_SUCCEEDED;
}

}  // namespace

void FillModule(pmix_server_module_t* module, const std::string& nspace, int verbose) {
  std::memset(module, 0, sizeof *module);
  State().nspace = nspace;
  State().verbose = verbose;
  module->client_connected = Connected;
  module->client_connected2 = Connected2;
  module->client_finalized = Finalized;
  module->abort = Abort;
  module->fence_nb = FenceNb;
  module->direct_modex = DirectModex;
  module->notify_event = NotifyEvent;
  FillPubsubModule(module);  // publish, lookup, unpublish (host_pubsub.h)
  FillSpawnModule(module, verbose);  // spawn, connect, disconnect (host_spawn.h)
  FillQueryModule(module);  // query (host_query.h)
  FillLogModule(module);    // log (host_query.h)
  FillGroupModule(module);  // group (host_group.h)
  FillJobControlModule(module);  // job_control (host_job_control.h)
  FillToolModule(module, nspace, verbose);  // tool_connected (host_tools.h)
  FillStdinModule(module);  // push_stdin (stdin_feed.h)
}

std::vector<AbortRequest> TakeAborts() {
  std::lock_guard<std::mutex> lock(State().mutex);
  return std::exchange(State().aborts, {});
}

bool RankFinalized(const std::string& nspace, pmix_rank_t rank) {
  std::lock_guard<std::mutex> lock(State().mutex);
  return State().finalized.count({nspace, rank}) > 0;
}

}  // namespace pmixrun
