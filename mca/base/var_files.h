// MCA parameter files: reading "name = value" files and finding a name in
// them.
//
// File syntax: one assignment per line, "<full name> = <value>"; blanks
// around the name and the value are ignored; a value may be wrapped in one
// pair of double quotes; '#' starts a comment line; blank lines are
// skipped. Within one file a later assignment to a name replaces an earlier
// one. A line without '=' is reported once (path:line) and ignored. A
// missing or unreadable file is not an error (it is simply absent).
//
// Which files (defaults, overridable by the environment so that tests and
// users can redirect them without touching $HOME):
//   param files    PMIX_MCA_mca_base_param_files, a ':'-separated list,
//                  earlier entries win; default
//                  "~/.pmix/mca-params.conf:$sysconfdir/pmix-mca-params.conf"
//                  ("~/" is $HOME; skipped when HOME is unset)
//   override file  PMIX_MCA_mca_base_override_param_file; default
//                  "$sysconfdir/pmix-mca-params-override.conf"
// Not thread-safe by itself: the variable registry (var.h) calls it under
// its lock.
#ifndef PMIXX_MCA_BASE_VAR_FILES_H
#define PMIXX_MCA_BASE_VAR_FILES_H

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pmix::mca {

// The environment variables that redirect the files, and their defaults.
inline constexpr const char* kParamFilesEnv = "PMIX_MCA_mca_base_param_files";
inline constexpr const char* kOverrideFileEnv = "PMIX_MCA_mca_base_override_param_file";
std::string DefaultParamFiles();    // with "~/" unexpanded
std::string DefaultOverrideFile();

// "~/x" -> "$HOME/x"; "" when HOME is unset; other paths unchanged.
std::string ExpandHome(std::string_view path);

// Splits on ':' and drops empty entries.
std::vector<std::string> SplitPath(std::string_view list);

struct ParamFile {
  std::string path;
  std::vector<std::pair<std::string, std::string>> assignments;  // file order
  // The value of the last assignment to `name`, if any.
  std::optional<std::string> Find(std::string_view name) const;
};

// Reads one file (absent -> no assignments); malformed lines are reported
// on stderr once, here.
ParamFile ReadParamFile(const std::string& path);

}  // namespace pmix::mca

#endif  // PMIXX_MCA_BASE_VAR_FILES_H
