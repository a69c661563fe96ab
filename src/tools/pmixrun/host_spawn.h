// pmixrun's spawn, connect and disconnect upcalls (on the server library's
// progress thread; they never block).
//
// spawn: the request is read (spawn_request.h) and queued for the main loop
// (the doorbell rings), which starts the job and answers through the spawn
// callback, from the main thread (spawner.h). A request that cannot be read
// is refused in the upcall with its status (the callback is not called).
//
// connect / disconnect: every process is on this node, so when the library
// makes the upcall every participant has arrived. PMIX_OPERATION_SUCCEEDED
// when each proc belongs to one of pmixrun's jobs (KnownNamespace), else
// PMIX_ERR_NOT_FOUND.
#ifndef PMIXX_TOOLS_PMIXRUN_HOST_SPAWN_H
#define PMIXX_TOOLS_PMIXRUN_HOST_SPAWN_H

#include <string>
#include <vector>

#include "pmix_server.h"
#include "src/tools/pmixrun/spawn_request.h"

namespace pmixrun {

// A spawn waiting for the main loop. Answer it exactly once.
struct PendingSpawn {
  SpawnRequest request;
  pmix_spawn_cbfunc_t cbfunc = nullptr;
  void* cbdata = nullptr;
};

// Sets module->spawn, ->connect and ->disconnect; verbose: log them on stderr.
void FillSpawnModule(pmix_server_module_t* module, int verbose);

// Main thread: the spawns queued since the last call.
std::vector<PendingSpawn> TakeSpawns();

// Calls the spawn's callback with `status` and, on success, the new nspace.
void AnswerSpawn(const PendingSpawn& spawn, pmix_status_t status, const std::string& nspace);

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_HOST_SPAWN_H
