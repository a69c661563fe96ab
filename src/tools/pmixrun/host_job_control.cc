#include "src/tools/pmixrun/host_job_control.h"

#include <signal.h>

#include <mutex>
#include <utility>

#include "src/tools/pmixrun/wakeup.h"

namespace pmixrun {
namespace {

struct Queue {
  std::mutex mutex;
  std::vector<JobControlRequest> pending;
};

Queue& TheQueue() {
  static Queue q;
  return q;
}

// The signal the directives ask for: 0 none, -1 one we do not do.
int SignalOf(const pmix_info_t directives[], size_t ndirs) {
  int sig = 0;
  for (size_t i = 0; i < ndirs; ++i) {
    const pmix_info_t& d = directives[i];
    if (PMIX_CHECK_KEY(&d, PMIX_JOB_CTRL_SIGNAL)) {
      if (d.value.type != PMIX_INT || d.value.data.integer <= 0 || d.value.data.integer >= NSIG)
        return -1;
      sig = d.value.data.integer;
    } else if (PMIX_CHECK_KEY(&d, PMIX_JOB_CTRL_KILL)) {
      sig = SIGKILL;
    } else if (PMIX_CHECK_KEY(&d, PMIX_JOB_CTRL_TERMINATE)) {
      sig = SIGTERM;
    } else if (PMIX_CHECK_KEY(&d, PMIX_JOB_CTRL_PAUSE)) {
      sig = SIGSTOP;
    } else if (PMIX_CHECK_KEY(&d, PMIX_JOB_CTRL_RESUME)) {
      sig = SIGCONT;
    } else if (PMIX_CHECK_KEY(&d, PMIX_JOB_CTRL_ID) || PMIX_CHECK_KEY(&d, PMIX_USERID) ||
               PMIX_CHECK_KEY(&d, PMIX_GRPID)) {
      continue;  // naming the request / who asks: nothing to do
    } else if (PMIX_INFO_IS_REQUIRED(&d)) {
      return -1;
    }
  }
  return sig;
}

pmix_status_t JobControl(const pmix_proc_t* requester, const pmix_proc_t targets[],
                         size_t ntargets, const pmix_info_t directives[], size_t ndirs,
                         pmix_info_cbfunc_t cbfunc, void* cbdata) {
  int sig = SignalOf(directives, ndirs);
  if (sig <= 0) return PMIX_ERR_NOT_SUPPORTED;
  JobControlRequest req;
  if (requester != nullptr) req.requester = *requester;
  for (size_t i = 0; targets != nullptr && i < ntargets; ++i) {
    if (!KnownNamespace(targets[i].nspace)) return PMIX_ERR_BAD_PARAM;
    req.targets.push_back(targets[i]);
  }
  req.signal = sig;
  req.cbfunc = cbfunc;
  req.cbdata = cbdata;
  {
    std::lock_guard<std::mutex> lock(TheQueue().mutex);
    TheQueue().pending.push_back(std::move(req));
  }
  Ring(kUpcall);
  return PMIX_SUCCESS;
}

void SignalRank(Job& job, pmix_rank_t rank, int sig) {
  for (Child& c : job.children) {
    if (c.reaped || c.pid <= 0) continue;
    if (rank == PMIX_RANK_WILDCARD || static_cast<pmix_rank_t>(c.rank) == rank)
      (void)::kill(c.pid, sig);
  }
}

}  // namespace

void FillJobControlModule(pmix_server_module_t* module) { module->job_control = JobControl; }

std::vector<JobControlRequest> TakeJobControls() {
  std::lock_guard<std::mutex> lock(TheQueue().mutex);
  return std::exchange(TheQueue().pending, {});
}

void ApplyJobControl(JobTable& jobs, const JobControlRequest& req) {
  std::vector<pmix_proc_t> targets = req.targets;
  if (targets.empty()) {
    pmix_proc_t all = req.requester;
    all.rank = PMIX_RANK_WILDCARD;
    targets.push_back(all);
  }
  pmix_status_t status = PMIX_SUCCESS;
  for (const pmix_proc_t& t : targets) {
    Job* job = jobs.Find(t.nspace);
    if (job == nullptr) {
      status = PMIX_ERR_NOT_FOUND;
      continue;
    }
    SignalRank(*job, t.rank, req.signal);
  }
  if (req.cbfunc != nullptr) req.cbfunc(status, nullptr, 0, req.cbdata, nullptr, nullptr);
}

}  // namespace pmixrun
