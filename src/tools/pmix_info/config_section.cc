// pmix_info's configuration and path sections. The paths and the
// configure line come from the build (-D flags in src/tools/local.mk).
#include <event2/event.h>
#include <hwloc.h>
#include <zlib.h>

#include <string>
#include <utility>
#include <vector>

#include "config.h"
#include "pmix.h"
#include "src/tools/pmix_info/sections.h"

namespace pmix::info {
namespace {

const std::vector<std::pair<std::string, std::string>>& Paths() {
  static const std::vector<std::pair<std::string, std::string>> paths = {
      {"prefix", PMIXX_PREFIX},       {"bindir", PMIXX_BINDIR},
      {"libdir", PMIXX_LIBDIR},       {"incdir", PMIXX_INCLUDEDIR},
      {"pkglibdir", PMIXX_PKGLIBDIR}, {"sysconfdir", PMIXX_SYSCONFDIR},
      {"mandir", PMIXX_MANDIR},
  };
  return paths;
}

std::string Capitalized(std::string s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

std::string HwlocVersion() {
  unsigned v = hwloc_get_api_version();
  return std::to_string(v >> 16) + "." + std::to_string((v >> 8) & 0xff) + "." +
         std::to_string(v & 0xff);
}

}  // namespace

void PrintConfig(const Printer& out) {
  out.Fact("Package", "package", "pmixx");
  out.Fact("PMIX", "pmix:version:full", PACKAGE_VERSION);
  out.Fact("PMIX Standard", "pmix:std:version", PMIX_STD_VERSION);
  out.Fact("PMIX Standard ABI", "pmix:std:abi:version",
           "OpenPMIx 4.2.2 compatible (libpmix.so.2)");
  out.Fact("Library", "pmix:library", PMIx_Get_version());
  out.Fact("Prefix", "path:prefix", PMIXX_PREFIX);
  out.Fact("Configure command line", "config:cli", PMIXX_CONFIGURE_ARGS);
  out.Fact("C compiler", "compiler:c:version", PMIXX_CC_VERSION);
  out.Fact("C++ compiler", "compiler:cxx:version", PMIXX_CXX_VERSION);
#ifdef PMIXX_ENABLE_DLOPEN
  out.Fact("dl support", "option:dlopen", "yes");
#else
  out.Fact("dl support", "option:dlopen", "no (components built in)");
#endif
  out.Fact("Symbol vis. support", "option:visibility", "yes");
  out.Fact("libevent", "dependency:libevent:version", event_get_version());
  out.Fact("hwloc", "dependency:hwloc:version", HwlocVersion());
  out.Fact("zlib", "dependency:zlib:version", zlibVersion());
  out.Fact("libltdl", "dependency:libltdl", "yes");
  out.Fact("munge", "dependency:munge", PMIXX_HAVE_MUNGE ? "yes" : "no");
}

std::vector<std::string> PathNames() {
  std::vector<std::string> names;
  for (const auto& [name, value] : Paths()) names.push_back(name);
  return names;
}

bool PrintPath(const Printer& out, const std::string& name) {
  bool found = false;
  for (const auto& [path_name, value] : Paths()) {
    if (name != "all" && name != path_name) continue;
    out.Fact(Capitalized(path_name), "path:" + path_name, value);
    found = true;
  }
  return found;
}

}  // namespace pmix::info
