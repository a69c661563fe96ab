// pmixrun: runs N copies of a program on this node as one PMIx job, hosted
// on the PMIx server API (the reference single-node launcher).
//
// Steps: parse the command line; find the program; make the session
// directory; start the server; register the job (job_info.h) and each
// client; fork them with PMIx_server_setup_fork's environment
// (children.h); run the job to its end (runner.h); deregister, finalize,
// remove the session directory; exit with the job's status.
#include <ftw.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "pmix.h"
#include "pmix_server.h"
#include "src/tools/pmixrun/children.h"
#include "src/tools/pmixrun/host_module.h"
#include "src/tools/pmixrun/job_info.h"
#include "src/tools/pmixrun/op_wait.h"
#include "src/tools/pmixrun/options.h"
#include "src/tools/pmixrun/runner.h"
#include "src/tools/pmixrun/wakeup.h"

extern char** environ;

namespace pmixrun {
namespace {

constexpr int kUsageExit = 2;
constexpr int kSetupExit = 1;
constexpr int kTeardownTimeoutS = 5;

void Error(const std::string& text) { std::fprintf(stderr, "pmixrun: %s\n", text.c_str()); }

int RemoveEntry(const char* path, const struct stat*, int, struct FTW*) {
  (void)remove(path);
  return 0;
}

// The session directory and, under it, the job's and each process's.
bool MakeDirs(JobLayout* job) {
  const char* base = std::getenv("TMPDIR");
  std::string templ =
      std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/pmixrun.XXXXXX";
  if (mkdtemp(templ.data()) == nullptr)
    return Error("cannot create " + templ + ": " + std::strerror(errno)), false;
  job->session_dir = templ;
  job->job_dir = templ + "/job";
  if (mkdir(job->job_dir.c_str(), 0700) != 0) return false;
  for (int r = 0; r < job->nprocs; ++r)
    if (mkdir((job->job_dir + "/" + std::to_string(r)).c_str(), 0700) != 0) return false;
  return true;
}

// pmixrun's environment minus a PMIx launcher's variables of its own (keeping
// user MCA parameters), with the -x settings applied.
std::vector<std::string> BaseEnv(const Options& opts) {
  std::map<std::string, std::string> vars;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string entry(*e);
    size_t eq = entry.find('=');
    if (eq == std::string::npos) continue;
    std::string name = entry.substr(0, eq);
    if (name.starts_with("PMIX_") && !name.starts_with("PMIX_MCA_")) continue;
    vars[name] = entry.substr(eq + 1);
  }
  for (const EnvSetting& s : opts.env) {
    if (s.value) vars[s.name] = *s.value;
  }
  std::vector<std::string> out;
  for (const auto& [name, value] : vars) out.push_back(name + "=" + value);
  return out;
}

// Registers `rank` and returns its environment (or "" in *error).
bool ClientEnv(const JobLayout& job, int rank, const std::vector<std::string>& base,
               std::vector<std::string>* env, std::string* error) {
  pmix_proc_t proc;
  PMIx_Load_procid(&proc, job.nspace.c_str(), static_cast<pmix_rank_t>(rank));
  auto w = OpWait::Make();
  pmix_status_t rc =
      PMIx_server_register_client(&proc, getuid(), getgid(), nullptr, OpWait::Done, w.get());
  if ((rc = OpWait::Finish(std::move(w), rc, kTeardownTimeoutS)) != PMIX_SUCCESS)
    return *error = std::string("registering rank ") + std::to_string(rank) + ": " +
                    PMIx_Error_string(rc),
           false;
  std::vector<char*> cenv;
  for (const std::string& e : base) cenv.push_back(strdup(e.c_str()));
  cenv.push_back(nullptr);
  char** envp = static_cast<char**>(std::malloc(cenv.size() * sizeof(char*)));
  if (envp == nullptr) return *error = "out of memory", false;
  std::memcpy(envp, cenv.data(), cenv.size() * sizeof(char*));
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

int StartServer(const JobLayout& job, int verbose) {
  pmix_server_module_t module;
  FillModule(&module, job.nspace, verbose);
  pmix_info_t info[3];
  for (pmix_info_t& i : info) PMIx_Info_construct(&i);
  (void)PMIx_Info_load(&info[0], PMIX_SERVER_TMPDIR, job.session_dir.c_str(), PMIX_STRING);
  (void)PMIx_Info_load(&info[1], PMIX_SYSTEM_TMPDIR, job.session_dir.c_str(), PMIX_STRING);
  (void)PMIx_Info_load(&info[2], PMIX_HOSTNAME, job.hostname.c_str(), PMIX_STRING);
  pmix_status_t rc = PMIx_server_init(&module, info, 3);
  for (pmix_info_t& i : info) PMIx_Info_destruct(&i);
  if (rc != PMIX_SUCCESS) Error(std::string("PMIx_server_init: ") + PMIx_Error_string(rc));
  return rc == PMIX_SUCCESS ? 0 : kSetupExit;
}

// Registers, sets up and starts every process; on failure kills those started.
int LaunchAll(const JobLayout& job, const Options& opts, const std::string& path,
              std::vector<Child>* children) {
  std::vector<std::string> base = BaseEnv(opts), env;
  std::string error;
  for (int r = 0; r < job.nprocs; ++r) {
    Child child;
    child.rank = r;
    if (!ClientEnv(job, r, base, &env, &error) ||
        !StartChild(&child, path, opts.argv, env, &error)) {
      Error("cannot start rank " + std::to_string(r) + ": " + error);
      SignalAll(*children, SIGKILL);
      return kSetupExit;
    }
    children->push_back(std::move(child));
  }
  return 0;
}

void Teardown(const JobLayout& job, bool server_up) {
  if (server_up) {
    auto w = OpWait::Make();
    PMIx_server_deregister_nspace(job.nspace.c_str(), OpWait::Done, w.get());
    (void)OpWait::Finish(std::move(w), PMIX_SUCCESS, kTeardownTimeoutS);
    (void)PMIx_server_finalize();
  }
  if (!job.session_dir.empty())
    (void)nftw(job.session_dir.c_str(), RemoveEntry, 16, FTW_DEPTH | FTW_PHYS);
}

// Each process costs pmixrun three descriptors (two pipes and its server
// connection): use all the descriptors we may.
void RaiseFdLimit() {
  struct rlimit lim {};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur == lim.rlim_max) return;
  lim.rlim_cur = lim.rlim_max;
  (void)setrlimit(RLIMIT_NOFILE, &lim);
}

int Run(const Options& opts) {
  std::string path, error;
  int code = 0;
  if (!ResolveProgram(opts.argv[0], &path, &error, &code)) return Error(error), code;
  JobLayout job;
  job.nspace = "pmixrun." + std::to_string(getpid());
  job.nprocs = opts.nprocs;
  job.argv = opts.argv;
  char buf[4096];
  job.hostname =
      gethostname(buf, sizeof buf) == 0 ? (buf[sizeof buf - 1] = '\0', buf) : "localhost";
  job.cwd = getcwd(buf, sizeof buf) != nullptr ? buf : "/";
  RaiseFdLimit();
  if (!InstallWakeup()) return Error("cannot install signal handlers"), kSetupExit;
  if (!MakeDirs(&job)) return Teardown(job, false), kSetupExit;
  if (StartServer(job, opts.verbose) != 0) return Teardown(job, false), kSetupExit;
  pmix_status_t rc = RegisterJob(job);
  if (rc != PMIX_SUCCESS) {
    Error(std::string("registering the job: ") + PMIx_Error_string(rc));
    return Teardown(job, true), kSetupExit;
  }
  std::vector<Child> children;
  int status = LaunchAll(job, opts, path, &children);
  RunSettings settings{job.nspace, opts.tag_output, opts.timeout_s, opts.verbose, status != 0};
  int job_status = RunJob(settings, children);
  Teardown(job, true);
  return status != 0 ? status : job_status;
}

}  // namespace
}  // namespace pmixrun

int main(int argc, char** argv) {
  pmixrun::Options opts;
  std::string error;
  switch (pmixrun::ParseOptions(argc, argv, &opts, &error)) {
    case pmixrun::ParseOutcome::kHelp:
      std::fputs(pmixrun::UsageText(), stdout);
      return 0;
    case pmixrun::ParseOutcome::kVersion:
      std::printf("pmixrun: %s\n", PMIx_Get_version());
      return 0;
    case pmixrun::ParseOutcome::kError:
      std::fprintf(stderr, "pmixrun: %s\nTry 'pmixrun --help'.\n", error.c_str());
      return pmixrun::kUsageExit;
    case pmixrun::ParseOutcome::kRun:
      break;
  }
  return pmixrun::Run(opts);
}
