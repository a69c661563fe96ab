// What the command-line tools (pattrs, pquery, pps, pevent, plookup) share:
// their command line and how they reach a server, with OpenPMIx 4.2's
// option names so scripts written for its tools work:
//
//   -h|--help, -V|--version, -v|--verbose
//   --uri URI            PMIX_SERVER_URI (a URI, or file:<path> holding one)
//   --namespace NS       PMIX_SERVER_NSPACE (--nspace: the same)
//   --pid PID            PMIX_SERVER_PIDINFO (a number, or file:<path> holding one)
//   --system-server-first, --system-server   PMIX_CONNECT_SYSTEM_FIRST / _TO_SYSTEM
//   --tmpdir DIR         where rendezvous files are searched (PMIX_SERVER_TMPDIR,
//                        PMIX_SYSTEM_TMPDIR)
//   --wait-to-connect S  seconds between connection attempts (PMIX_CONNECT_RETRY_DELAY)
//   --num-connect-retries N   attempts after the first (PMIX_CONNECT_MAX_RETRIES)
//   --wait-for-server    keep trying until a server answers (PMIX_WAIT_FOR_CONNECTION;
//                        bounded by --timeout S when given)
// An option's value is "--opt value" or "--opt=value". Each tool adds its own.
// The tools use only the public API; they name themselves
// "<tool>.<host>.<pid>", rank 0, as OpenPMIx's do.
#ifndef PMIXX_TOOLS_CLI_CLI_H
#define PMIXX_TOOLS_CLI_CLI_H

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "pmix_tool.h"

namespace pmixcli {

enum class Arg { kNone, kOptional, kRequired };

struct OptionSpec {
  const char* name;  // without the dashes
  Arg arg;
  const char* help;
};

struct Command {
  std::string tool;                // "pquery"
  std::map<std::string, std::optional<std::string>> given;  // option -> value
  std::vector<std::string> rest;   // positional words
  int verbose = 0;

  bool Has(const std::string& opt) const { return given.count(opt) != 0; }
  std::optional<std::string> Value(const std::string& opt) const;
};

enum class Parsed { kRun, kExit0, kError };

// Parses argv against the common options plus `extra`. --help prints the
// usage (`summary` first) on stdout, --version the version: kExit0. A bad
// command line says why on stderr: kError.
Parsed Parse(int argc, char** argv, const std::string& tool, const std::string& summary,
             const std::vector<OptionSpec>& extra, const std::string& trailer, Command* out);

// Initialises the library as a tool, connecting as the options say
// (`optional`: an unconnected tool is fine when no server was named and
// none is found; `no_connect`: do not try). On failure prints "<tool>:
// ..." on stderr and returns false.
bool InitTool(const Command& cmd, bool optional, bool no_connect, pmix_proc_t* me);

// Exit status for a failure.
inline constexpr int kFailure = 1;

}  // namespace pmixcli

#endif  // PMIXX_TOOLS_CLI_CLI_H
