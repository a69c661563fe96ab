// pmix_info's component and parameter sections, read from the engine.
#include <algorithm>
#include <string>
#include <vector>

#include "mca/base/framework_registry.h"
#include "mca/base/var.h"
#include "mca/base/var_parse.h"
#include "src/tools/pmix_info/sections.h"

namespace pmix::info {
namespace {

std::string Version(uint32_t major, uint32_t minor, uint32_t release) {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(release);
}

void PrintComponent(const Printer& out, const mca::ComponentRecord& c) {
  const std::string mca = Version(c.mca_major, c.mca_minor, 0);
  const std::string api = Version(c.framework_major, c.framework_minor, 0);
  const std::string own = Version(c.version_major, c.version_minor, c.version_release);
  if (out.parsable()) {
    const std::string head = "mca:" + c.framework + ":" + c.name + ":";
    out.Raw(head + "version:\"mca:" + mca + "\"");
    out.Raw(head + "version:\"api:" + api + "\"");
    out.Raw(head + "version:\"component:" + own + "\"");
    out.Raw(head + "path:" + c.path);
    out.Raw(head + "selected:" + (c.selected ? "yes" : "no"));
    return;
  }
  out.Text("MCA " + c.framework,
           c.name + " (MCA v" + mca + ", API v" + api + ", Component v" + own + ")");
}

void PrintFailed(const Printer& out, const mca::ComponentRecord& c) {
  const std::string status = mca::ComponentStatusName(c.status);
  if (out.parsable()) {
    out.Raw("mca:" + c.framework + ":" + c.name + ":" + status + ":" + c.path + ": " + c.reason);
    return;
  }
  out.Text("MCA " + c.framework, c.name + " " + status + " (" + c.path + "): " + c.reason);
}

// (framework, component) a variable belongs to, from its name: "<fw>" and
// "<fw>_base_*" are the framework's own, "<fw>_<comp>_*" a component's,
// anything else (mca_base_component_path ...) the engine's "mca base".
std::pair<std::string, std::string> Owner(const std::string& name) {
  for (const mca::FrameworkSpec* spec : mca::ListFrameworks()) {
    const std::string fw = spec->name;
    if (name == fw || name.rfind(fw + "_base_", 0) == 0) return {fw, "base"};
    if (name.rfind(fw + "_", 0) != 0) continue;
    for (const mca::ComponentRecord& c : mca::ListComponents(fw)) {
      if (name.rfind(fw + "_" + c.name + "_", 0) == 0) return {fw, c.name};
    }
  }
  return {"mca", "base"};
}

void PrintVar(const Printer& out, const mca::Var& var, const std::string& fw,
              const std::string& comp) {
  const std::string value = var.text.value_or("");
  const char* type = mca::VarTypeName(var.type);
  if (out.parsable()) {
    const std::string head = "mca:" + fw + ":" + comp + ":param:" + var.name + ":";
    out.Raw(head + "value:" + value);
    out.Raw(head + "source:" + var.SourceText());
    out.Raw(head + "type:" + type);
    out.Raw(head + "help:" + var.help);
    for (const std::string& synonym : var.synonyms) out.Raw(head + "synonym:name:" + synonym);
    return;
  }
  const std::string label = "MCA " + fw + " " + comp;
  out.Text(label, "---------------------------------------------------");
  out.Text(label, "\"" + var.name + "\" (current value: \"" + value +
                      "\", data source: " + var.SourceText() + ", type: " + type + ")");
  out.Text("", var.help);
  for (const std::string& synonym : var.synonyms) out.Text("", "Deprecated synonym: " + synonym);
}

}  // namespace

void EnsureAllFrameworks() {
  for (const mca::FrameworkSpec* spec : mca::ListFrameworks()) {
    // A framework that fails to select (e.g. a bad PMIX_MCA_<fw> list) has
    // printed why; its components are still listed.
    (void)mca::GetFramework(*spec).Ensure();
  }
}

void PrintComponents(const Printer& out, bool show_failed) {
  for (const mca::FrameworkSpec* spec : mca::ListFrameworks()) {
    for (const mca::ComponentRecord& c : mca::ListComponents(spec->name)) {
      if (c.status == mca::ComponentStatus::kLoaded) {
        PrintComponent(out, c);
      } else if (show_failed) {
        PrintFailed(out, c);
      }
    }
  }
}

bool PrintParams(const Printer& out, const std::string& framework, const std::string& component) {
  const auto frameworks = mca::ListFrameworks();
  const bool known = framework == "all" || framework == "mca" ||
                     std::any_of(frameworks.begin(), frameworks.end(),
                                 [&](const mca::FrameworkSpec* s) { return framework == s->name; });
  if (!known) return false;
  for (const mca::Var& var : mca::ListVars()) {
    auto [fw, comp] = Owner(var.name);
    if (framework != "all" && framework != fw) continue;
    if (component != "all" && component != comp) continue;
    PrintVar(out, var, fw, comp);
  }
  return true;
}

}  // namespace pmix::info
