// The job description pmixrun registers with its server: one session, one
// job, one app, one node, N processes (session/job/app/node/proc realms).
//
// RegisterJob blocks (main thread only, never inside a PMIx callback) until
// PMIx_server_register_nspace completes or 30 s pass.
#ifndef PMIXX_TOOLS_PMIXRUN_JOB_INFO_H
#define PMIXX_TOOLS_PMIXRUN_JOB_INFO_H

#include <string>
#include <vector>

#include "pmix_common.h"

namespace pmixrun {

struct JobLayout {
  std::string nspace;
  int nprocs = 1;
  std::string hostname;
  std::string session_dir;  // PMIX_TMPDIR
  std::string job_dir;      // PMIX_NSDIR; PMIX_PROCDIR = job_dir/<rank>
  std::string cwd;
  std::vector<std::string> argv;
};

pmix_status_t RegisterJob(const JobLayout& job);

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_JOB_INFO_H
