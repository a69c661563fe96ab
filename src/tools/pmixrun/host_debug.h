// pmixrun and debuggers (standard §18.4): the debugger events its server
// hears of (the notify_event upcall, host_module.cc) and what pmixrun does
// with them.
//
//   PMIX_DEBUGGER_RELEASE  processes pmixrun stopped on exec
//                          (PMIX_DEBUG_STOP_ON_EXEC, debug_directives.h)
//                          continue (SIGCONT): those of the jobs the event
//                          names (PMIX_EVENT_CUSTOM_RANGE or
//                          PMIX_EVENT_AFFECTED_PROC(S), a proc or an array;
//                          rank wildcard: the whole job), or of every job
//                          when it names none. Processes stopped in
//                          PMIx_Init get the event from the server itself.
//   PMIX_READY_FOR_DEBUG   from a process (stopped in PMIx_Init,
//                          client_debug.h, breakpoint "pmix-init"; or
//                          stopped where the application chose, with its
//                          PMIX_BREAKPOINT): counted; once every process
//                          the job's stop directive names (for "pmix-init"
//                          PMIX_DEBUG_STOP_IN_INIT, for another breakpoint
//                          PMIX_DEBUG_STOP_IN_APP, or every rank without
//                          one) is there, pmixrun raises PMIX_READY_FOR_DEBUG
//                          for the job once (job_events.h
//                          NotifyReadyForDebug), as the standard has the
//                          launcher do (§18.4.6).
//
// Processes stopped on exec are counted the same way, by
// NoteStoppedOnExec once the job started (no breakpoint).
//
// NoteDebugEvent runs on the progress thread (queues, rings the main
// loop); ApplyDebugEvents and NoteStoppedOnExec on the main thread.
#ifndef PMIXX_TOOLS_PMIXRUN_HOST_DEBUG_H
#define PMIXX_TOOLS_PMIXRUN_HOST_DEBUG_H

#include "pmix_common.h"
#include "src/tools/pmixrun/jobs.h"

namespace pmixrun {

// True when the event was one of the above (queued).
bool NoteDebugEvent(pmix_status_t code, const pmix_proc_t* source, const pmix_info_t info[],
                    size_t ninfo);
void ApplyDebugEvents(JobTable& jobs);
// `job` was launched: its processes held on exec are at their pause point.
void NoteStoppedOnExec(Job& job);

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_HOST_DEBUG_H
