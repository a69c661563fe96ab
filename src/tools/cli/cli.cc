// The command-line tools' shared command line and connection (cli.h).
#include "src/tools/cli/cli.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "pmix.h"

namespace pmixcli {
namespace {

const std::vector<OptionSpec>& Common() {
  static const std::vector<OptionSpec> common = {
      {"help", Arg::kNone, "This help message"},
      {"version", Arg::kNone, "Print version and exit"},
      {"verbose", Arg::kNone, "Report what the tool does on stderr"},
      {"uri", Arg::kRequired,
       "URI of the server to connect to, or file:<path> of a file holding it"},
      {"namespace", Arg::kRequired, "Namespace of the server to connect to"},
      {"nspace", Arg::kRequired, "The same as --namespace"},
      {"pid", Arg::kRequired, "PID of the server to connect to (a number, or file:<path>)"},
      {"system-server-first", Arg::kNone, "Try the system server first, then any other"},
      {"system-server", Arg::kNone, "Connect only to the system server"},
      {"tmpdir", Arg::kRequired, "Directory under which rendezvous files are searched"},
      {"wait-to-connect", Arg::kRequired, "Seconds between connection attempts"},
      {"num-connect-retries", Arg::kRequired, "Connection attempts after the first"},
      {"wait-for-server", Arg::kNone, "Keep trying until a server answers (see --timeout)"},
      {"timeout", Arg::kRequired, "Give up after this many seconds"},
  };
  return common;
}

const OptionSpec* Find(const std::vector<OptionSpec>& extra, const std::string& name) {
  for (const OptionSpec& o : extra)
    if (name == o.name) return &o;
  for (const OptionSpec& o : Common())
    if (name == o.name) return &o;
  return nullptr;
}

void Usage(const std::string& tool, const std::string& summary,
           const std::vector<OptionSpec>& extra, const std::string& trailer) {
  std::printf("%s (pmixx) %s\n\nUsage: %s [OPTION]...\n%s\n\n", tool.c_str(), PMIx_Get_version(),
              tool.c_str(), summary.c_str());
  auto print = [](const OptionSpec& o) {
    std::string left = "--" + std::string(o.name);
    if (o.arg == Arg::kRequired) left += " <arg0>";
    if (o.arg == Arg::kOptional) left += " [arg0]";
    if (std::strcmp(o.name, "help") == 0) left = "-h|--help";
    if (std::strcmp(o.name, "version") == 0) left = "-V|--version";
    if (std::strcmp(o.name, "verbose") == 0) left = "-v|--verbose";
    std::printf("   %-34s %s\n", left.c_str(), o.help);
  };
  for (const OptionSpec& o : Common()) print(o);
  if (!extra.empty()) std::printf("\n");
  for (const OptionSpec& o : extra) print(o);
  if (!trailer.empty()) std::printf("\n%s\n", trailer.c_str());
}

// --pid: a number, or file:<path> whose first word is one.
bool PidOf(const std::string& text, pid_t* pid) {
  std::string number = text;
  if (text.rfind("file:", 0) == 0) {
    std::ifstream in(text.substr(5));
    if (!(in >> number)) return false;
  }
  char* end = nullptr;
  long v = std::strtol(number.c_str(), &end, 10);
  if (number.empty() || *end != '\0' || v <= 0) return false;
  *pid = static_cast<pid_t>(v);
  return true;
}

bool IntOf(const std::string& text, int* out) {
  char* end = nullptr;
  long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < 0 || v > 1000000) return false;
  *out = static_cast<int>(v);
  return true;
}

class Infos {
 public:
  ~Infos() {
    for (pmix_info_t& i : items_) PMIx_Info_destruct(&i);
  }
  void Add(const char* key, const void* value, pmix_data_type_t type) {
    items_.emplace_back();
    PMIx_Info_construct(&items_.back());
    (void)PMIx_Info_load(&items_.back(), key, value, type);
  }
  pmix_info_t* data() { return items_.empty() ? nullptr : items_.data(); }
  size_t size() const { return items_.size(); }

 private:
  std::vector<pmix_info_t> items_;
};

}  // namespace

std::optional<std::string> Command::Value(const std::string& opt) const {
  auto it = given.find(opt);
  return it == given.end() ? std::nullopt : it->second;
}

