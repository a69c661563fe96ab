// pmixrun's command line: what to run and how.
//
// ParseOptions reads argv into Options and never prints; the caller prints
// the usage or the error text it returns. Not thread-aware (called once).
#ifndef PMIXX_TOOLS_PMIXRUN_OPTIONS_H
#define PMIXX_TOOLS_PMIXRUN_OPTIONS_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/tools/pmixrun/job_info.h"

namespace pmixrun {

// One -x: VAR (copied from pmixrun's own environment) or VAR=value.
struct EnvSetting {
  std::string name;
  std::optional<std::string> value;
};

struct Options {
  int nprocs = 1;
  std::vector<EnvSetting> env;
  bool tag_output = false;
  int timeout_s = 0;  // 0: no limit
  int verbose = 0;
  std::vector<PsetSpec> psets;    // --pset NAME:RANKS (ranks checked against -n at launch)
  std::string bind_to = "none";   // --bind-to none|core|package (binding.h)
  std::string report_uri;         // --report-uri: "-", "+", or a file ("": none)
  bool system_server = false;     // --system-server
  std::optional<uint32_t> tool_stdin;  // --tool-stdin: a rank, or PMIX_RANK_WILDCARD (all)
  bool stop_in_init = false;      // --stop-in-init: PMIX_DEBUG_STOP_IN_INIT for every rank
  bool stop_on_exec = false;      // --stop-on-exec: PMIX_DEBUG_STOP_ON_EXEC for every rank
  std::vector<std::string> argv;  // program and its arguments
};

enum class ParseOutcome { kRun, kHelp, kVersion, kError };

// On kError, *error holds a one-line reason.
ParseOutcome ParseOptions(int argc, char** argv, Options* out, std::string* error);

// The --help text.
const char* UsageText();

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_OPTIONS_H
