// Running pmixrun's jobs to their end: the main loop that forwards output,
// passes signals on, acts on aborts, starts the jobs PMIx_Spawn asks for
// (spawner.h), raises the termination events (job_events.h), ends and
// deregisters each job once its processes are gone, enforces --timeout and
// PMIX_JOB_TIMEOUT, and decides the exit status. Main thread only.
//
// A process that fails (nonzero exit, killed by a signal) ends its job and
// the jobs that job spawned (recursively); so does a PMIx_Abort without
// targets, for the caller's job (with targets: those processes, a wildcard
// rank for a whole job). SIGINT, SIGTERM, SIGHUP and --timeout end every
// job; SIGUSR1 and SIGUSR2 are passed on to every process.
//
// Exit status: an abort's status (first one), else 124 on --timeout, else
// the first nonzero process exit code of any job (128+signal for a killed
// process), else 0.
#ifndef PMIXX_TOOLS_PMIXRUN_RUNNER_H
#define PMIXX_TOOLS_PMIXRUN_RUNNER_H

#include "src/tools/pmixrun/jobs.h"
#include "src/tools/pmixrun/launch.h"

namespace pmixrun {

struct RunSettings {
  int timeout_s = 0;  // --timeout (0: none)
  int verbose = 0;
};

// Returns when every process of every job is reaped and its output drained.
int RunJobs(const RunSettings& settings, JobTable& jobs, Launcher& launcher);

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_RUNNER_H
