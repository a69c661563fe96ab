// Starting a job: its directories, its registration with the server
// (job_info.h), each client's registration and environment
// (PMIx_server_setup_fork), fork + exec (children.h). Ending one: each
// client deregistered once its process is reaped, a spawned job's namespace
// once they all are.
//
// Main thread only: blocks on the server's callbacks (each bounded), so
// never call it inside a PMIx callback.
#ifndef PMIXX_TOOLS_PMIXRUN_LAUNCH_H
#define PMIXX_TOOLS_PMIXRUN_LAUNCH_H

#include <cstdint>
#include <string>
#include <vector>

#include "pmix_common.h"
#include "src/tools/pmixrun/binding.h"
#include "src/tools/pmixrun/jobs.h"

namespace pmixrun {

// What every job on this node shares.
struct Site {
  std::string hostname;
  std::string session_dir;
  std::string cwd;                    // pmixrun's working directory
  // Jobs are named <base>@1 (the primary), <base>@2, ... (spawned), as
  // production launchers name theirs (PRRTE: prterun-<host>-<pid>@<n>). The
  // base never starts with "pmix": clients build keys from their namespace
  // ("<nspace>-<rank>-local") and keys starting with "pmix" are reserved.
  std::string base_nspace;
  std::string PrimaryNspace() const { return base_nspace + "@1"; }
  std::vector<std::string> base_env;  // pmixrun's environment, cleaned, with -x applied
  uint32_t univ_size = 1;             // the primary job's size
  bool tag_output = false;            // --tag-output
  int verbose = 0;
  BindTo bind_to = BindTo::kNone;     // --bind-to
};

class Launcher {
 public:
  explicit Launcher(Site site);
  const Site& site() const { return site_; }

  // Sets the namespace and directory of the primary job (<base>,
  // <session>/job) or of the next spawned one (<base>.<n>, <session>/job.<n>).
  void NamePrimary(JobLayout* layout) const;
  void NameSpawned(JobLayout* layout);

  // Registers `job` (its layout's nspace, job_dir and apps set) and starts
  // each process into job->children, tagged as site().tag_output or the
  // app says ("[rank] " for the primary, "[nspace,rank] " otherwise); each
  // one's pid is stored with the server (PMIX_PROC_PID, for proc tables).
  // On failure *error says why. If some processes started, they are being
  // killed (SIGKILL), job->launch_failed and job->killing are set, and the
  // caller reaps them and calls Retire; if none did, nothing remains
  // registered and a spawned job can be dropped (the primary is still
  // Retired by the caller).
  pmix_status_t Launch(Job* job, std::string* error);

  // `child` of `job` was reaped: its client is deregistered
  // (PMIx_server_deregister_client), so that the server keeps nothing of a
  // finished process but what proc tables report (its pid, exit code and
  // how it left) over a long job, and no collective waits for it. With
  // site().verbose, says "pmixrun: [job <nspace> ]rank <r> deregistered"
  // once the server confirmed it.
  void RetireProc(const Job& job, const Child& child);

  // Every process of `job` ended (each one Retired by RetireProc): a
  // spawned job's namespace is deregistered (the primary's stays until the
  // server finalizes).
  void Retire(const Job& job);

 private:
  Site site_;
  int next_job_ = 1;
  int node_ranks_used_ = 0;
  int live_procs_ = 0;
};

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_LAUNCH_H
