// The MCA variable registry: every tunable of libpmix and its components.
//
// A variable has a full name (<fw>_<comp>_<param>, <fw>_base_<param>, or a
// global name such as mca_base_component_path), a type, a textual default,
// a help line and optionally one deprecated synonym (an older full name).
// Its value is resolved once, when it is first registered, from the first
// of these sources that holds a valid value for it:
//
//   1. override file   (var_files.h: $sysconfdir/pmix-mca-params-override.conf)
//   2. environment     PMIX_MCA_<name>, then the long form PMIX_MCA_pmix_<name>
//   3. param files     ~/.pmix/mca-params.conf, then
//                      $sysconfdir/pmix-mca-params.conf (the user's file wins)
//   4. the default
//
// Within one source the current name is looked up before the synonym, so
// when both are set the current name wins; a value found through the
// synonym is used and a deprecation warning naming the current name is
// printed once per process. A value that does not parse for the type is
// reported once on stderr (variable, source, reason) and the next source is
// consulted; the library never aborts. A default that does not parse is a
// programming error: registration fails with PMIX_ERR_BAD_PARAM.
//
// Threads: the registry is process-wide and guarded by one internal mutex;
// every function here may be called from any thread. A registered
// variable's value never changes afterwards (only ResetVarsForTesting
// forgets it), and callers receive copies.
#ifndef PMIXX_MCA_BASE_VAR_H
#define PMIXX_MCA_BASE_VAR_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pmix/mca/mca.h"
#include "src/common/status.h"

namespace pmix::mca {

enum class VarSource { kDefault, kFile, kEnvironment, kOverride };

// "default", "file", "environment", "override".
const char* VarSourceName(VarSource source);

struct VarSpec {
  std::string name;                   // full name
  pmix_mca_param_type_t type = PMIX_MCA_PARAM_STRING;
  const char* default_text = nullptr; // nullptr: NULL string, or 0/false
  std::string help;
  std::string synonym;                // deprecated full name, or empty
};

// A resolved variable (a self-contained copy).
struct Var {
  std::string name;
  pmix_mca_param_type_t type = PMIX_MCA_PARAM_STRING;
  std::optional<std::string> text;    // the value as given; nullopt = NULL string
  pmix_mca_param_value_t parsed{};    // parsed.value.string is always nullptr
  VarSource source = VarSource::kDefault;
  std::string origin;                 // file path or environment variable name
  std::string help;
  std::vector<std::string> synonyms;  // deprecated names

  // The typed value; for a string it points into `text` (valid while this
  // Var lives and is not modified).
  pmix_mca_param_value_t CValue() const;
  // "default", "file:<path>", "environment", "override".
  std::string SourceText() const;
};

// Registers (first call) or looks up (later calls with the same name) a
// variable and returns its resolved value. Errors: PMIX_ERR_BAD_PARAM when
// the name is empty, the default does not parse, or the name is already
// registered with another type (all reported on stderr).
Result<Var> RegisterVar(const VarSpec& spec);

// A registered variable, or nullopt.
std::optional<Var> FindVar(std::string_view name);

// Every registered variable, sorted by name (for pmix_info --param). The
// two file-location variables (mca_base_param_files,
// mca_base_override_param_file) are always listed.
std::vector<Var> ListVars();

// Tests only: forgets every variable, the cached parameter files and the
// deprecation warnings already given, so that the next registration
// re-reads the environment and the files.
void ResetVarsForTesting();

}  // namespace pmix::mca

#endif  // PMIXX_MCA_BASE_VAR_H
