// Starting spawned jobs (see spawner.h).
#include "src/tools/pmixrun/spawner.h"

#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "pmix.h"
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

}  // namespace

Job* StartSpawn(const PendingSpawn& spawn, JobTable& jobs, Launcher& launcher) {
  const SpawnRequest& req = spawn.request;
  NoteIgnored(spawn, launcher.site().verbose);
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
  AnswerSpawn(spawn, PMIX_SUCCESS, added->nspace());
  return added;
}

void RefuseSpawn(const PendingSpawn& spawn) {
  Fail(spawn, PMIX_ERR_JOB_CANCELED, "pmixrun is ending");
}

}  // namespace pmixrun
