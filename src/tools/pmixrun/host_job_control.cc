#include "src/tools/pmixrun/host_job_control.h"

#include <signal.h>

#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "pmix.h"
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

// A PMIX_JOB_CTRL_CHECKPOINT_METHOD value; nullopt when malformed.
std::optional<CheckpointMethod> MethodOf(const pmix_value_t& v) {
  if (v.type != PMIX_DATA_ARRAY || v.data.darray == nullptr || v.data.darray->type != PMIX_INFO ||
      (v.data.darray->size > 0 && v.data.darray->array == nullptr))
    return std::nullopt;
  CheckpointMethod m;
  const auto* items = static_cast<const pmix_info_t*>(v.data.darray->array);
  for (size_t i = 0; i < v.data.darray->size; ++i) {
    const pmix_info_t& d = items[i];
    if (PMIX_CHECK_KEY(&d, PMIX_JOB_CTRL_CHECKPOINT_SIGNAL)) {
      if (d.value.type != PMIX_INT || d.value.data.integer <= 0 || d.value.data.integer >= NSIG)
        return std::nullopt;
      m.signal = d.value.data.integer;
    } else if (PMIX_CHECK_KEY(&d, PMIX_JOB_CTRL_CHECKPOINT_EVENT)) {
      if (d.value.type == PMIX_STATUS) m.event = d.value.data.status;
      else if (d.value.type == PMIX_BOOL) m.event = d.value.data.flag ? PMIX_JCTRL_CHECKPOINT : 0;
      else return std::nullopt;
    }
  }
  if (m.signal == 0 && m.event == 0) return std::nullopt;
  return m;
}

// Reads the directives into req; false when one cannot be done.
bool ReadDirectives(const pmix_info_t directives[], size_t ndirs, JobControlRequest* req,
                    bool* declared) {
  for (size_t i = 0; i < ndirs; ++i) {
    const pmix_info_t& d = directives[i];
    if (PMIX_CHECK_KEY(&d, PMIX_JOB_CTRL_SIGNAL)) {
      if (d.value.type != PMIX_INT || d.value.data.integer <= 0 || d.value.data.integer >= NSIG)
        return false;
      req->signal = d.value.data.integer;
    } else if (PMIX_CHECK_KEY(&d, PMIX_JOB_CTRL_KILL)) {
      req->signal = SIGKILL;
    } else if (PMIX_CHECK_KEY(&d, PMIX_JOB_CTRL_TERMINATE)) {
      req->signal = SIGTERM;
    } else if (PMIX_CHECK_KEY(&d, PMIX_JOB_CTRL_PAUSE)) {
      req->signal = SIGSTOP;
    } else if (PMIX_CHECK_KEY(&d, PMIX_JOB_CTRL_RESUME)) {
      req->signal = SIGCONT;
    } else if (PMIX_CHECK_KEY(&d, PMIX_JOB_CTRL_CHECKPOINT_METHOD)) {
      // OpenPMIx's jctrl example sends the array without setting the
      // value's type (it arrives PMIX_UNDEF): an optional method that says
      // nothing usable is ignored, as optional directives may be.
      req->method = MethodOf(d.value);
      if (!req->method && PMIX_INFO_IS_REQUIRED(&d)) return false;
      *declared = true;
    } else if (PMIX_CHECK_KEY(&d, PMIX_JOB_CTRL_CHECKPOINT)) {
      req->checkpoint = d.value.type == PMIX_STRING && d.value.data.string != nullptr
                            ? d.value.data.string : "";
    } else if (PMIX_CHECK_KEY(&d, PMIX_JOB_CTRL_PREEMPTIBLE)) {
      *declared = true;  // pmixrun never preempts: nothing to do
    } else if (PMIX_CHECK_KEY(&d, PMIX_JOB_CTRL_ID) || PMIX_CHECK_KEY(&d, PMIX_USERID) ||
               PMIX_CHECK_KEY(&d, PMIX_GRPID)) {
      continue;  // naming the request / who asks: nothing to do
    } else if (PMIX_INFO_IS_REQUIRED(&d)) {
      return false;
    }
  }
  return true;
}

