// pmixrun's command line (see options.h).
#include "src/tools/pmixrun/options.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "pmix_common.h"

namespace pmixrun {
namespace {

constexpr int kMaxProcs = 1024;

// A whole-string decimal in [lo, hi].
bool ParseInt(std::string_view text, int lo, int hi, int* out) {
  if (text.empty() || text.size() > 10) return false;
  std::string copy(text);
  char* end = nullptr;
  errno = 0;
  long v = std::strtol(copy.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi) return false;
  *out = static_cast<int>(v);
  return true;
}

bool ValidEnvName(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name) {
    bool ok =
        c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

// Walks argv; options end at the first non-option word or at "--".
class Parser {
 public:
  Parser(int argc, char** argv, Options* out, std::string* error)
      : argc_(argc), argv_(argv), out_(out), error_(error) {}

  ParseOutcome Run() {
    int i = 1;
    for (; i < argc_; ++i) {
      std::string_view arg = argv_[i];
      if (arg == "--") {
        ++i;
        break;
      }
      if (arg.empty() || arg[0] != '-' || arg == "-") break;
      ParseOutcome o = One(arg, &i);
      if (o != ParseOutcome::kRun) return o;
    }
    for (; i < argc_; ++i) out_->argv.emplace_back(argv_[i]);
    if (out_->argv.empty()) return Fail("no program to run");
    return ParseOutcome::kRun;
  }

 private:
  ParseOutcome Fail(std::string text) {
    *error_ = std::move(text);
    return ParseOutcome::kError;
  }

  // The value of an option: "--opt=value" or the next word.
  bool Value(std::string_view arg, int* i, std::string_view* value) {
    if (size_t eq = arg.find('='); eq != std::string_view::npos && arg.starts_with("--")) {
      *value = arg.substr(eq + 1);
      return true;
    }
    if (*i + 1 >= argc_) return false;
    *value = argv_[++*i];
    return true;
  }

  ParseOutcome One(std::string_view arg, int* i) {
    std::string_view name = arg.substr(0, arg.find('='));
    if (name == "-h" || name == "--help") return ParseOutcome::kHelp;
    if (name == "-V" || name == "--version") return ParseOutcome::kVersion;
    if (name == "--tag-output") return out_->tag_output = true, ParseOutcome::kRun;
    if (name == "-v" || name == "--verbose") return ++out_->verbose, ParseOutcome::kRun;
    if (name == "--system-server") return out_->system_server = true, ParseOutcome::kRun;
    if (name == "--stop-in-init") return out_->stop_in_init = true, ParseOutcome::kRun;
    if (name == "--stop-on-exec") return out_->stop_on_exec = true, ParseOutcome::kRun;
    std::string_view value;
    bool takes_value = name == "-n" || name == "-np" || name == "--np" || name == "--n" ||
                       name == "-x" || name == "--timeout" || name == "--pset" || name == "--bind-to" ||
                       name == "--report-uri" || name == "--tool-stdin";
    if (!takes_value) return Fail("unknown option '" + std::string(arg) + "'");
    if (!Value(arg, i, &value)) return Fail("option '" + std::string(name) + "' needs a value");
    if (name == "--timeout") {
      if (!ParseInt(value, 1, INT_MAX / 1000, &out_->timeout_s))
        return Fail("--timeout wants a positive number of seconds, not '" + std::string(value) +
                    "'");
      return ParseOutcome::kRun;
    }
    if (name == "-x") return EnvOption(value);
    if (name == "--pset") return PsetOption(value);
    if (name == "--bind-to") {
      if (value != "none" && value != "core" && value != "package" && value != "socket")
        return Fail("--bind-to wants none, core or package, not '" + std::string(value) + "'");
      out_->bind_to = std::string(value == "socket" ? "package" : value);
      return ParseOutcome::kRun;
    }
    if (name == "--tool-stdin") {
      int rank = 0;
      if (value == "all") out_->tool_stdin = PMIX_RANK_WILDCARD;
      else if (ParseInt(value, 0, kMaxProcs - 1, &rank)) out_->tool_stdin = static_cast<uint32_t>(rank);
      else return Fail("--tool-stdin wants a rank or 'all', not '" + std::string(value) + "'");
      return ParseOutcome::kRun;
    }
    if (name == "--report-uri") {
      if (value.empty()) return Fail("--report-uri wants a file name, '-' or '+'");
      out_->report_uri = std::string(value);
      return ParseOutcome::kRun;
    }
    if (!ParseInt(value, 1, kMaxProcs, &out_->nprocs))
      return Fail("-n wants a process count from 1 to " + std::to_string(kMaxProcs) + ", not '" +
                  std::string(value) + "'");
    return ParseOutcome::kRun;
  }

  ParseOutcome EnvOption(std::string_view value) {
    size_t eq = value.find('=');
    EnvSetting s{std::string(value.substr(0, eq)), std::nullopt};
    if (eq != std::string_view::npos) s.value = std::string(value.substr(eq + 1));
    if (!ValidEnvName(s.name)) return Fail("-x: bad variable name '" + s.name + "'");
    out_->env.push_back(std::move(s));
    return ParseOutcome::kRun;
  }

  // NAME:RANKS, RANKS a comma list of ranks and ranges ("0,2-3").
  ParseOutcome PsetOption(std::string_view value) {
    size_t colon = value.find(':');
    PsetSpec pset{std::string(value.substr(0, colon)), {}};
    auto bad = [&] { return Fail("--pset wants NAME:RANKS (e.g. ocean:0,2-3), not '" +
                                 std::string(value) + "'"); };
    if (colon == std::string_view::npos || pset.name.empty() || pset.name.size() > 255) return bad();
    std::string_view list = value.substr(colon + 1);
    while (!list.empty()) {
      std::string_view item = list.substr(0, list.find(','));
      list = item.size() < list.size() ? list.substr(item.size() + 1) : std::string_view();
      size_t dash = item.find('-');
      int lo = 0, hi = 0;
      if (!ParseInt(item.substr(0, dash), 0, kMaxProcs - 1, &lo)) return bad();
      hi = lo;
      if (dash != std::string_view::npos && !ParseInt(item.substr(dash + 1), lo, kMaxProcs - 1, &hi))
        return bad();
      for (int r = lo; r <= hi; ++r) pset.ranks.push_back(r);
    }
    if (pset.ranks.empty()) return bad();
    for (const PsetSpec& other : out_->psets)
      if (other.name == pset.name) return Fail("--pset " + pset.name + " given twice");
    out_->psets.push_back(std::move(pset));
    return ParseOutcome::kRun;
  }

  int argc_;
  char** argv_;
  Options* out_;
  std::string* error_;
};

}  // namespace

ParseOutcome ParseOptions(int argc, char** argv, Options* out, std::string* error) {
  return Parser(argc, argv, out, error).Run();
}

const char* UsageText() {
  return "Usage: pmixrun [options] [--] program [args...]\n"
         "Runs N copies of a program on this node as one PMIx job.\n"
         "\n"
         "  -n, -np N          number of processes (default 1)\n"
         "  -x VAR[=value]     set VAR in the processes' environment (without a\n"
         "                     value: pass on pmixrun's own VAR)\n"
         "  --tag-output       prefix each line of output with \"[rank] \" (\"[nspace,rank] \"\n"
         "                     for the jobs PMIx_Spawn starts)\n"
         "  --timeout S        kill the job after S seconds (exit status 124)\n"
         "  --pset NAME:RANKS  define process set NAME over these ranks (\"0,2-3\";\n"
         "                     repeatable)\n"
         "  --bind-to WHAT     bind each process to a core or a package (round robin)\n"
         "                     or not at all (none, the default)\n"
         "  --report-uri F     write the server's URI to file F ('-': stdout, '+': stderr)\n"
         "  --system-server    also be this node's system server (pmix.sys.<host> in TMPDIR)\n"
         "  --tool-stdin R     rank R's stdin ('all': every rank's) is fed by tools\n"
         "                     (PMIx_IOF_push) instead of /dev/null\n"
         "  --stop-in-init     the processes wait in PMIx_Init for a debugger's\n"
         "                     PMIX_DEBUGGER_RELEASE event\n"
         "  --stop-on-exec     the processes are stopped on their first instruction\n"
         "                     until a debugger continues them or PMIX_DEBUGGER_RELEASE\n"
         "  -v, --verbose      report the job's life cycle on stderr\n"
         "  -h, --help         this text\n"
         "  -V, --version      the version\n"
         "\n"
         "Exit status: the job's (the first nonzero exit code of a process, or\n"
         "128+signal for one killed by a signal; the status given to PMIx_Abort);\n"
         "124 on --timeout, 127 if the program cannot be run, 2 for a bad command line.\n"
         "SIGINT, SIGTERM, SIGHUP, SIGUSR1 and SIGUSR2 are passed on to the job.\n"
         "Tools (pattrs, pquery, pps, pevent, plookup, debuggers) attach to a running\n"
         "pmixrun by its pid (server namespace prun-<host>-<pid>@0): they see the\n"
         "job's output, may push its stdin, spawn jobs and raise events.\n";
}

}  // namespace pmixrun
