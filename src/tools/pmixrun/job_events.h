// The events pmixrun raises about its jobs (PMIx_Notify_event; main thread).
//
// RaiseProcTerminated: PMIX_EVENT_PROC_TERMINATED (PMIX_EVENT_AFFECTED_PROC,
// PMIX_EXIT_CODE, PMIX_PROC_TERM_STATUS) to the process's own namespace,
// from the process, for every job.
//
// The others go to a spawned job's parent alone (PMIX_RANGE_CUSTOM with
// PMIX_EVENT_CUSTOM_RANGE = the parent), and only if it asked (JobNotices):
// PMIX_EVENT_JOB_START and PMIX_LAUNCH_COMPLETE (job_events; a tool that
// spawned a job hears PMIX_LAUNCH_COMPLETE anyway, as from OpenPMIx's
// launcher, with one PMIX_APP_ARGV per app),
// PMIX_EVENT_PROC_TERMINATED for each process (proc_end) or each one that
// failed (proc_abnormal), PMIX_EVENT_JOB_END (completion or job_events;
// not for a normal end with silent) with PMIX_JOB_TERM_STATUS, PMIX_NSPACE,
// PMIX_JOBID, PMIX_EVENT_TIMESTAMP, PMIX_EVENT_AFFECTED_PROC = the job (rank
// wildcard) and, after a failure, PMIX_PROCID and PMIX_EXIT_CODE of the
// first process that failed. Their source is the job (rank wildcard).
//
// NotifyReadyForDebug: PMIX_READY_FOR_DEBUG (§18.4.5), the launcher's
// announcement that processes of `job` wait for a debugger: PMIX_NSPACE,
// PMIX_EVENT_AFFECTED_PROCS (those processes), PMIX_BREAKPOINT (unless
// `breakpoint` is empty: stopped on exec, where the standard names no
// breakpoint), PMIX_EVENT_NON_DEFAULT, PMIX_EVENT_TIMESTAMP; from the job
// (rank wildcard), to the parent alone (always: a debugger asked for the
// stop), or, for the primary job, to the whole session (PMIX_RANGE_SESSION:
// tools attached then, and those attaching later through the server's
// event cache).
#ifndef PMIXX_TOOLS_PMIXRUN_JOB_EVENTS_H
#define PMIXX_TOOLS_PMIXRUN_JOB_EVENTS_H

#include <string>
#include <vector>

#include "src/tools/pmixrun/jobs.h"

namespace pmixrun {

void RaiseProcTerminated(const Job& job, const Child& child);
void NotifyParentJobStarted(const Job& job);
void NotifyParentProcEnded(const Job& job, const Child& child);
// Once every process of `job` ended.
void NotifyParentJobEnded(const Job& job);
void NotifyReadyForDebug(const Job& job, const std::vector<int>& ranks,
                         const std::string& breakpoint);

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_JOB_EVENTS_H
