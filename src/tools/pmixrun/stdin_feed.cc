// Tools feeding the job's stdin (see stdin_feed.h).
#include "src/tools/pmixrun/stdin_feed.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <list>
#include <mutex>
#include <utility>
#include <vector>

#include "pmix.h"
#include "src/tools/pmixrun/wakeup.h"

namespace pmixrun {
namespace {

struct Push {
  std::vector<pmix_proc_t> targets;
  std::string data;
  bool eof = false;
  pmix_op_cbfunc_t cbfunc = nullptr;
  void* cbdata = nullptr;
};

struct Waiting {
  std::vector<Child*> targets;
  pmix_op_cbfunc_t cbfunc = nullptr;
  void* cbdata = nullptr;
};

std::mutex g_mu;
std::vector<Push> g_queue;     // under g_mu
std::list<Waiting> g_waiting;  // main thread

pmix_status_t PushStdin(const pmix_proc_t*, const pmix_proc_t targets[], size_t ntargets,
                        const pmix_info_t directives[], size_t ndirs, const pmix_byte_object_t* bo,
                        pmix_op_cbfunc_t cbfunc, void* cbdata) {
  Push p;
  p.targets.assign(targets, targets + ntargets);
  if (bo != nullptr && bo->size > 0) p.data.assign(bo->bytes, bo->size);
  for (size_t i = 0; i < ndirs; ++i)
    if (PMIX_CHECK_KEY(&directives[i], PMIX_IOF_COMPLETE) && PMIX_INFO_TRUE(&directives[i]))
      p.eof = true;
  p.cbfunc = cbfunc;
  p.cbdata = cbdata;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    g_queue.push_back(std::move(p));
  }
  Ring(kUpcall);
  return PMIX_SUCCESS;
}

void Complete(pmix_op_cbfunc_t cbfunc, void* cbdata, pmix_status_t rc) {
  if (cbfunc != nullptr) cbfunc(rc, cbdata);
}

bool Full(const Child* c) { return c->in.fd >= 0 && c->in.pending.size() > kStdinHighWater; }

// The children a push names; *status says why there are none.
std::vector<Child*> Resolve(JobTable& jobs, const std::vector<pmix_proc_t>& targets,
                            pmix_status_t* status) {
  std::vector<Child*> out;
  *status = PMIX_ERR_NOT_SUPPORTED;
  for (const pmix_proc_t& t : targets) {
    Job* job = jobs.Find(std::string(t.nspace, strnlen(t.nspace, PMIX_MAX_NSLEN)));
    if (job == nullptr) {
      if (out.empty()) *status = PMIX_ERR_NOT_FOUND;
      continue;
    }
    for (Child& c : job->children)
      if (c.in.fd >= 0 && (t.rank == PMIX_RANK_WILDCARD || t.rank == static_cast<pmix_rank_t>(c.rank)))
        out.push_back(&c);
  }
  return out;
}

void ReleaseWaiting() {
  for (auto it = g_waiting.begin(); it != g_waiting.end();) {
    bool full = false;
    for (const Child* c : it->targets) full = full || Full(c);
    if (full) {
      ++it;
      continue;
    }
    Complete(it->cbfunc, it->cbdata, PMIX_SUCCESS);
    it = g_waiting.erase(it);
  }
}

}  // namespace

void FillStdinModule(pmix_server_module_t* module) { module->push_stdin = PushStdin; }

void ApplyPushes(JobTable& jobs) {
  std::vector<Push> pushes;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    pushes.swap(g_queue);
  }
  for (Push& p : pushes) {
    pmix_status_t why = PMIX_SUCCESS;
    std::vector<Child*> targets = Resolve(jobs, p.targets, &why);
    if (targets.empty()) {
      Complete(p.cbfunc, p.cbdata, why);
      continue;
    }
    for (Child* c : targets) {
      c->in.pending += p.data;
      if (p.eof) c->in.eof = true;
      FeedStdin(c);
    }
    g_waiting.push_back(Waiting{std::move(targets), p.cbfunc, p.cbdata});
  }
  ReleaseWaiting();
}

bool WantsToFeed(const Child& c) { return c.in.fd >= 0 && (!c.in.pending.empty() || c.in.eof); }

void FeedStdin(Child* c) {
  Input& in = c->in;
  while (in.fd >= 0 && !in.pending.empty()) {
    ssize_t n = write(in.fd, in.pending.data(), in.pending.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) break;
    if (n <= 0) {  // the process closed its stdin or is gone
      in.pending.clear();
      close(in.fd);
      in.fd = -1;
      break;
    }
    in.pending.erase(0, static_cast<size_t>(n));
  }
  if (in.fd >= 0 && (c->reaped || (in.eof && in.pending.empty()))) {
    close(in.fd);
    in.fd = -1;
    in.pending.clear();
  }
  ReleaseWaiting();
}

}  // namespace pmixrun
