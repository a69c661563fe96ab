// Starting spawned jobs (see spawner.h).
#include "src/tools/pmixrun/spawner.h"

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "pmix.h"
#include "src/tools/pmixrun/host_debug.h"
#include "src/tools/pmixrun/job_events.h"

namespace pmixrun {
namespace {

std::string Requester(const PendingSpawn& spawn) {
  const pmix_proc_t& p = spawn.request.requester;
  return std::string(p.nspace) + ":" + std::to_string(p.rank);
}

void Fail(const PendingSpawn& spawn, pmix_status_t rc, const std::string& error) {
  std::fprintf(stderr, "pmixrun: spawn for %s failed: %s (%s)\n", Requester(spawn).c_str(),
               error.c_str(), PMIx_Error_string(rc));
  AnswerSpawn(spawn, rc, "");
}

void NoteIgnored(const PendingSpawn& spawn, int verbose) {
  if (verbose <= 0) return;
  for (const std::string& key : spawn.request.ignored)
    std::fprintf(stderr, "pmixrun: spawn for %s: %s has no effect on a single node, ignored\n",
                 Requester(spawn).c_str(), key.c_str());
}

// A debugger's daemons (debug_directives.h): their target must be a job
// pmixrun runs; PMIX_DEBUG_DAEMONS_PER_NODE / _PER_PROC set how many run
// (of a single app).
pmix_status_t SizeDaemons(SpawnRequest* req, JobTable& jobs, std::string* error) {
  DebugDirectives& d = req->debug;
  if (!d.target) {
    if (d.daemons && (d.per_node > 0 || d.per_proc > 0))
      return *error = "debugger daemons without a target (PMIX_DEBUG_TARGET)", PMIX_ERR_BAD_PARAM;
    return PMIX_SUCCESS;
  }
  const std::string nspace(d.target->nspace, strnlen(d.target->nspace, PMIX_MAX_NSLEN));
  Job* target = jobs.Find(nspace);
  if (target == nullptr || target->ended)
    return *error = "debug target " + nspace + " is not a running job", PMIX_ERR_NOT_FOUND;
  if (d.per_node == 0 && d.per_proc == 0) return PMIX_SUCCESS;
  if (req->apps.size() != 1)
    return *error = "debugger daemons per node/proc need exactly one app", PMIX_ERR_BAD_PARAM;
  const int procs = d.target->rank == PMIX_RANK_WILDCARD ? target->layout.NumProcs() : 1;
  req->apps[0].maxprocs = d.per_node > 0 ? d.per_node : d.per_proc * procs;
  return PMIX_SUCCESS;
}

}  // namespace

Job* StartSpawn(const PendingSpawn& spawn, JobTable& jobs, Launcher& launcher) {
  SpawnRequest req = spawn.request;
  NoteIgnored(spawn, launcher.site().verbose);
  std::string why;
  pmix_status_t sized = SizeDaemons(&req, jobs, &why);
  if (sized != PMIX_SUCCESS) return Fail(spawn, sized, why), nullptr;
  auto job = std::make_unique<Job>();
  launcher.NameSpawned(&job->layout);
  const Site& site = launcher.site();
  ResolveContext ctx{site.base_env, site.cwd, site.hostname, job->layout.job_dir, site.tag_output};
  std::string error;
  pmix_status_t rc = ResolveSpawn(req, ctx, &job->layout, &error);
  if (rc != PMIX_SUCCESS) return Fail(spawn, rc, error), nullptr;
  job->layout.parent = req.requester;
  job->layout.stdin_target = req.fwd_stdin;
  job->notices = req.notices;
  job->parent_is_tool = req.requester_is_tool;
  job->layout.debug = req.debug;
  job->timeout_s = req.job_timeout_s;
  if (!req.pset.empty()) job->layout.psets.push_back(PsetSpec{req.pset, {}});
  if (job->timeout_s > 0) job->timeout_at = Clock::now() + std::chrono::seconds(job->timeout_s);
  rc = launcher.Launch(job.get(), &error);
  Job* added = job->children.empty() ? nullptr : &jobs.Add(std::move(job));
  if (rc != PMIX_SUCCESS) return Fail(spawn, rc, error), added;
  if (site.verbose > 0)
    std::fprintf(stderr, "pmixrun: spawned job %s (%d procs) for %s\n", added->nspace().c_str(),
                 added->layout.NumProcs(), Requester(spawn).c_str());
  NotifyParentJobStarted(*added);
  NoteStoppedOnExec(*added);  // after PMIX_LAUNCH_COMPLETE, as the standard orders them
  AnswerSpawn(spawn, PMIX_SUCCESS, added->nspace());
  return added;
}

void RefuseSpawn(const PendingSpawn& spawn) {
  Fail(spawn, PMIX_ERR_JOB_CANCELED, "pmixrun is ending");
}

}  // namespace pmixrun
