// pmix_info's command line (see info.h).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "config.h"
#include "src/tools/pmix_info/info.h"
#include "src/tools/pmix_info/sections.h"

namespace pmix::info {
namespace {

constexpr char kUsage[] =
    "Usage: pmix_info [OPTION]...\n"
    "Shows what this pmixx installation is: version, build configuration,\n"
    "frameworks and components, and MCA parameters.\n"
    "\n"
    "  -h, --help                 this help\n"
    "  -V, --version              print the version and exit\n"
    "  -a, --all                  everything: configuration, paths, components, all parameters\n"
    "  -c, --config               the build configuration only\n"
    "      --param FW [COMP]      parameters of framework FW ('all' for every framework) and\n"
    "                             of component COMP ('all' (default), 'base' or a name);\n"
    "                             FW:COMP is accepted too\n"
    "      --path NAME            an installation path: prefix, bindir, libdir, incdir,\n"
    "                             pkglibdir, sysconfdir, mandir, or all\n"
    "      --show-failed          also list component files that were refused, with the reason\n"
    "      --parsable, --parseable  machine-readable output (key:key:value lines)\n"
    "      --pretty-print         human-readable output (the default)\n";

struct Options {
  bool help = false, version = false, all = false, config = false;
  bool parsable = false, show_failed = false;
  std::vector<std::pair<std::string, std::string>> params;
  std::vector<std::string> paths;
};

bool IsOption(const char* arg) { return arg[0] == '-'; }

// Returns an error message, or "" on success.
std::string Parse(int argc, char** argv, Options* opts) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      opts->help = true;
    } else if (arg == "-V" || arg == "--version") {
      opts->version = true;
    } else if (arg == "-a" || arg == "--all") {
      opts->all = true;
    } else if (arg == "-c" || arg == "--config") {
      opts->config = true;
    } else if (arg == "--parsable" || arg == "--parseable") {
      opts->parsable = true;
    } else if (arg == "--pretty-print") {
      opts->parsable = false;
    } else if (arg == "--show-failed") {
      opts->show_failed = true;
    } else if (arg == "--param") {
      if (i + 1 >= argc || IsOption(argv[i + 1])) return "--param needs a framework name";
      std::string fw = argv[++i], comp = "all";
      if (auto colon = fw.find(':'); colon != std::string::npos) {
        comp = fw.substr(colon + 1);
        fw.resize(colon);
      } else if (i + 1 < argc && !IsOption(argv[i + 1])) {
        comp = argv[++i];
      }
      opts->params.emplace_back(fw, comp.empty() ? "all" : comp);
    } else if (arg == "--path") {
      if (i + 1 >= argc || IsOption(argv[i + 1])) return "--path needs a name";
      opts->paths.emplace_back(argv[++i]);
    } else {
      return "unknown option '" + arg + "'";
    }
  }
  return "";
}

int Run(const Options& opts) {
  Printer out(stdout, opts.parsable);
  if (opts.version) {
    std::printf("pmix_info (pmixx) %s\n", PACKAGE_VERSION);
    return 0;
  }
  for (const std::string& name : opts.paths) {
    if (!PrintPath(out, name)) {
      std::fprintf(stderr, "pmix_info: unknown path '%s'\n", name.c_str());
      return 1;
    }
  }
  const bool listing = opts.all || (opts.paths.empty() && opts.params.empty() && !opts.config);
  if (opts.all || opts.config || listing) PrintConfig(out);
  if (opts.all) PrintPath(out, "all");
  if (listing || opts.all || !opts.params.empty()) EnsureAllFrameworks();
  if (listing || opts.all) PrintComponents(out, opts.show_failed);
  if (opts.all) PrintParams(out, "all", "all");
  for (const auto& [fw, comp] : opts.params) {
    if (!PrintParams(out, fw, comp)) {
      std::fprintf(stderr, "pmix_info: unknown framework '%s'\n", fw.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace
}  // namespace pmix::info

extern "C" int pmixx_info_main(int argc, char** argv) {
  using namespace pmix::info;
  try {
    Options opts;
    const std::string error = Parse(argc, argv, &opts);
    if (!error.empty()) {
      std::fprintf(stderr, "pmix_info: %s\n%s", error.c_str(), kUsage);
      return 1;
    }
    if (opts.help) {
      std::fputs(kUsage, stdout);
      return 0;
    }
    return Run(opts);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pmix_info: internal error: %s\n", e.what());
  }
  return 1;
}
