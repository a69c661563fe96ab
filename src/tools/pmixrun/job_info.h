// The job description pmixrun registers with its server for each job (the
// one it was asked to run and each one a PMIx_Spawn asks for): one
// session, one job of one or more apps, one node (session/job/app/node/proc
// realms). Ranks are numbered app after app.
//
// RegisterJob blocks (main thread only, never inside a PMIx callback) until
// PMIx_server_register_nspace completes or 30 s pass.
#ifndef PMIXX_TOOLS_PMIXRUN_JOB_INFO_H
#define PMIXX_TOOLS_PMIXRUN_JOB_INFO_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pmix_common.h"
#include "src/tools/pmixrun/debug_directives.h"

namespace pmixrun {

// One app: what is registered (argv, cwd, nprocs) and how its processes
// are started (path, env; not registered).
struct AppLayout {
  std::vector<std::string> argv;  // PMIX_APP_ARGV
  std::string cwd;                // PMIX_WDIR (absolute)
  int nprocs = 1;                 // PMIX_APP_SIZE
  std::string path;               // the resolved executable
  std::vector<std::string> env;   // "NAME=value", before PMIx_server_setup_fork
  bool tag_output = false;        // prefix each line of its output with the proc's name
};

// A process set to define over a job once it is registered (--pset, or a
// spawn's PMIX_PSET_NAME): the listed ranks, or every rank when empty.
struct PsetSpec {
  std::string name;
  std::vector<int> ranks;
};

struct JobLayout {
  std::string nspace;
  std::string hostname;
  std::string session_dir;  // PMIX_TMPDIR
  std::string job_dir;      // PMIX_NSDIR; PMIX_PROCDIR = job_dir/<rank>
  std::vector<AppLayout> apps;
  std::optional<pmix_proc_t> parent;  // set for a spawned job: PMIX_SPAWNED, PMIX_PARENT_ID
  uint32_t univ_size = 1;             // the session's PMIX_UNIV_SIZE (the first job's size)
  int node_rank_base = 0;             // node ranks taken by earlier jobs on this node
  uint32_t node_size = 1;             // processes on this node, this job's included
  std::vector<PsetSpec> psets;        // defined after registration, deleted at its end
  std::string bind_to = "none";       // PMIX_BINDTO (binding.h)
  std::vector<std::string> cpus;      // per rank: the hwloc list it is bound to ("" = unbound)
  // Whose stdin is a pipe tools feed (PMIx_IOF_push; stdin_feed.h): a rank,
  // PMIX_RANK_WILDCARD for all; none: /dev/null.
  std::optional<pmix_rank_t> stdin_target;
  // Debugger directives (debug_directives.h): the stop directives and, for
  // a debugger's daemons, what they debug, registered at the job level.
  DebugDirectives debug;

  int NumProcs() const;
  // The app `rank` belongs to and the first rank of that app.
  int AppOf(int rank, int* first_rank) const;
};

pmix_status_t RegisterJob(const JobLayout& job);

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_JOB_INFO_H
