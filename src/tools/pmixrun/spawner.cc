// Starting spawned jobs (see spawner.h).
#include "src/tools/pmixrun/spawner.h"

#include <signal.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
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

// An app's own stop directive (§18.4.6: "applies only to that
// application") as ranks of the job, whose ranks `first`.. are the app's.
void FoldStop(const std::optional<RankSet>& app, int first, int n, std::optional<RankSet>* job) {
  if (!app) return;
  RankSet ranks;
  for (pmix_rank_t r : *app) {
    if (r != PMIX_RANK_WILDCARD) ranks.push_back(r);  // already the job's rank
    for (int i = 0; r == PMIX_RANK_WILDCARD && i < n; ++i)
      ranks.push_back(static_cast<pmix_rank_t>(first + i));
  }
  if (!*job) *job = RankSet{};
  if (!Names(**job, PMIX_RANK_WILDCARD)) (*job)->insert((*job)->end(), ranks.begin(), ranks.end());
}

// Co-spawned apps (PMIX_COSPAWN_APP, §18.4.6) leave `req`: each is a job of
// its own, in none of the job-level values of the others (size, ranks,
// ...), asked for by the same requester, with the same notices and run
// directives, and its own debugger directives; a co-spawned debugger's
// daemons without a target debug the job of the request. The apps that
// stay bring their own debugger directives to the job.
std::vector<SpawnRequest> SplitCospawned(SpawnRequest* req) {
  std::vector<SpawnRequest> jobs;
  std::vector<AppRequest> kept;
  int first = 0;
  for (AppRequest& app : req->apps) {
    if (!app.cospawn) {
      DebugDirectives& d = req->debug;
      FoldStop(app.debug.stop_in_init, first, app.maxprocs, &d.stop_in_init);
      FoldStop(app.debug.stop_in_app, first, app.maxprocs, &d.stop_in_app);
      FoldStop(app.debug.stop_on_exec, first, app.maxprocs, &d.stop_on_exec);
      d.daemons = d.daemons || app.debug.daemons;
      if (!d.target) d.target = app.debug.target;
      if (d.per_node == 0) d.per_node = app.debug.per_node;
      if (d.per_proc == 0) d.per_proc = app.debug.per_proc;
      first += app.maxprocs;
      kept.push_back(std::move(app));
      continue;
    }
    SpawnRequest& co = jobs.emplace_back();
    co.requester = req->requester;
    co.directives = req->directives;
    co.notices = req->notices;
    co.job_timeout_s = req->job_timeout_s;
    co.requester_is_tool = req->requester_is_tool;
    co.debug = app.debug;
    co.apps.push_back(std::move(app));
  }
  req->apps = std::move(kept);
  return jobs;
}

// Resolves and launches one job of `spawn` (its request `req`); on failure
// *rc and *error say why, and what started is in `jobs`, being killed.
Job* LaunchOne(SpawnRequest& req, JobTable& jobs, Launcher& launcher, pmix_status_t* rc,
               std::string* error) {
  if ((*rc = SizeDaemons(&req, jobs, error)) != PMIX_SUCCESS) return nullptr;
  auto job = std::make_unique<Job>();
  launcher.NameSpawned(&job->layout);
  const Site& site = launcher.site();
  ResolveContext ctx{site.base_env, site.cwd, site.hostname, job->layout.job_dir, site.tag_output};
  if ((*rc = ResolveSpawn(req, ctx, &job->layout, error)) != PMIX_SUCCESS) return nullptr;
  job->layout.parent = req.requester;
  job->layout.stdin_target = req.fwd_stdin;
  job->notices = req.notices;
  job->parent_is_tool = req.requester_is_tool;
  job->layout.debug = req.debug;
  job->timeout_s = req.job_timeout_s;
  if (!req.pset.empty()) job->layout.psets.push_back(PsetSpec{req.pset, {}});
  if (job->timeout_s > 0) job->timeout_at = Clock::now() + std::chrono::seconds(job->timeout_s);
  *rc = launcher.Launch(job.get(), error);
  Job* added = job->children.empty() ? nullptr : &jobs.Add(std::move(job));
  return *rc == PMIX_SUCCESS ? added : nullptr;
}

// A job started for a spawn that failed later: killed, never reported.
void Abandon(Job* job) {
  job->launch_failed = job->killing = true;
  SignalAll(job->children, SIGKILL);
}

}  // namespace

Job* StartSpawn(const PendingSpawn& spawn, JobTable& jobs, Launcher& launcher) {
  SpawnRequest req = spawn.request;
  NoteIgnored(spawn, launcher.site().verbose);
  std::vector<SpawnRequest> cospawned = SplitCospawned(&req);
  if (req.apps.empty())
    return Fail(spawn, PMIX_ERR_BAD_PARAM, "every app is co-spawned (PMIX_COSPAWN_APP)"), nullptr;
  pmix_status_t rc = PMIX_SUCCESS;
  std::string error;
  Job* main = LaunchOne(req, jobs, launcher, &rc, &error);
  if (main == nullptr) return Fail(spawn, rc, error), nullptr;
  std::vector<Job*> started{main};
  for (SpawnRequest& co : cospawned) {
    if (co.debug.daemons && !co.debug.target)
      PMIx_Load_procid(&co.debug.target.emplace(), main->nspace().c_str(), PMIX_RANK_WILDCARD);
    Job* job = LaunchOne(co, jobs, launcher, &rc, &error);
    if (job != nullptr) {
      started.push_back(job);
      continue;
    }
    for (Job* j : started) Abandon(j);
    return Fail(spawn, rc, "co-spawned app: " + error), main;
  }
  for (Job* job : started) {
    if (launcher.site().verbose > 0)
      std::fprintf(stderr, "pmixrun: spawned job %s (%d procs) for %s\n", job->nspace().c_str(),
                   job->layout.NumProcs(), Requester(spawn).c_str());
    NotifyParentJobStarted(*job);
    NoteStoppedOnExec(*job);  // after PMIX_LAUNCH_COMPLETE, as the standard orders them
  }
  AnswerSpawn(spawn, PMIX_SUCCESS, main->nspace());
  return main;
}

void RefuseSpawn(const PendingSpawn& spawn) {
  Fail(spawn, PMIX_ERR_JOB_CANCELED, "pmixrun is ending");
}

}  // namespace pmixrun
