// pmixrun and debuggers (see host_debug.h).
#include "src/tools/pmixrun/host_debug.h"

#include <signal.h>

#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pmix.h"
#include "src/tools/pmixrun/job_events.h"
#include "src/tools/pmixrun/wakeup.h"

namespace pmixrun {
namespace {

struct DebugEvent {
  pmix_status_t code = PMIX_SUCCESS;
  pmix_proc_t source{};
  std::vector<pmix_proc_t> targets;  // empty: every job
  std::string breakpoint;
};

struct Queue {
  std::mutex mutex;
  std::vector<DebugEvent> events;
};

Queue& Pending() {
  static Queue queue;
  return queue;
}

void AddProcs(const pmix_value_t& v, std::vector<pmix_proc_t>* out) {
  if (v.type == PMIX_PROC && v.data.proc != nullptr) out->push_back(*v.data.proc);
  if (v.type != PMIX_DATA_ARRAY || v.data.darray == nullptr) return;
  const pmix_data_array_t* a = v.data.darray;
  if (a->type != PMIX_PROC || a->array == nullptr) return;
  for (size_t i = 0; i < a->size; ++i) out->push_back(static_cast<pmix_proc_t*>(a->array)[i]);
}

std::string NspaceOf(const pmix_proc_t& p) {
  return std::string(p.nspace, strnlen(p.nspace, PMIX_MAX_NSLEN));
}

bool Named(const std::vector<pmix_proc_t>& targets, const Job& job, int rank) {
  if (targets.empty()) return true;
  for (const pmix_proc_t& t : targets)
    if (NspaceOf(t) == job.nspace() &&
        (t.rank == PMIX_RANK_WILDCARD || t.rank == static_cast<pmix_rank_t>(rank)))
      return true;
  return false;
}

void Release(JobTable& jobs, const DebugEvent& ev) {
  for (auto& job : jobs.all())
    for (Child& c : job->children)
      if (c.stopped_on_exec && !c.reaped && Named(ev.targets, *job, c.rank)) {
        c.stopped_on_exec = false;
        kill(c.pid, SIGCONT);
      }
}

constexpr const char* kInitBreakpoint = "pmix-init";

// The ranks of `job` a pause at `breakpoint` concerns.
std::vector<int> Expected(const Job& job, const std::string& breakpoint) {
  const DebugDirectives& d = job.layout.debug;
  const std::optional<RankSet>& stop = breakpoint.empty()                ? d.stop_on_exec
                                       : breakpoint == kInitBreakpoint ? d.stop_in_init
                                                                       : d.stop_in_app;
  std::vector<int> ranks;
  for (int r = 0; r < job.layout.NumProcs(); ++r)
    if (!stop || Names(*stop, static_cast<pmix_rank_t>(r))) ranks.push_back(r);
  return ranks;
}

// Rank `rank` of `job` is at `breakpoint`: the job is announced once all are.
void AtPause(Job& job, const std::string& breakpoint, int rank) {
  DebugPause& pause = job.debug_pauses[breakpoint];
  if (pause.announced) return;
  pause.ranks.insert(rank);
  std::vector<int> expected = Expected(job, breakpoint);
  for (int r : expected)
    if (pause.ranks.count(r) == 0) return;
  pause.announced = true;
  NotifyReadyForDebug(job, expected, breakpoint);
}

void NoteReady(JobTable& jobs, const DebugEvent& ev) {
  Job* job = jobs.Find(NspaceOf(ev.source));
  if (job == nullptr || ev.source.rank >= static_cast<pmix_rank_t>(job->layout.NumProcs())) return;
  if (ev.breakpoint.empty()) return;  // a process names where it waits (§18.4.6)
  AtPause(*job, ev.breakpoint, static_cast<int>(ev.source.rank));
}

}  // namespace

bool NoteDebugEvent(pmix_status_t code, const pmix_proc_t* source, const pmix_info_t info[],
                    size_t ninfo) {
  if (code != PMIX_DEBUGGER_RELEASE && code != PMIX_READY_FOR_DEBUG) return false;
  DebugEvent ev;
  ev.code = code;
  if (source != nullptr) ev.source = *source;
  for (size_t i = 0; i < ninfo && info != nullptr; ++i) {
    if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_CUSTOM_RANGE) ||
        PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC) ||
        PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROCS))
      AddProcs(info[i].value, &ev.targets);
    if (PMIX_CHECK_KEY(&info[i], PMIX_BREAKPOINT) && info[i].value.type == PMIX_STRING &&
        info[i].value.data.string != nullptr)
      ev.breakpoint = info[i].value.data.string;
  }
  {
    std::lock_guard<std::mutex> lock(Pending().mutex);
    Pending().events.push_back(std::move(ev));
  }
  Ring(kUpcall);
  return true;
}

void ApplyDebugEvents(JobTable& jobs) {
  std::vector<DebugEvent> events;
  {
    std::lock_guard<std::mutex> lock(Pending().mutex);
    events = std::exchange(Pending().events, {});
  }
  for (const DebugEvent& ev : events) {
    if (ev.code == PMIX_DEBUGGER_RELEASE) Release(jobs, ev);
    if (ev.code == PMIX_READY_FOR_DEBUG) NoteReady(jobs, ev);
  }
}

void NoteStoppedOnExec(Job& job) {
  for (const Child& c : job.children)
    if (c.stopped_on_exec) AtPause(job, "", c.rank);
}

}  // namespace pmixrun
