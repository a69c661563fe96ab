#include "mca/base/var_files.h"

#include <cctype>
#include <cstdlib>
#include <fstream>

#include "src/common/output.h"

#ifndef PMIXX_SYSCONFDIR
#define PMIXX_SYSCONFDIR "/etc"
#endif

namespace pmix::mca {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

std::string_view Unquote(std::string_view value) {
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    value.remove_prefix(1);
    value.remove_suffix(1);
  }
  return value;
}

}  // namespace

std::string DefaultParamFiles() {
  return std::string("~/.pmix/mca-params.conf:") + PMIXX_SYSCONFDIR +
         "/pmix-mca-params.conf";
}

std::string DefaultOverrideFile() {
  return std::string(PMIXX_SYSCONFDIR) + "/pmix-mca-params-override.conf";
}

std::string ExpandHome(std::string_view path) {
  if (path.substr(0, 2) != "~/") return std::string(path);
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') return {};
  return std::string(home) + std::string(path.substr(1));
}

std::vector<std::string> SplitPath(std::string_view list) {
  std::vector<std::string> out;
  while (!list.empty()) {
    size_t colon = list.find(':');
    std::string_view entry = list.substr(0, colon);
    if (!entry.empty()) out.emplace_back(entry);
    if (colon == std::string_view::npos) break;
    list.remove_prefix(colon + 1);
  }
  return out;
}

std::optional<std::string> ParamFile::Find(std::string_view name) const {
  for (auto it = assignments.rbegin(); it != assignments.rend(); ++it) {
    if (it->first == name) return it->second;
  }
  return std::nullopt;
}

ParamFile ReadParamFile(const std::string& path) {
  ParamFile file{path, {}};
  std::ifstream in(path);
  if (!in) {
    output::Verbose("mca", 10, "parameter file %s not present", path.c_str());
    return file;
  }
  std::string line;
  for (int line_no = 1; std::getline(in, line); ++line_no) {
    std::string_view text = Trim(line);
    if (text.empty() || text.front() == '#') continue;
    size_t equals = text.find('=');
    std::string_view name = Trim(text.substr(0, equals));
    if (equals == std::string_view::npos || name.empty()) {
      output::Error("mca", "%s:%d: ignoring a line that is not 'name = value'",
                    path.c_str(), line_no);
      continue;
    }
    std::string_view value = Unquote(Trim(text.substr(equals + 1)));
    file.assignments.emplace_back(std::string(name), std::string(value));
  }
  return file;
}

}  // namespace pmix::mca
