// pmixrun's job_control upcall (standard §13.2 PMIx_Job_control): a
// process may signal, pause, resume, terminate or kill processes of the
// jobs pmixrun runs.
//
// Directives: PMIX_JOB_CTRL_SIGNAL (int: that signal), PMIX_JOB_CTRL_PAUSE
// (SIGSTOP), PMIX_JOB_CTRL_RESUME (SIGCONT), PMIX_JOB_CTRL_TERMINATE
// (SIGTERM), PMIX_JOB_CTRL_KILL (SIGKILL); anything else is
// PMIX_ERR_NOT_SUPPORTED. Targets: procs of jobs pmixrun registered (rank
// PMIX_RANK_WILDCARD: the whole job); none = the requester's whole job.
// A target pmixrun does not run is PMIX_ERR_BAD_PARAM.
//
// The upcall (progress thread) queues the request and rings the main loop
// (wakeup.h), which signals the processes and then answers.
#ifndef PMIXX_TOOLS_PMIXRUN_HOST_JOB_CONTROL_H
#define PMIXX_TOOLS_PMIXRUN_HOST_JOB_CONTROL_H

#include <vector>

#include "pmix_server.h"
#include "src/tools/pmixrun/jobs.h"

namespace pmixrun {

struct JobControlRequest {
  pmix_proc_t requester{};
  std::vector<pmix_proc_t> targets;  // empty: the requester's job
  int signal = 0;
  pmix_info_cbfunc_t cbfunc = nullptr;
  void* cbdata = nullptr;
};

void FillJobControlModule(pmix_server_module_t* module);
// Main thread: the requests queued since the last call.
std::vector<JobControlRequest> TakeJobControls();
// Main thread: signals the targets in `jobs` and answers the requester.
void ApplyJobControl(JobTable& jobs, const JobControlRequest& req);

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_HOST_JOB_CONTROL_H
