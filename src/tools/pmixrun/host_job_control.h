// pmixrun's job_control upcall (standard §13.2 PMIx_Job_control): a
// process may signal, pause, resume, terminate or kill processes of the
// jobs pmixrun runs.
//
// Directives: PMIX_JOB_CTRL_SIGNAL (int: that signal), PMIX_JOB_CTRL_PAUSE
// (SIGSTOP), PMIX_JOB_CTRL_RESUME (SIGCONT), PMIX_JOB_CTRL_TERMINATE
// (SIGTERM), PMIX_JOB_CTRL_KILL (SIGKILL). Checkpointing (§13.2.x):
// PMIX_JOB_CTRL_CHECKPOINT_METHOD (an array of PMIX_JOB_CTRL_CHECKPOINT_SIGNAL
// int and/or PMIX_JOB_CTRL_CHECKPOINT_EVENT: true for PMIX_JCTRL_CHECKPOINT,
// or the event's status code) records how the requesting process wants to
// be told to checkpoint; PMIX_JOB_CTRL_CHECKPOINT (the checkpoint's name)
// tells each target so: its signal, or its event (source the requester,
// custom range the target, the name as PMIX_JOB_CTRL_CHECKPOINT);
// PMIX_ERR_NOT_SUPPORTED when no target declared a method. A method that
// names neither (malformed) is ignored unless required.
// PMIX_JOB_CTRL_PREEMPTIBLE is accepted (pmixrun never preempts a job).
// These declarations are what OpenPMIx's jctrl example makes (accepted by
// Open MPI 4.1's mpirun). Anything else required is PMIX_ERR_NOT_SUPPORTED.
// Targets: procs of jobs pmixrun registered (rank PMIX_RANK_WILDCARD: the
// whole job); none = the requester's whole job. A target pmixrun does not
// run is PMIX_ERR_BAD_PARAM.
//
// The upcall (progress thread) queues the request and rings the main loop
// (wakeup.h), which signals the processes and then answers.
#ifndef PMIXX_TOOLS_PMIXRUN_HOST_JOB_CONTROL_H
#define PMIXX_TOOLS_PMIXRUN_HOST_JOB_CONTROL_H

#include <optional>
#include <string>
#include <vector>

#include "pmix_server.h"
#include "src/tools/pmixrun/jobs.h"

namespace pmixrun {

// How a process wants to be told to checkpoint (0: not that way).
struct CheckpointMethod {
  int signal = 0;
  pmix_status_t event = 0;
};

struct JobControlRequest {
  pmix_proc_t requester{};
  std::vector<pmix_proc_t> targets;  // empty: the requester's job
  int signal = 0;
  std::optional<CheckpointMethod> method;     // the requester declares it
  std::optional<std::string> checkpoint;      // checkpoint the targets, this name
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
