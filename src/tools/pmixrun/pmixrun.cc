// pmixrun: runs N copies of a program on this node as one PMIx job, hosted
// on the PMIx server API (the reference single-node launcher), and the jobs
// those processes start with PMIx_Spawn.
//
// Steps: parse the command line; find the program; make the session
// directory; start the server; launch the job (launch.h: register it and
// each client, fork them with PMIx_server_setup_fork's environment); run
// every job to its end (runner.h); deregister, finalize, remove the session
// directory; exit with the status the runner decided.
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
#include "src/tools/pmixrun/host_debug.h"
#include "src/tools/pmixrun/host_module.h"
#include "src/tools/pmixrun/host_tools.h"
#include "src/tools/pmixrun/iof_forward.h"
#include "src/tools/pmixrun/jobs.h"
#include "src/tools/pmixrun/launch.h"
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
// How long tools that pull the job's output get to take the rest of it.
constexpr int kOutputDrainTimeoutS = 60;

void Error(const std::string& text) { std::fprintf(stderr, "pmixrun: %s\n", text.c_str()); }

int RemoveEntry(const char* path, const struct stat*, int, struct FTW*) {
  (void)remove(path);
  return 0;
}

// The session directory (each job makes its own under it: launch.h).
bool MakeSessionDir(std::string* dir) {
  const char* base = std::getenv("TMPDIR");
  std::string templ =
      std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/pmixrun.XXXXXX";
  if (mkdtemp(templ.data()) == nullptr)
    return Error("cannot create " + templ + ": " + std::strerror(errno)), false;
  *dir = templ;
  return true;
}

// Open MPI 4.x programs decide in their "schizo" framework how they were
// started: only Slurm, Flux or JSM count as a direct launch; anything else
// falls to the "orte" component, which declares the process a singleton
// (each rank alone in its MPI_COMM_WORLD, with a private orted). Leaving
// that component out lets the PMIx-based startup (ess "pmi") take the job
// from pmixrun, as under srun. Only Open MPI reads the variable; a user's
// own setting wins.
constexpr char kOpenMpiSchizo[] = "OMPI_MCA_schizo";
constexpr char kOpenMpiDirectLaunch[] = "^orte";

// pmixrun's environment minus a PMIx launcher's variables of its own (keeping
// user MCA parameters), with the -x settings applied.
std::vector<std::string> BaseEnv(const Options& opts) {
  std::map<std::string, std::string> vars;
  vars[kOpenMpiSchizo] = kOpenMpiDirectLaunch;
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

// The server: its files in the session directory, tools welcome (their
// rendezvous files there too; with --system-server also pmix.sys.<host> in
// TMPDIR), named <job base>@0 (the jobs are @1, @2...).
int StartServer(const Site& site, const Options& opts) {
  pmix_server_module_t module;
  FillModule(&module, site.PrimaryNspace(), opts.verbose);
  const char* tmp = std::getenv("TMPDIR");
  std::string system_dir = opts.system_server ? (tmp != nullptr && *tmp == '/' ? tmp : "/tmp")
                                              : site.session_dir;
  std::string server_nspace = site.base_nspace + "@0";
  bool yes = true;
  pmix_info_t info[10];
  size_t n = 0;
  for (pmix_info_t& i : info) PMIx_Info_construct(&i);
  (void)PMIx_Info_load(&info[n++], PMIX_SERVER_TMPDIR, site.session_dir.c_str(), PMIX_STRING);
  (void)PMIx_Info_load(&info[n++], PMIX_SYSTEM_TMPDIR, system_dir.c_str(), PMIX_STRING);
  (void)PMIx_Info_load(&info[n++], PMIX_HOSTNAME, site.hostname.c_str(), PMIX_STRING);
  // One topology discovery for the whole job: the ranks adopt ours.
  (void)PMIx_Info_load(&info[n++], PMIX_SERVER_SHARE_TOPOLOGY, &yes, PMIX_BOOL);
  (void)PMIx_Info_load(&info[n++], PMIX_SERVER_NSPACE, server_nspace.c_str(), PMIX_STRING);
  pmix_rank_t server_rank = 0;  // the library's default would be the pid (as OpenPMIx)
  (void)PMIx_Info_load(&info[n++], PMIX_SERVER_RANK, &server_rank, PMIX_PROC_RANK);
  (void)PMIx_Info_load(&info[n++], PMIX_SERVER_TOOL_SUPPORT, &yes, PMIX_BOOL);
  (void)PMIx_Info_load(&info[n++], PMIX_SERVER_SESSION_SUPPORT, &yes, PMIX_BOOL);
  if (opts.system_server)
    (void)PMIx_Info_load(&info[n++], PMIX_SERVER_SYSTEM_SUPPORT, &yes, PMIX_BOOL);
  if (!opts.report_uri.empty())
    (void)PMIx_Info_load(&info[n++], PMIX_TCP_REPORT_URI, opts.report_uri.c_str(), PMIX_STRING);
  pmix_status_t rc = PMIx_server_init(&module, info, n);
  for (pmix_info_t& i : info) PMIx_Info_destruct(&i);
  if (rc != PMIX_SUCCESS) Error(std::string("PMIx_server_init: ") + PMIx_Error_string(rc));
  if (rc == PMIX_SUCCESS) RegisterAttributes();
  return rc == PMIX_SUCCESS ? 0 : kSetupExit;
}

void Teardown(const std::string& session_dir, const std::string& nspace, bool server_up) {
  if (server_up) {
    if (!WaitEndsDelivered(kOutputDrainTimeoutS))
      Error("forwarded output not taken by a tool in time: the rest is dropped");
    auto w = OpWait::Make();
    PMIx_server_deregister_nspace(nspace.c_str(), OpWait::Done, w.get());
    (void)OpWait::Finish(std::move(w), PMIX_SUCCESS, kTeardownTimeoutS);
    (void)PMIx_server_finalize();
  }
  if (!session_dir.empty()) (void)nftw(session_dir.c_str(), RemoveEntry, 16, FTW_DEPTH | FTW_PHYS);
}

// Each process costs pmixrun three descriptors (two pipes and its server
// connection): use all the descriptors we may.
void RaiseFdLimit() {
  struct rlimit lim {};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur == lim.rlim_max) return;
  lim.rlim_cur = lim.rlim_max;
  (void)setrlimit(RLIMIT_NOFILE, &lim);
}

