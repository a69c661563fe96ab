// Starting the jobs PMIx_Spawn asks for (main thread): the request is
// resolved (spawn_request.h), the job launched (launch.h), and the
// requester answered (host_spawn.h) once all its processes started, with
// the new namespace or the reason it failed (also reported on stderr).
#ifndef PMIXX_TOOLS_PMIXRUN_SPAWNER_H
#define PMIXX_TOOLS_PMIXRUN_SPAWNER_H

#include "src/tools/pmixrun/host_spawn.h"
#include "src/tools/pmixrun/jobs.h"
#include "src/tools/pmixrun/launch.h"

namespace pmixrun {

// Returns the job added to `jobs` (also one whose launch failed part way:
// its started processes are being killed), or nullptr.
Job* StartSpawn(const PendingSpawn& spawn, JobTable& jobs, Launcher& launcher);

// Answers `spawn` with PMIX_ERR_JOB_CANCELED (pmixrun is ending).
void RefuseSpawn(const PendingSpawn& spawn);

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_SPAWNER_H