pmix_status_t JobControl(const pmix_proc_t* requester, const pmix_proc_t targets[],
                         size_t ntargets, const pmix_info_t directives[], size_t ndirs,
                         pmix_info_cbfunc_t cbfunc, void* cbdata) {
  JobControlRequest req;
  bool declared = false;
  if (!ReadDirectives(directives, ndirs, &req, &declared)) return PMIX_ERR_NOT_SUPPORTED;
  if (req.signal == 0 && !req.checkpoint && !declared) return PMIX_ERR_NOT_SUPPORTED;
  if (requester != nullptr) req.requester = *requester;
  for (size_t i = 0; targets != nullptr && i < ntargets; ++i) {
    if (!KnownNamespace(targets[i].nspace)) return PMIX_ERR_BAD_PARAM;
    req.targets.push_back(targets[i]);
  }
  req.cbfunc = cbfunc;
  req.cbdata = cbdata;
  {
    std::lock_guard<std::mutex> lock(TheQueue().mutex);
    TheQueue().pending.push_back(std::move(req));
  }
  Ring(kUpcall);
  return PMIX_SUCCESS;
}

// Main thread: the checkpoint methods processes declared.
std::map<std::pair<std::string, pmix_rank_t>, CheckpointMethod>& Methods() {
  static std::map<std::pair<std::string, pmix_rank_t>, CheckpointMethod> methods;
  return methods;
}

struct EventInfo {
  pmix_info_t info[2];
};

void EventSent(pmix_status_t, void* cbdata) {
  auto* ev = static_cast<EventInfo*>(cbdata);
  PMIX_INFO_DESTRUCT(&ev->info[0]);
  PMIX_INFO_DESTRUCT(&ev->info[1]);
  delete ev;
}

// Tells c (of job nspace) to checkpoint as it asked; false: it declared no method.
bool Checkpoint(const char* nspace, const Child& c, const pmix_proc_t& requester,
                const std::string& name) {
  auto it = Methods().find({nspace, static_cast<pmix_rank_t>(c.rank)});
  if (it == Methods().end()) return false;
  if (it->second.signal != 0) (void)::kill(c.pid, it->second.signal);
  if (it->second.event != 0) {
    auto* ev = new EventInfo;
    pmix_proc_t target;
    PMIX_LOAD_PROCID(&target, nspace, static_cast<pmix_rank_t>(c.rank));
    PMIX_INFO_CONSTRUCT(&ev->info[0]);
    PMIX_INFO_CONSTRUCT(&ev->info[1]);
    PMIX_INFO_LOAD(&ev->info[0], PMIX_EVENT_CUSTOM_RANGE, &target, PMIX_PROC);
    PMIX_INFO_LOAD(&ev->info[1], PMIX_JOB_CTRL_CHECKPOINT, name.c_str(), PMIX_STRING);
    if (PMIx_Notify_event(it->second.event, &requester, PMIX_RANGE_CUSTOM, ev->info, 2, EventSent,
                          ev) != PMIX_SUCCESS)
      EventSent(PMIX_SUCCESS, ev);
  }
  return true;
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
  if (req.method) Methods()[{req.requester.nspace, req.requester.rank}] = *req.method;
  std::vector<pmix_proc_t> targets = req.targets;
  if (targets.empty()) {
    pmix_proc_t all = req.requester;
    all.rank = PMIX_RANK_WILDCARD;
    targets.push_back(all);
  }
  pmix_status_t status = PMIX_SUCCESS;
  bool told = false;
  for (const pmix_proc_t& t : targets) {
    if (req.signal == 0 && !req.checkpoint) break;
    Job* job = jobs.Find(t.nspace);
    if (job == nullptr) {
      status = PMIX_ERR_NOT_FOUND;
      continue;
    }
    if (req.signal != 0) SignalRank(*job, t.rank, req.signal);
    if (!req.checkpoint) continue;
    for (const Child& c : job->children) {
      if (c.reaped || c.pid <= 0) continue;
      if (t.rank == PMIX_RANK_WILDCARD || static_cast<pmix_rank_t>(c.rank) == t.rank)
        told = Checkpoint(t.nspace, c, req.requester, *req.checkpoint) || told;
    }
  }
  if (req.checkpoint && !told && status == PMIX_SUCCESS) status = PMIX_ERR_NOT_SUPPORTED;
  if (req.cbfunc != nullptr) req.cbfunc(status, nullptr, 0, req.cbdata, nullptr, nullptr);
}

}  // namespace pmixrun
