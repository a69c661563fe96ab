#include "mca/base/var.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <set>

#include "mca/base/no_destructor.h"
#include "mca/base/var_files.h"
#include "mca/base/var_parse.h"
#include "src/common/output.h"

namespace pmix::mca {
namespace {

// A value offered by one source under one name.
struct Candidate {
  std::string text;
  VarSource source;
  std::string origin;   // path or environment variable name
  std::string via_name; // the name it was found under
};

struct Files {
  std::optional<ParamFile> override_file;
  std::vector<ParamFile> param_files;  // precedence order
};

class Registry {
 public:
  Result<Var> Register(const VarSpec& spec);
  std::optional<Var> Find(std::string_view name);
  std::vector<Var> List();
  void Reset();

 private:
  void LoadFilesLocked();
  std::vector<Candidate> CandidatesLocked(const std::vector<std::string>& names);
  bool ResolveLocked(const VarSpec& spec, Var* var);
  void WarnDeprecatedLocked(const Candidate& hit, const VarSpec& spec);

  std::mutex mu_;
  // Everything below is guarded by mu_.
  std::map<std::string, Var, std::less<>> vars_;
  std::set<std::string> warned_;
  std::optional<Files> files_;
};

Registry& TheRegistry() {
  static NoDestructor<Registry> registry;
  return *registry;
}

// Adds a variable whose value only the environment can set (the file
// locations themselves).
Var EnvOnlyVar(const char* env_name, std::string default_text, const char* help) {
  Var var;
  var.name = std::string(env_name).substr(sizeof("PMIX_MCA_") - 1);
  var.type = PMIX_MCA_PARAM_STRING;
  var.help = help;
  const char* value = std::getenv(env_name);
  var.text = value != nullptr ? std::string(value) : std::move(default_text);
  if (value != nullptr) {
    var.source = VarSource::kEnvironment;
    var.origin = env_name;
  }
  return var;
}

void Registry::LoadFilesLocked() {
  if (files_) return;
  Var list = EnvOnlyVar(kParamFilesEnv, DefaultParamFiles(),
                        "':'-separated MCA parameter files, earlier ones win "
                        "(environment only)");
  Var over = EnvOnlyVar(kOverrideFileEnv, DefaultOverrideFile(),
                        "MCA parameter file that beats every other source "
                        "(environment only)");
  Files files;
  if (!over.text->empty()) files.override_file = ReadParamFile(ExpandHome(*over.text));
  for (const std::string& path : SplitPath(*list.text)) {
    std::string expanded = ExpandHome(path);
    if (!expanded.empty()) files.param_files.push_back(ReadParamFile(expanded));
  }
  vars_[list.name] = std::move(list);
  vars_[over.name] = std::move(over);
  files_ = std::move(files);
}

std::vector<Candidate> Registry::CandidatesLocked(const std::vector<std::string>& names) {
  std::vector<Candidate> out;
  auto from_file = [&](const ParamFile& file, VarSource source) {
    for (const std::string& name : names) {
      if (auto text = file.Find(name)) out.push_back({*text, source, file.path, name});
    }
  };
  if (files_->override_file) from_file(*files_->override_file, VarSource::kOverride);
  for (const std::string& name : names) {
    for (const char* prefix : {"PMIX_MCA_", "PMIX_MCA_pmix_"}) {
      std::string env_name = prefix + name;
      if (const char* text = std::getenv(env_name.c_str())) {
        out.push_back({text, VarSource::kEnvironment, env_name, name});
      }
    }
  }
  for (const ParamFile& file : files_->param_files) from_file(file, VarSource::kFile);
  return out;
}

void Registry::WarnDeprecatedLocked(const Candidate& hit, const VarSpec& spec) {
  if (hit.via_name == spec.name || !warned_.insert(hit.via_name).second) return;
  output::Verbose("mca", 0,
                  "warning: MCA variable %s (set in %s) is deprecated; use %s",
                  hit.via_name.c_str(), hit.origin.c_str(), spec.name.c_str());
}

// Fills var's value from the first valid source; false if even the
// default does not parse.
bool Registry::ResolveLocked(const VarSpec& spec, Var* var) {
  std::vector<std::string> names{spec.name};
  if (!spec.synonym.empty()) names.push_back(spec.synonym);
  for (const Candidate& hit : CandidatesLocked(names)) {
    WarnDeprecatedLocked(hit, spec);
    std::string error = ParseVarText(spec.type, hit.text, &var->parsed);
    if (error.empty()) {
      var->text = hit.text;
      var->source = hit.source;
      var->origin = hit.origin;
      return true;
    }
    output::Error("mca", "ignoring value '%s' of MCA variable %s from %s %s: %s (%s)",
                  hit.text.c_str(), spec.name.c_str(), VarSourceName(hit.source),
                  hit.origin.c_str(), error.c_str(), VarTypeName(spec.type));
  }
  var->source = VarSource::kDefault;
  var->origin.clear();
  if (spec.default_text == nullptr) {
    var->parsed = pmix_mca_param_value_t{};
    var->parsed.type = spec.type;
    if (spec.type != PMIX_MCA_PARAM_STRING) var->text = "0";
    return true;
  }
  var->text = spec.default_text;
  std::string error = ParseVarText(spec.type, spec.default_text, &var->parsed);
  if (error.empty()) return true;
  output::Error("mca", "default value '%s' of MCA variable %s is invalid: %s (%s)",
                spec.default_text, spec.name.c_str(), error.c_str(),
                VarTypeName(spec.type));
  return false;
}

Result<Var> Registry::Register(const VarSpec& spec) {
  if (spec.name.empty()) return Status(PMIX_ERR_BAD_PARAM);
  std::lock_guard<std::mutex> lock(mu_);
  LoadFilesLocked();
  if (auto it = vars_.find(spec.name); it != vars_.end()) {
    if (it->second.type == spec.type) return it->second;
    output::Error("mca", "MCA variable %s registered as %s and again as %s",
                  spec.name.c_str(), VarTypeName(it->second.type),
                  VarTypeName(spec.type));
    return Status(PMIX_ERR_BAD_PARAM);
  }
  Var var;
  var.name = spec.name;
  var.type = spec.type;
  var.help = spec.help;
  if (!spec.synonym.empty()) var.synonyms.push_back(spec.synonym);
  if (!ResolveLocked(spec, &var)) return Status(PMIX_ERR_BAD_PARAM);
  vars_[spec.name] = var;
  return var;
}

std::optional<Var> Registry::Find(std::string_view name) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = vars_.find(name);
  if (it == vars_.end()) return std::nullopt;
  return it->second;
}

std::vector<Var> Registry::List() {
  std::lock_guard<std::mutex> lock(mu_);
  LoadFilesLocked();
  std::vector<Var> out;
  out.reserve(vars_.size());
  for (const auto& [name, var] : vars_) out.push_back(var);
  return out;
}

void Registry::Reset() {
  std::lock_guard<std::mutex> lock(mu_);
  vars_.clear();
  warned_.clear();
  files_.reset();
}

}  // namespace

const char* VarSourceName(VarSource source) {
  switch (source) {
    case VarSource::kDefault: return "default";
    case VarSource::kFile: return "file";
    case VarSource::kEnvironment: return "environment";
    case VarSource::kOverride: return "override";
  }
  return "unknown";
}

pmix_mca_param_value_t Var::CValue() const {
  pmix_mca_param_value_t value = parsed;
  value.type = type;
  if (type == PMIX_MCA_PARAM_STRING) value.value.string = text ? text->c_str() : nullptr;
  return value;
}

std::string Var::SourceText() const {
  if (source == VarSource::kFile) return "file:" + origin;
  return VarSourceName(source);
}

Result<Var> RegisterVar(const VarSpec& spec) { return TheRegistry().Register(spec); }
std::optional<Var> FindVar(std::string_view name) { return TheRegistry().Find(name); }
std::vector<Var> ListVars() { return TheRegistry().List(); }
void ResetVarsForTesting() { TheRegistry().Reset(); }

}  // namespace pmix::mca
