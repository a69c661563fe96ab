// The events pmixrun raises about its jobs (see job_events.h).
#include "src/tools/pmixrun/job_events.h"

#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "pmix.h"

namespace pmixrun {
namespace {

// An event's infos, alive until the library's completion callback.
struct Payload {
  std::vector<pmix_info_t> infos;
  Payload() = default;
  Payload(const Payload&) = delete;
  Payload& operator=(const Payload&) = delete;
  ~Payload() {
    for (pmix_info_t& i : infos) PMIx_Info_destruct(&i);
  }
};

void PayloadDone(pmix_status_t, void* cbdata) {
  std::unique_ptr<Payload> done(static_cast<Payload*>(cbdata));
}

class Event {
 public:
  Event() : payload_(std::make_unique<Payload>()) {}

  Event& Add(const char* key, const void* data, pmix_data_type_t type) {
    payload_->infos.emplace_back();
    PMIx_Info_construct(&payload_->infos.back());
    (void)PMIx_Info_load(&payload_->infos.back(), key, data, type);
    return *this;
  }

  void Send(pmix_status_t code, const pmix_proc_t& source, pmix_data_range_t range) {
    Payload* p = payload_.release();
    pmix_status_t rc =
        PMIx_Notify_event(code, &source, range, p->infos.data(), p->infos.size(), PayloadDone, p);
    if (rc != PMIX_SUCCESS) PayloadDone(rc, p);
  }

  // To the parent of `job` alone, from the job.
  void SendToParent(pmix_status_t code, const Job& job) {
    Add(PMIX_EVENT_CUSTOM_RANGE, &*job.layout.parent, PMIX_PROC);
    Send(code, JobProc(job), PMIX_RANGE_CUSTOM);
  }

  static pmix_proc_t JobProc(const Job& job) {
    pmix_proc_t proc;
    PMIx_Load_procid(&proc, job.nspace().c_str(), PMIX_RANK_WILDCARD);
    return proc;
  }

 private:
  std::unique_ptr<Payload> payload_;
};

pmix_proc_t ProcOf(const Job& job, const Child& child) {
  pmix_proc_t proc;
  PMIx_Load_procid(&proc, job.nspace().c_str(), static_cast<pmix_rank_t>(child.rank));
  return proc;
}

pmix_status_t ProcTermStatus(const Job& job, const Child& child) {
  if (child.term_signal != 0)
    return job.killing ? PMIX_ERR_PROC_KILLED_BY_CMD : PMIX_ERR_PROC_ABORTED_BY_SIG;
  return child.exit_code == 0 ? PMIX_SUCCESS : PMIX_ERR_EXIT_NONZERO_TERM;
}

Event ProcEndEvent(const Job& job, const Child& child) {
  const pmix_proc_t proc = ProcOf(job, child);
  const int code = child.exit_code;
  const pmix_status_t term = ProcTermStatus(job, child);
  Event ev;
  ev.Add(PMIX_EVENT_AFFECTED_PROC, &proc, PMIX_PROC)
      .Add(PMIX_EXIT_CODE, &code, PMIX_INT)
      .Add(PMIX_PROC_TERM_STATUS, &term, PMIX_STATUS);
  return ev;
}

Event JobEvent(const Job& job) {
  const pmix_proc_t all = Event::JobProc(job);
  const time_t now = time(nullptr);
  Event ev;
  ev.Add(PMIX_NSPACE, job.nspace().c_str(), PMIX_STRING)
      .Add(PMIX_JOBID, job.nspace().c_str(), PMIX_STRING)
      .Add(PMIX_EVENT_AFFECTED_PROC, &all, PMIX_PROC)
      .Add(PMIX_EVENT_TIMESTAMP, &now, PMIX_TIME);
  return ev;
}

}  // namespace

// Marked PMIX_EVENT_NON_DEFAULT: only handlers registered for the code see
// it. Open MPI 4.1's default handler aborts a rank on any event it is given,
// so a rank still in MPI_Finalize when a peer exits would abort with it.
void RaiseProcTerminated(const Job& job, const Child& child) {
  const bool non_default = true;
  ProcEndEvent(job, child)
      .Add(PMIX_EVENT_NON_DEFAULT, &non_default, PMIX_BOOL)
      .Send(PMIX_EVENT_PROC_TERMINATED, ProcOf(job, child), PMIX_RANGE_NAMESPACE);
}

void NotifyParentJobStarted(const Job& job) {
  if (!job.layout.parent || !(job.notices.job_events || job.parent_is_tool)) return;
  if (job.notices.job_events) JobEvent(job).SendToParent(PMIX_EVENT_JOB_START, job);
  Event launched = JobEvent(job);
  for (const AppLayout& app : job.layout.apps) {
    std::string argv;
    for (const std::string& a : app.argv) argv += (argv.empty() ? "" : " ") + a;
    launched.Add(PMIX_APP_ARGV, argv.c_str(), PMIX_STRING);
  }
  launched.SendToParent(PMIX_LAUNCH_COMPLETE, job);
}

void NotifyParentProcEnded(const Job& job, const Child& child) {
  if (!job.layout.parent) return;
  const bool wanted = job.notices.proc_end || (job.notices.proc_abnormal && child.exit_code != 0);
  if (wanted) ProcEndEvent(job, child).SendToParent(PMIX_EVENT_PROC_TERMINATED, job);
}

void NotifyParentJobEnded(const Job& job) {
  if (!job.layout.parent || !(job.notices.completion || job.notices.job_events)) return;
  const pmix_status_t status = job.term_status.value_or(PMIX_SUCCESS);
  if (status == PMIX_SUCCESS && job.notices.silent) return;
  Event ev = JobEvent(job);
  ev.Add(PMIX_JOB_TERM_STATUS, &status, PMIX_STATUS);
  if (job.first_failed) {
    pmix_proc_t failed;
    PMIx_Load_procid(&failed, job.nspace().c_str(), job.first_failed->rank);
    ev.Add(PMIX_PROCID, &failed, PMIX_PROC)
        .Add(PMIX_EXIT_CODE, &job.first_failed->exit_code, PMIX_INT);
  }
  ev.SendToParent(PMIX_EVENT_JOB_END, job);
}

void NotifyReadyForDebug(const Job& job, const std::vector<int>& ranks,
                         const std::string& breakpoint) {
  std::vector<pmix_proc_t> procs(ranks.size());
  for (size_t i = 0; i < ranks.size(); ++i)
    PMIx_Load_procid(&procs[i], job.nspace().c_str(), static_cast<pmix_rank_t>(ranks[i]));
  pmix_data_array_t array{PMIX_PROC, procs.size(), procs.data()};
  const bool non_default = true;
  const time_t now = time(nullptr);
  Event ev;
  ev.Add(PMIX_NSPACE, job.nspace().c_str(), PMIX_STRING)
      .Add(PMIX_EVENT_AFFECTED_PROCS, &array, PMIX_DATA_ARRAY)
      .Add(PMIX_EVENT_NON_DEFAULT, &non_default, PMIX_BOOL)
      .Add(PMIX_EVENT_TIMESTAMP, &now, PMIX_TIME);
  if (!breakpoint.empty()) ev.Add(PMIX_BREAKPOINT, breakpoint.c_str(), PMIX_STRING);
  if (job.layout.parent)
    ev.SendToParent(PMIX_READY_FOR_DEBUG, job);
  else
    ev.Send(PMIX_READY_FOR_DEBUG, Event::JobProc(job), PMIX_RANGE_SESSION);
}

}  // namespace pmixrun
