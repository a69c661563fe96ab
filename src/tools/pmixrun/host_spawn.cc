// pmixrun's spawn, connect and disconnect upcalls (see host_spawn.h).
#include "src/tools/pmixrun/host_spawn.h"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <utility>

#include "pmix.h"
#include "src/tools/pmixrun/jobs.h"
#include "src/tools/pmixrun/wakeup.h"

namespace pmixrun {
namespace {

struct SpawnQueue {
  std::mutex mutex;
  std::vector<PendingSpawn> pending;
  int verbose = 0;
};

SpawnQueue& Queue() {
  static SpawnQueue queue;
  return queue;
}

pmix_status_t Spawn(const pmix_proc_t* proc, const pmix_info_t job_info[], size_t ninfo,
                    const pmix_app_t apps[], size_t napps, pmix_spawn_cbfunc_t cbfunc,
                    void* cbdata) {
  PendingSpawn spawn;
  std::string error;
  pmix_status_t rc = ParseSpawn(proc, job_info, ninfo, apps, napps, &spawn.request, &error);
  const char* from = proc != nullptr ? proc->nspace : "?";
  const unsigned rank = proc != nullptr ? proc->rank : 0;
  if (rc != PMIX_SUCCESS) {
    std::fprintf(stderr, "pmixrun: spawn request from %s:%u refused: %s\n", from, rank,
                 error.c_str());
    return rc;
  }
  if (cbfunc == nullptr) return PMIX_ERR_BAD_PARAM;
  spawn.cbfunc = cbfunc;
  spawn.cbdata = cbdata;
  {
    std::lock_guard<std::mutex> lock(Queue().mutex);
    if (Queue().verbose > 0)
      std::fprintf(stderr, "pmixrun: spawn request from %s:%u (%zu apps)\n", from, rank, napps);
    Queue().pending.push_back(std::move(spawn));
  }
  Ring(kUpcall);
  return PMIX_SUCCESS;
}

// Every participant is local and has arrived; only the namespaces matter.
pmix_status_t CheckProcs(const char* what, const pmix_proc_t procs[], size_t nprocs) {
  for (size_t i = 0; i < nprocs && procs != nullptr; ++i) {
    std::string nspace(procs[i].nspace, strnlen(procs[i].nspace, PMIX_MAX_NSLEN));
    if (KnownNamespace(nspace)) continue;
    if (Queue().verbose > 0)
      std::fprintf(stderr, "pmixrun: %s: unknown namespace %s\n", what, nspace.c_str());
    return PMIX_ERR_NOT_FOUND;
  }
  if (Queue().verbose > 0) std::fprintf(stderr, "pmixrun: %s of %zu procs\n", what, nprocs);
  return PMIX_OPERATION_SUCCEEDED;
}

pmix_status_t Connect(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t[], size_t,
                      pmix_op_cbfunc_t, void*) {
  return CheckProcs("connect", procs, nprocs);
}

pmix_status_t Disconnect(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t[], size_t,
                         pmix_op_cbfunc_t, void*) {
  return CheckProcs("disconnect", procs, nprocs);
}

}  // namespace

void FillSpawnModule(pmix_server_module_t* module, int verbose) {
  Queue().verbose = verbose;
  module->spawn = Spawn;
  module->connect = Connect;
  module->disconnect = Disconnect;
}

std::vector<PendingSpawn> TakeSpawns() {
  std::lock_guard<std::mutex> lock(Queue().mutex);
  return std::exchange(Queue().pending, {});
}

void AnswerSpawn(const PendingSpawn& spawn, pmix_status_t status, const std::string& nspace) {
  pmix_nspace_t name;
  std::memset(name, 0, sizeof name);
  if (status == PMIX_SUCCESS) PMIX_LOAD_NSPACE(name, nspace.c_str());
  spawn.cbfunc(status, name, spawn.cbdata);
}

}  // namespace pmixrun
