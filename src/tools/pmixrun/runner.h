// Running the launched job to its end: the main loop that forwards output,
// passes signals on, acts on aborts, raises process-termination events,
// enforces --timeout, and decides the exit status. Main thread only.
//
// Exit status: an abort's status (first one), else 124 on timeout, else the
// first nonzero process exit code (128+signal for a killed process), else 0.
#ifndef PMIXX_TOOLS_PMIXRUN_RUNNER_H
#define PMIXX_TOOLS_PMIXRUN_RUNNER_H

#include <string>
#include <vector>

#include "src/tools/pmixrun/children.h"

namespace pmixrun {

struct RunSettings {
  std::string nspace;
  bool tag_output = false;
  int timeout_s = 0;
  int verbose = 0;
  bool start_failed = false;  // some processes did not start: the job is being killed
};

// Returns when every process is reaped and its output drained.
int RunJob(const RunSettings& settings, std::vector<Child>& children);

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_RUNNER_H
