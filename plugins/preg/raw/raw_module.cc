// See raw_module.h; the list text is copied, never interpreted.
#include "plugins/preg/raw/raw_module.h"

#include <string>

#include "plugins/preg/common/preg_util.h"

namespace pmix::preg::raw {
namespace {

constexpr std::string_view kPrefix = "raw:";

pmix_status_t Generate(const char* input, char** out) {
  return util::Guard([&] {
    std::string_view text(input);
    if (text.find('*') != std::string_view::npos) return PMIX_ERR_NOT_SUPPORTED;
    return util::DupString(std::string(kPrefix) + std::string(text), out);
  });
}

pmix_status_t Parse(const char* regex, char sep, char*** out) {
  return util::Guard([&] {
    std::string_view text(regex);
    if (!util::StripPrefix(text, kPrefix)) return PMIX_ERR_NOT_SUPPORTED;
    return util::ToArgv(util::Split(text, sep), out);
  });
}

pmix_status_t ParseNodes(const char* regex, char*** names) { return Parse(regex, ',', names); }
pmix_status_t ParseProcs(const char* regex, char*** procs) { return Parse(regex, ';', procs); }

}  // namespace

const pmix_preg_module_t kModule = {"raw", Generate, Generate, ParseNodes, ParseProcs};

}  // namespace pmix::preg::raw
