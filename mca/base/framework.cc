// Framework lifecycle: register parameters, find components, apply the
// selection list, open, query, order by priority, keep the winners.
#include "config.h"

#include <algorithm>
#include <cstring>

#include "mca/base/framework_impl.h"
#include "mca/base/framework_registry.h"
#include "src/common/output.h"

namespace pmix::mca {
namespace {

Var RegisterOrDefault(const VarSpec& spec) {
  auto var = RegisterVar(spec);
  if (var.ok()) return std::move(var).value();
  Var fallback;  // reported by the registry; the framework still works
  fallback.name = spec.name;
  fallback.type = spec.type;
  fallback.parsed.type = spec.type;
  return fallback;
}

std::string JoinPath(const std::vector<std::string>& dirs) {
#ifdef PMIXX_ENABLE_DLOPEN
  std::string joined;
  for (const std::string& dir : dirs) joined += (joined.empty() ? "" : ":") + dir;
  return joined.empty() ? "(empty path)" : joined;
#else
  (void)dirs;  // a static build never looks at directories
  return "built-in components only (--disable-dlopen)";
#endif
}

}  // namespace

FrameworkImpl::FrameworkImpl(const FrameworkSpec& spec) : spec_(spec) {
  std::string fw = spec.name;
  Var verbose = RegisterOrDefault({fw + "_base_verbose", PMIX_MCA_PARAM_INT, "0",
                                   "Verbosity of the " + fw + " framework (0: errors only)", ""});
  verbosity_.store(static_cast<int>(verbose.parsed.value.integer));
}

Status FrameworkImpl::Ensure() {
  if (done_.load(std::memory_order_acquire)) return status_;
  std::lock_guard<std::mutex> lock(mu_);
  if (done_.load(std::memory_order_relaxed)) return status_;
  status_ = OpenAndSelectLocked();
  done_.store(true, std::memory_order_release);
  return status_;
}

std::span<const SelectedModule> FrameworkImpl::Selected() const {
  if (!done_.load(std::memory_order_acquire)) return {};
  return selected_;
}

const pmix_mca_param_value_t& FrameworkImpl::BaseParam(std::string_view name) const {
  static const pmix_mca_param_value_t kZero{};
  if (!done_.load(std::memory_order_acquire)) return kZero;
  for (size_t i = 0; i < spec_.base_params.size() && i < base_values_.size(); ++i) {
    if (name == spec_.base_params[i].name) return base_values_[i];
  }
  output::Error(spec_.name, "no base parameter %.*s", static_cast<int>(name.size()),
                name.data());
  return kZero;
}

std::vector<ComponentRecord> FrameworkImpl::Components() const {
  std::lock_guard<std::mutex> lock(mu_);
  return records_;
}

Status FrameworkImpl::RegisterBaseVarsLocked(SelectionList* list) {
  std::string fw = spec_.name;
  Var verbose = RegisterOrDefault({fw + "_base_verbose", PMIX_MCA_PARAM_INT, "0",
                                   "Verbosity of the " + fw + " framework (0: errors only)", ""});
  verbosity_.store(static_cast<int>(verbose.parsed.value.integer));
  base_vars_.clear();
  for (const pmix_mca_param_desc_t& desc : spec_.base_params) {
    auto var = RegisterVar({fw + "_base_" + desc.name, desc.type, desc.default_value,
                            desc.help ? desc.help : "",
                            desc.deprecated_synonym ? desc.deprecated_synonym : ""});
    PMIX_RETURN_IF_ERROR(var.status());
    base_vars_.push_back(std::move(var).value());
  }
  base_values_.clear();
  for (const Var& var : base_vars_) base_values_.push_back(var.CValue());
  Var selection = RegisterOrDefault(
      {fw, PMIX_MCA_PARAM_STRING, nullptr,
       "Comma-separated " + fw + " components to use (\"a,b\") or to exclude (\"^a,b\")", ""});
  auto parsed = ParseSelectionList(fw, selection.text ? selection.text->c_str() : nullptr);
  PMIX_RETURN_IF_ERROR(parsed.status());
  *list = std::move(parsed).value();
  return {};
}

Status FrameworkImpl::ApplySelectionLocked(const SelectionList& list,
                                           const std::vector<std::string>& dirs) {
  if (list.names.empty()) return {};
  const char* fw = spec_.name;
  auto find = [&](const std::string& name) -> ComponentRecord* {
    for (ComponentRecord& r : records_) {
      if (r.name == name && r.status != ComponentStatus::kShadowed) return &r;
    }
    return nullptr;
  };
  for (const std::string& name : list.names) {
    ComponentRecord* record = find(name);
    bool usable = record != nullptr && record->status == ComponentStatus::kLoaded;
    if (list.exclude) {
      if (record == nullptr) {
        output::Verbose(fw, 0, "warning: PMIX_MCA_%s excludes unknown component '%s'", fw,
                        name.c_str());
      } else if (usable) {
        record->note = std::string("excluded by PMIX_MCA_") + fw;
      }
    } else if (!usable) {
      output::Error(fw, "component '%s' requested by PMIX_MCA_%s was %s (searched: %s)",
                    name.c_str(), fw,
                    record == nullptr ? "not found" : ("refused: " + record->reason).c_str(),
                    JoinPath(dirs).c_str());
      return Status(PMIX_ERR_NOT_FOUND);
    }
  }
  if (!list.exclude) {
    for (ComponentRecord& r : records_) {
      bool listed = std::find(list.names.begin(), list.names.end(), r.name) != list.names.end();
      if (!listed && r.status == ComponentStatus::kLoaded) {
        r.note = std::string("not in PMIX_MCA_") + fw;
      }
    }
  }
  return {};
}

// Every valid component's parameters are registered, selected or not, so
// that pmix_info lists them; a component whose table cannot be registered
// is refused here.
void FrameworkImpl::RegisterAllComponentVarsLocked() {
  for (size_t i = 0; i < records_.size(); ++i) {
    ComponentRecord& r = records_[i];
    if (r.status != ComponentStatus::kLoaded) continue;
    Opened scratch;
    int ignored = 0;
    if (RegisterComponentVarsLocked(i, &scratch, &ignored).ok()) continue;
    r.status = ComponentStatus::kRefused;
    r.reason = "invalid parameter table";
    r.descriptor = nullptr;
    output::Error(spec_.name, "refusing component %s: %s", r.path.c_str(), r.reason.c_str());
  }
}

Status FrameworkImpl::OpenAndSelectLocked() {
  SelectionList list;
  PMIX_RETURN_IF_ERROR(RegisterBaseVarsLocked(&list));
  std::vector<std::string> dirs = ComponentSearchPath();
  records_ = FindComponents(spec_, dirs, Verbosity());
  RegisterAllComponentVarsLocked();
  PMIX_RETURN_IF_ERROR(ApplySelectionLocked(list, dirs));
  for (size_t i = 0; i < records_.size(); ++i) {
    const ComponentRecord& r = records_[i];
    if (r.status != ComponentStatus::kLoaded || !r.note.empty()) continue;
    auto pos = std::find(list.names.begin(), list.names.end(), r.name);
    int rank = list.exclude ? static_cast<int>(i) : static_cast<int>(pos - list.names.begin());
    OpenAndQueryLocked(i, rank);
  }
  SelectLocked(!list.exclude && !list.names.empty());
  if (selected_.empty()) {
    output::Error(spec_.name, "no %s component is available (searched: %s)", spec_.name,
                  JoinPath(dirs).c_str());
    return Status(PMIX_ERR_NOT_SUPPORTED);
  }
  return {};
}

}  // namespace pmix::mca
