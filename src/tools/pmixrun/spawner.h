// Starting the jobs PMIx_Spawn asks for (main thread): the request is
// resolved (spawn_request.h), the job launched (launch.h), and the
// requester answered (host_spawn.h) once all its processes started, with
// the new namespace or the reason it failed (also reported on stderr).
//
// Co-spawned apps (PMIX_COSPAWN_APP in an app's infos, §18.4.6: "spawned as
// a disconnected job") each run as a job of their own, launched after the
// request's job, in none of its job-level values (size, ranks, ...), with
// the request's notices and run directives but only their own debugger
// directives (the job_info's stop directives are the other apps'); a
// co-spawned app with PMIX_DEBUGGER_DAEMONS and no PMIX_DEBUG_TARGET gets
// the request's job as its target. The requester hears PMIX_LAUNCH_COMPLETE
// (and what else it asked for) for each job; PMIx_Spawn returns the
// request's job. If one of them cannot start, none runs (those started are
// killed) and the spawn fails. A request of co-spawned apps alone is
// PMIX_ERR_BAD_PARAM. The other apps' own debugger directives apply to
// them: a stop directive in an app's infos names that app's ranks.
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
