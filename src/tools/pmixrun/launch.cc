// Starting and ending jobs (see launch.h).
#include "src/tools/pmixrun/launch.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "pmix.h"
#include "pmix_server.h"
#include "src/tools/pmixrun/host_pubsub.h"
#include "src/tools/pmixrun/op_wait.h"

namespace pmixrun {
namespace {

constexpr int kServerOpTimeoutS = 5;

bool MakeJobDirs(const JobLayout& job, std::string* error) {
  std::vector<std::string> dirs{job.job_dir};
  for (int r = 0; r < job.NumProcs(); ++r) dirs.push_back(job.job_dir + "/" + std::to_string(r));
  for (const std::string& dir : dirs)
    if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
      return *error = "cannot create " + dir + ": " + std::strerror(errno), false;
  return true;
}

// Registers `proc` and gives back its environment: `base` plus what
// PMIx_server_setup_fork adds.
bool ClientEnv(const pmix_proc_t& proc, const std::vector<std::string>& base,
               std::vector<std::string>* env, std::string* error) {
  auto w = OpWait::Make();
  pmix_status_t rc =
      PMIx_server_register_client(&proc, getuid(), getgid(), nullptr, OpWait::Done, w.get());
  if ((rc = OpWait::Finish(std::move(w), rc, kServerOpTimeoutS)) != PMIX_SUCCESS)
    return *error = std::string("registering the client: ") + PMIx_Error_string(rc), false;
  char** envp = static_cast<char**>(std::calloc(base.size() + 1, sizeof(char*)));
  if (envp == nullptr) return *error = "out of memory", false;
  for (size_t i = 0; i < base.size(); ++i) envp[i] = strdup(base[i].c_str());
  rc = PMIx_server_setup_fork(&proc, &envp);
  env->clear();
  for (char** e = envp; e != nullptr && *e != nullptr; ++e) {
    env->emplace_back(*e);
    std::free(*e);
  }
  std::free(envp);
  if (rc != PMIX_SUCCESS)
    return *error = std::string("PMIx_server_setup_fork: ") + PMIx_Error_string(rc), false;
  return true;
}

// The namespace, with the clients still registered in it (those whose
// process never started).
void DeregisterNspace(const std::string& nspace) {
  auto w = OpWait::Make();
  PMIx_server_deregister_nspace(nspace.c_str(), OpWait::Done, w.get());
  (void)OpWait::Finish(std::move(w), PMIX_SUCCESS, kServerOpTimeoutS);
}

// The job's process sets (pmix_server.h PMIx_server_define_process_set):
// every local client hears of each one (PMIX_PROCESS_SET_DEFINE).
bool DefinePsets(const JobLayout& layout, std::string* error) {
  for (const PsetSpec& pset : layout.psets) {
    std::vector<pmix_proc_t> members;
    for (int r : pset.ranks) {
      if (r >= layout.NumProcs())
        return *error = "process set " + pset.name + ": no rank " + std::to_string(r), false;
      members.emplace_back();
      PMIx_Load_procid(&members.back(), layout.nspace.c_str(), static_cast<pmix_rank_t>(r));
    }
    if (members.empty()) {
      members.emplace_back();
      PMIx_Load_procid(&members.back(), layout.nspace.c_str(), PMIX_RANK_WILDCARD);
    }
    pmix_status_t rc = PMIx_server_define_process_set(members.data(), members.size(),
                                                      pset.name.c_str());
    if (rc != PMIX_SUCCESS)
      return *error = "process set " + pset.name + ": " + PMIx_Error_string(rc), false;
  }
  return true;
}

bool WantsStdin(const JobLayout& layout, int rank) {
  return layout.stdin_target && (*layout.stdin_target == PMIX_RANK_WILDCARD ||
                                 *layout.stdin_target == static_cast<pmix_rank_t>(rank));
}

std::string Tag(const Job& job, int rank) {
  if (job.primary) return "[" + std::to_string(rank) + "] ";
  return "[" + job.nspace() + "," + std::to_string(rank) + "] ";
}

}  // namespace

Launcher::Launcher(Site site) : site_(std::move(site)) {}

void Launcher::NamePrimary(JobLayout* layout) const {
  layout->nspace = site_.PrimaryNspace();
  layout->job_dir = site_.session_dir + "/job";
}

void Launcher::NameSpawned(JobLayout* layout) {
  const std::string n = std::to_string(next_job_++);
  layout->nspace = site_.base_nspace + "@" + std::to_string(next_job_);
  layout->job_dir = site_.session_dir + "/job." + n;
}

pmix_status_t Launcher::Launch(Job* job, std::string* error) {
  JobLayout& layout = job->layout;
  const int nprocs = layout.NumProcs();
  layout.hostname = site_.hostname;
  layout.session_dir = site_.session_dir;
  layout.univ_size = site_.univ_size;
  layout.node_rank_base = node_ranks_used_;
  layout.node_size = static_cast<uint32_t>(live_procs_ + nprocs);
  layout.bind_to = BindToName(site_.bind_to);
  layout.cpus.clear();
  for (int r = 0; r < nprocs; ++r) layout.cpus.push_back(BindingFor(site_.bind_to, layout.node_rank_base + r));
  if (!MakeJobDirs(layout, error)) return PMIX_ERR_JOB_SYS_OP_FAILED;
  pmix_status_t rc = RegisterJob(layout);
  if (rc != PMIX_SUCCESS)
    return *error = std::string("registering the job: ") + PMIx_Error_string(rc), rc;
  AddKnownNamespace(layout.nspace);
  if (!DefinePsets(layout, error)) {
    DeregisterNspace(layout.nspace);
    RemoveKnownNamespace(layout.nspace);
    return PMIX_ERR_BAD_PARAM;
  }
  node_ranks_used_ += nprocs;
  live_procs_ += nprocs;
  std::vector<std::string> env;
  for (int r = 0; r < nprocs; ++r) {
    int first = 0;
    const AppLayout& app = layout.apps[static_cast<size_t>(layout.AppOf(r, &first))];
    pmix_proc_t proc;
    PMIx_Load_procid(&proc, layout.nspace.c_str(), static_cast<pmix_rank_t>(r));
    Child child;
    child.rank = r;
    if (app.tag_output) child.tag = Tag(*job, r);
    std::string why;
    ScopedAffinity bound(layout.cpus[static_cast<size_t>(r)]);  // the child inherits it
    if (ClientEnv(proc, app.env, &env, &why) &&
        StartChild(&child, app.path, app.argv, env, app.cwd, WantsStdin(layout, r),
                   layout.debug.stop_on_exec && Names(*layout.debug.stop_on_exec,
                                                      static_cast<pmix_rank_t>(r)),
                   &why)) {
      // The server's proc tables show it before it connects (stopped on exec).
      pmix_value_t pid;
      PMIX_VALUE_LOAD(&pid, &child.pid, PMIX_PID);
      (void)PMIx_Store_internal(&proc, PMIX_PROC_PID, &pid);
      job->children.push_back(std::move(child));
      continue;
    }
    *error = "cannot start rank " + std::to_string(r) + ": " + why;
    job->launch_failed = job->killing = true;
    SignalAll(job->children, SIGKILL);
    if (job->children.empty() && !job->primary) Retire(*job);  // the runner ends the primary
    return PMIX_ERR_JOB_FAILED_TO_LAUNCH;
  }
  return PMIX_SUCCESS;
}

void Launcher::RetireProc(const Job& job, const Child& child) {
  pmix_proc_t proc;
  PMIx_Load_procid(&proc, job.nspace().c_str(), static_cast<pmix_rank_t>(child.rank));
  auto w = OpWait::Make();
  PMIx_server_deregister_client(&proc, OpWait::Done, w.get());
  pmix_status_t rc = OpWait::Finish(std::move(w), PMIX_SUCCESS, kServerOpTimeoutS);
  if (site_.verbose == 0) return;
  const std::string who =
      (job.primary ? "" : "job " + job.nspace() + " ") + "rank " + std::to_string(child.rank);
  if (rc == PMIX_SUCCESS)
    std::fprintf(stderr, "pmixrun: %s deregistered\n", who.c_str());
  else
    std::fprintf(stderr, "pmixrun: deregistering %s: %s\n", who.c_str(), PMIx_Error_string(rc));
}

void Launcher::Retire(const Job& job) {
  live_procs_ -= job.layout.NumProcs();
  if (job.primary) return;
  for (const PsetSpec& pset : job.layout.psets) {
    std::string name = pset.name;
    (void)PMIx_server_delete_process_set(name.data());
  }
  DeregisterNspace(job.nspace());
  RemoveKnownNamespace(job.nspace());
  PubsubJobGone(job.nspace());
  if (site_.verbose > 0)
    std::fprintf(stderr, "pmixrun: job %s deregistered\n", job.nspace().c_str());
}

}  // namespace pmixrun
