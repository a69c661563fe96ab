// The process-wide table of frameworks, the known-framework list, the
// component search path and the services handed to components.
#include "mca/base/framework_registry.h"

#include <cstdarg>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>

#include "mca/base/framework_impl.h"
#include "mca/base/no_destructor.h"
#include "mca/base/var.h"
#include "mca/base/var_files.h"
#include "src/common/output.h"

namespace pmix::mca {
namespace {

// Frameworks are created on first use and never destroyed: their selected
// modules must stay valid until the process exits (framework.h).
struct Table {
  std::mutex mu;
  // Guarded by mu.
  std::map<std::string, std::unique_ptr<FrameworkImpl>, std::less<>> frameworks;
  std::map<std::string, const FrameworkSpec*, std::less<>> known;
};

Table& TheTable() {
  static NoDestructor<Table> table;
  return *table;
}

FrameworkImpl* FindLocked(Table& table, std::string_view name) {
  auto it = table.frameworks.find(name);
  return it == table.frameworks.end() ? nullptr : it->second.get();
}

FrameworkImpl* Find(std::string_view name) {
  Table& table = TheTable();
  std::lock_guard<std::mutex> lock(table.mu);
  return FindLocked(table, name);
}

void ServiceOutput(const char* framework, int level, const char* fmt, ...) {
  std::string stream = framework != nullptr ? framework : "mca";
  FrameworkImpl* impl = Find(stream);
  int verbosity = impl != nullptr ? impl->Verbosity() : 0;
  if (level > verbosity || fmt == nullptr) return;
  char text[2048];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  output::Verbose(stream, 0, "%s", text);
}

const pmix_mca_services_t kServices = {PMIX_MCA_BASE_VERSION_MAJOR, &ServiceOutput};

}  // namespace

const pmix_mca_services_t* ComponentServices() { return &kServices; }

Framework& GetFramework(const FrameworkSpec& spec) {
  Table& table = TheTable();
  std::lock_guard<std::mutex> lock(table.mu);
  if (FrameworkImpl* impl = FindLocked(table, spec.name)) return *impl;
  table.known.emplace(spec.name, &spec);
  auto impl = std::make_unique<FrameworkImpl>(spec);
  FrameworkImpl& ref = *impl;
  table.frameworks.emplace(spec.name, std::move(impl));
  return ref;
}

KnownFramework::KnownFramework(const FrameworkSpec& spec) {
  Table& table = TheTable();
  std::lock_guard<std::mutex> lock(table.mu);
  table.known.emplace(spec.name, &spec);
}

std::vector<const FrameworkSpec*> ListFrameworks() {
  Table& table = TheTable();
  std::lock_guard<std::mutex> lock(table.mu);
  std::vector<const FrameworkSpec*> out;
  for (const auto& [name, spec] : table.known) out.push_back(spec);
  return out;
}

std::vector<ComponentRecord> ListComponents(std::string_view framework) {
  FrameworkImpl* impl = Find(framework);
  return impl != nullptr ? impl->Components() : std::vector<ComponentRecord>{};
}

std::vector<std::string> ComponentSearchPath() {
  std::string fallback = std::string(PMIXX_COMPONENT_DIR) + ":~/.pmix/components";
  auto var = RegisterVar({"mca_base_component_path", PMIX_MCA_PARAM_STRING, fallback.c_str(),
                          "':'-separated directories searched for pmix_mca_<fw>_<comp>.so "
                          "(replaces the default)",
                          ""});
  std::string list = var.ok() && var->text ? *var->text : fallback;
  std::vector<std::string> dirs;
  for (const std::string& entry : SplitPath(list)) {
    std::string dir = ExpandHome(entry);
    if (!dir.empty()) dirs.push_back(std::move(dir));
  }
  return dirs;
}

Status CloseFramework(std::string_view framework) {
  FrameworkImpl* impl = Find(framework);
  if (impl == nullptr) return Status(PMIX_ERR_NOT_FOUND);
  impl->Close();
  return {};
}

void CloseAllFrameworks() {
  std::vector<FrameworkImpl*> all;
  {
    Table& table = TheTable();
    std::lock_guard<std::mutex> lock(table.mu);
    for (auto& [name, impl] : table.frameworks) all.push_back(impl.get());
  }
  for (FrameworkImpl* impl : all) impl->Close();
}

}  // namespace pmix::mca
