// Opening, querying, selecting and closing the components of one framework.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <iterator>

#include "mca/base/framework_impl.h"
#include "pmix.h"
#include "src/common/output.h"

namespace pmix::mca {
namespace {

// snprintf rather than std::to_string, whose libstdc++ template
// instantiations have default visibility and would leak into the ABI.
std::string IntText(int value) {
  char text[16];
  std::snprintf(text, sizeof text, "%d", value);
  return text;
}

std::string StatusText(pmix_status_t status) {
  const char* text = PMIx_Error_string(status);
  return text != nullptr ? text : IntText(status);
}

}  // namespace

// Registers <fw>_<comp>_priority and the component's table; *user_priority
// is the priority variable's value when a source other than the default
// set it, else INT_MIN.
Status FrameworkImpl::RegisterComponentVarsLocked(size_t record, Opened* opened,
                                                  int* user_priority) {
  const pmix_mca_component_t& d = *records_[record].descriptor;
  std::string prefix = std::string(spec_.name) + "_" + d.name + "_";
  auto priority = RegisterVar({prefix + "priority", PMIX_MCA_PARAM_INT,
                               IntText(d.default_priority).c_str(),
                               "Selection priority of this component (higher wins)", ""});
  PMIX_RETURN_IF_ERROR(priority.status());
  *user_priority = priority->source == VarSource::kDefault
                       ? INT_MIN
                       : static_cast<int>(priority->parsed.value.integer);
  for (size_t i = 0; i < d.nparams; ++i) {
    const pmix_mca_param_desc_t& desc = d.params[i];
    if (desc.name == nullptr) return Status(PMIX_ERR_BAD_PARAM);
    auto var = RegisterVar({prefix + desc.name, desc.type, desc.default_value,
                            desc.help ? desc.help : "",
                            desc.deprecated_synonym ? desc.deprecated_synonym : ""});
    PMIX_RETURN_IF_ERROR(var.status());
    opened->vars.push_back(std::move(var).value());
  }
  // Built only now: the strings point into `vars`, which no longer grows.
  for (const Var& var : opened->vars) opened->values.push_back(var.CValue());
  return {};
}

void FrameworkImpl::OpenAndQueryLocked(size_t record, int rank) {
  ComponentRecord& r = records_[record];
  const pmix_mca_component_t& d = *r.descriptor;
  auto it = opened_.emplace(opened_.end());
  it->record = record;
  int user_priority = INT_MIN;
  if (!RegisterComponentVarsLocked(record, &*it, &user_priority).ok()) {
    r.note = "invalid parameter table";
    opened_.erase(it);
    return;
  }
  pmix_status_t rc = d.open(ComponentServices(), it->values.data(), &it->context);
  if (rc != PMIX_SUCCESS) {
    r.note = "open failed: " + StatusText(rc);
    if (Verbosity() >= 1) output::Verbose(spec_.name, 0, "component %s: %s", r.name.c_str(), r.note.c_str());
    opened_.erase(it);
    return;
  }
  const void* module = nullptr;
  int priority = d.default_priority;
  rc = d.query(it->context, &module, &priority);
  if (rc != PMIX_SUCCESS || module == nullptr) {
    r.note = rc == PMIX_ERR_NOT_SUPPORTED ? "not available"
                                          : "query failed: " + StatusText(rc);
    if (Verbosity() >= 10) output::Verbose(spec_.name, 0, "component %s: %s", r.name.c_str(), r.note.c_str());
    CloseOneLocked(it);
    return;
  }
  if (user_priority != INT_MIN) priority = user_priority;
  r.priority = priority;
  candidates_.push_back({it, module, priority, rank});
}

void FrameworkImpl::SelectLocked(bool list_order) {
  // An include list ("a,b") is the user's order; otherwise priority decides
  // and discovery order breaks ties.
  std::stable_sort(candidates_.begin(), candidates_.end(),
                   [list_order](const Candidate& a, const Candidate& b) {
                     if (!list_order && a.priority != b.priority) return a.priority > b.priority;
                     return a.rank < b.rank;
                   });
  size_t keep = spec_.multi_select ? candidates_.size()
                                   : std::min<size_t>(1, candidates_.size());
  for (size_t i = keep; i < candidates_.size(); ++i) {
    records_[candidates_[i].opened->record].note = "not selected (single-select)";
    CloseOneLocked(candidates_[i].opened);
  }
  candidates_.resize(keep);
  selected_.clear();
  for (const Candidate& c : candidates_) {
    ComponentRecord& r = records_[c.opened->record];
    r.selected = true;
    selected_.push_back({r.descriptor, c.module, c.priority});
    if (Verbosity() >= 10) {
      output::Verbose(spec_.name, 0, "selected component %s (priority %d)", r.name.c_str(),
                      c.priority);
    }
  }
}

void FrameworkImpl::CloseOneLocked(std::list<Opened>::iterator it) {
  records_[it->record].descriptor->close(it->context);
  opened_.erase(it);
}

void FrameworkImpl::Close() {
  std::lock_guard<std::mutex> lock(mu_);
  while (!opened_.empty()) CloseOneLocked(opened_.begin());
  candidates_.clear();
  selected_.clear();
  records_.clear();
  base_vars_.clear();
  base_values_.clear();
  status_ = Status();
  done_.store(false, std::memory_order_release);
}

}  // namespace pmix::mca