Parsed Parse(int argc, char** argv, const std::string& tool, const std::string& summary,
             const std::vector<OptionSpec>& extra, const std::string& trailer, Command* out) {
  out->tool = tool;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h") arg = "--help";
    if (arg == "-V") arg = "--version";
    if (arg == "-v") arg = "--verbose";
    if (arg.rfind("--", 0) != 0 || arg == "--") {
      if (arg != "--") out->rest.push_back(arg);
      for (int j = i + 1; arg == "--" && j < argc; ++j) out->rest.emplace_back(argv[j]);
      if (arg == "--") break;
      continue;
    }
    std::string name = arg.substr(2);
    std::optional<std::string> value;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    const OptionSpec* spec = Find(extra, name);
    if (spec == nullptr) {
      std::fprintf(stderr, "%s: unknown option '%s'\nTry '%s --help'.\n", tool.c_str(), arg.c_str(),
                   tool.c_str());
      return Parsed::kError;
    }
    if (!value && spec->arg == Arg::kRequired) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s: option '--%s' needs a value\n", tool.c_str(), name.c_str());
        return Parsed::kError;
      }
      value = argv[++i];
    } else if (!value && spec->arg == Arg::kOptional && i + 1 < argc && argv[i + 1][0] != '-') {
      value = argv[++i];
    } else if (value && spec->arg == Arg::kNone) {
      std::fprintf(stderr, "%s: option '--%s' takes no value\n", tool.c_str(), name.c_str());
      return Parsed::kError;
    }
    if (name == "verbose") ++out->verbose;
    if (name == "nspace") name = "namespace";
    out->given[name] = value;
  }
  if (out->Has("help")) {
    Usage(tool, summary, extra, trailer);
    return Parsed::kExit0;
  }
  if (out->Has("version")) {
    std::printf("%s (pmixx) %s\n", tool.c_str(), PMIx_Get_version());
    return Parsed::kExit0;
  }
  return Parsed::kRun;
}

bool InitTool(const Command& cmd, bool optional, bool no_connect, pmix_proc_t* me) {
  Infos info;
  bool yes = true;
  bool named = false;
  if (auto pid_text = cmd.Value("pid")) {
    pid_t pid = 0;
    if (!PidOf(*pid_text, &pid)) {
      std::fprintf(stderr, "%s: --pid wants a process id or file:<path>, not '%s'\n",
                   cmd.tool.c_str(), pid_text->c_str());
      return false;
    }
    info.Add(PMIX_SERVER_PIDINFO, &pid, PMIX_PID);
    named = true;
  } else if (auto ns = cmd.Value("namespace")) {
    info.Add(PMIX_SERVER_NSPACE, ns->c_str(), PMIX_STRING);
    named = true;
  } else if (auto uri = cmd.Value("uri")) {
    info.Add(PMIX_SERVER_URI, uri->c_str(), PMIX_STRING);
    named = true;
  } else if (cmd.Has("system-server-first")) {
    info.Add(PMIX_CONNECT_SYSTEM_FIRST, &yes, PMIX_BOOL);
  } else if (cmd.Has("system-server")) {
    info.Add(PMIX_CONNECT_TO_SYSTEM, &yes, PMIX_BOOL);
    named = true;
  }
  if (auto dir = cmd.Value("tmpdir")) {
    info.Add(PMIX_SERVER_TMPDIR, dir->c_str(), PMIX_STRING);
    info.Add(PMIX_SYSTEM_TMPDIR, dir->c_str(), PMIX_STRING);
  }
  int n = 0;
  if (auto v = cmd.Value("wait-to-connect"); v && IntOf(*v, &n)) {
    uint32_t delay = static_cast<uint32_t>(n);
    info.Add(PMIX_CONNECT_RETRY_DELAY, &delay, PMIX_UINT32);
  }
  if (auto v = cmd.Value("num-connect-retries"); v && IntOf(*v, &n)) {
    uint32_t retries = static_cast<uint32_t>(n);
    info.Add(PMIX_CONNECT_MAX_RETRIES, &retries, PMIX_UINT32);
  }
  if (cmd.Has("wait-for-server")) info.Add(PMIX_WAIT_FOR_CONNECTION, &yes, PMIX_BOOL);
  if (auto v = cmd.Value("timeout"); v && IntOf(*v, &n)) info.Add(PMIX_TIMEOUT, &n, PMIX_INT);
  if (no_connect) info.Add(PMIX_TOOL_DO_NOT_CONNECT, &yes, PMIX_BOOL);
  else if (optional && !named) info.Add(PMIX_TOOL_CONNECT_OPTIONAL, &yes, PMIX_BOOL);
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  std::string name = cmd.tool + "." + host + "." + std::to_string(::getpid());
  pmix_rank_t rank = 0;
  info.Add(PMIX_TOOL_NSPACE, name.c_str(), PMIX_STRING);
  info.Add(PMIX_TOOL_RANK, &rank, PMIX_PROC_RANK);
  pmix_status_t rc = PMIx_tool_init(me, info.data(), info.size());
  if (rc == PMIX_SUCCESS) return true;
  std::fprintf(stderr, "%s: no PMIx server found to connect to (%s)%s\n", cmd.tool.c_str(),
               PMIx_Error_string(rc),
               named ? "" : "; name one with --pid, --namespace, --uri or --system-server");
  return false;
}

}  // namespace pmixcli