Site MakeSite(const Options& opts) {
  Site site;
  site.base_env = BaseEnv(opts);
  site.univ_size = static_cast<uint32_t>(opts.nprocs);
  site.tag_output = opts.tag_output;
  site.verbose = opts.verbose;
  ParseBindTo(opts.bind_to, &site.bind_to);
  char buf[4096];
  site.hostname =
      gethostname(buf, sizeof buf) == 0 ? (buf[sizeof buf - 1] = '\0', buf) : "localhost";
  site.cwd = getcwd(buf, sizeof buf) != nullptr ? buf : "/";
  // "prun-<host>-<pid>": never "pmix..." (launch.h), unique on the node.
  site.base_nspace = "prun-" + site.hostname.substr(0, 64) + "-" + std::to_string(getpid());
  return site;
}

// Starts the job on the command line; false if nothing of it runs.
bool LaunchPrimary(const Options& opts, const std::string& path, Launcher& launcher, JobTable& jobs,
                   int* status) {
  auto job = std::make_unique<Job>();
  job->primary = true;
  launcher.NamePrimary(&job->layout);
  AppLayout app;
  app.argv = opts.argv;
  app.cwd = launcher.site().cwd;
  app.nprocs = opts.nprocs;
  app.path = path;
  app.env = launcher.site().base_env;
  app.tag_output = opts.tag_output;
  job->layout.apps.push_back(std::move(app));
  job->layout.psets = opts.psets;
  job->layout.stdin_target = opts.tool_stdin;
  if (opts.stop_in_init) job->layout.debug.stop_in_init = RankSet{PMIX_RANK_WILDCARD};
  if (opts.stop_on_exec) job->layout.debug.stop_on_exec = RankSet{PMIX_RANK_WILDCARD};
  std::string error;
  pmix_status_t rc = launcher.Launch(job.get(), &error);
  if (rc != PMIX_SUCCESS) {
    Error(error);
    *status = kSetupExit;
  }
  const bool keep = rc == PMIX_SUCCESS || job->launch_failed;  // part way: reap what started
  if (!keep) return false;
  Job& added = jobs.Add(std::move(job));
  if (rc == PMIX_SUCCESS) NoteStoppedOnExec(added);
  return true;
}

int Run(const Options& opts) {
  std::string path, error;
  int code = 0;
  if (!ResolveProgram(opts.argv[0], &path, &error, &code)) return Error(error), code;
  Site site = MakeSite(opts);
  RaiseFdLimit();
  if (!InstallWakeup()) return Error("cannot install signal handlers"), kSetupExit;
  if (!MakeSessionDir(&site.session_dir)) return kSetupExit;
  const std::string session_dir = site.session_dir, nspace = site.PrimaryNspace();
  if (StartServer(site, opts) != 0) return Teardown(session_dir, nspace, false), kSetupExit;
  Launcher launcher(std::move(site));
  JobTable jobs;
  int status = 0;
  if (!LaunchPrimary(opts, path, launcher, jobs, &status))
    return Teardown(session_dir, nspace, true), kSetupExit;
  RunSettings settings{opts.timeout_s, opts.verbose};
  int job_status = RunJobs(settings, jobs, launcher);
  Teardown(session_dir, nspace, true);
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
