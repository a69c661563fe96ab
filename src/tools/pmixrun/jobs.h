// pmixrun's jobs: the one it was asked to run (the primary) and every job a
// PMIx_Spawn started, with their processes and what ending each means.
//
// Job and JobTable belong to the main thread. The set of known namespaces
// (KnownNamespace and friends) is what the upcalls on the server's progress
// thread consult: any thread.
#ifndef PMIXX_TOOLS_PMIXRUN_JOBS_H
#define PMIXX_TOOLS_PMIXRUN_JOBS_H

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pmix_common.h"
#include "src/tools/pmixrun/children.h"
#include "src/tools/pmixrun/job_info.h"

namespace pmixrun {

using Clock = std::chrono::steady_clock;

// The events a spawn's requester asked for (§12.2.4), sent to it alone.
struct JobNotices {
  bool completion = false;     // PMIX_NOTIFY_COMPLETION: PMIX_EVENT_JOB_END
  bool job_events = false;     // PMIX_NOTIFY_JOB_EVENTS: JOB_START, LAUNCH_COMPLETE, JOB_END
  bool proc_end = false;       // PMIX_NOTIFY_PROC_TERMINATION
  bool proc_abnormal = false;  // PMIX_NOTIFY_PROC_ABNORMAL_TERMINATION
  bool silent = false;         // PMIX_EVENT_SILENT_TERMINATION: no JOB_END for a normal end
};

// The first process of a job that failed.
struct FailedProc {
  pmix_rank_t rank = 0;
  int exit_code = 0;
};

// The processes of a job at one debugger pause point (host_debug.h).
struct DebugPause {
  std::set<int> ranks;     // those there so far
  bool announced = false;  // PMIX_READY_FOR_DEBUG raised for the job
};

struct Job {
  JobLayout layout;             // what was registered, and how to start the apps
  std::vector<Child> children;  // in rank order
  bool primary = false;         // the job on pmixrun's command line
  JobNotices notices;           // spawned jobs: what the parent asked to hear
  bool parent_is_tool = false;  // spawned by a tool: it hears PMIX_LAUNCH_COMPLETE
  int timeout_s = 0;            // PMIX_JOB_TIMEOUT (0: none)
  // By breakpoint ("" stopped on exec, "pmix-init", or the application's).
  std::map<std::string, DebugPause> debug_pauses;

  // Run state (runner.cc).
  bool launch_failed = false;                // not all processes started: killed, not reported
  bool killing = false;                      // pmixrun is ending it
  bool ended = false;                        // every process reaped and the end handled
  std::optional<pmix_status_t> term_status;  // why it ends abnormally (PMIX_ERR_JOB_*)
  std::optional<FailedProc> first_failed;
  std::optional<Clock::time_point> kill_at, timeout_at;

  const std::string& nspace() const { return layout.nspace; }
  bool AllReaped() const;
  // The namespace of the job that spawned this one ("" for the primary).
  std::string ParentNspace() const;
};

class JobTable {
 public:
  Job& Add(std::unique_ptr<Job> job);  // the address stays valid
  Job* Find(std::string_view nspace);
  std::vector<std::unique_ptr<Job>>& all() { return jobs_; }

 private:
  std::vector<std::unique_ptr<Job>> jobs_;
};

// Namespaces pmixrun has registered and not yet deregistered. Any thread.
void AddKnownNamespace(const std::string& nspace);
void RemoveKnownNamespace(const std::string& nspace);
bool KnownNamespace(std::string_view nspace);

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_JOBS_H
