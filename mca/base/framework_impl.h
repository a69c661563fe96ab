// FrameworkImpl: the one implementation of Framework (framework.h). Internal
// to mca/base; the rest of the library sees only Framework.
//
// Threads: Ensure() and Close() serialize on mu_. The selection is written
// once under mu_ and published by done_ (release/acquire): Selected() and
// BaseParam() read it without the lock after a successful Ensure(). Close()
// (tests only) breaks that immutability and must not race with users.
#ifndef PMIXX_MCA_BASE_FRAMEWORK_IMPL_H
#define PMIXX_MCA_BASE_FRAMEWORK_IMPL_H

#include <atomic>
#include <list>
#include <mutex>
#include <string>
#include <vector>

#include "mca/base/component_repository.h"
#include "mca/base/framework.h"
#include "mca/base/selection.h"
#include "mca/base/var.h"

namespace pmix::mca {

class FrameworkImpl final : public Framework {
 public:
  explicit FrameworkImpl(const FrameworkSpec& spec);

  Status Ensure() override;
  std::span<const SelectedModule> Selected() const override;
  const pmix_mca_param_value_t& BaseParam(std::string_view name) const override;
  int Verbosity() const override { return verbosity_.load(std::memory_order_relaxed); }

  const FrameworkSpec& spec() const { return spec_; }
  std::vector<ComponentRecord> Components() const;
  void Close();

 private:
  // A component opened by this framework, with the values handed to open()
  // (their strings point into `vars`; the list keeps both in place).
  struct Opened {
    size_t record;
    void* context = nullptr;
    std::vector<Var> vars;
    std::vector<pmix_mca_param_value_t> values;
  };

  Status OpenAndSelectLocked();
  Status RegisterBaseVarsLocked(SelectionList* list);
  Status ApplySelectionLocked(const SelectionList& list, const std::vector<std::string>& dirs);
  Status RegisterComponentVarsLocked(size_t record, Opened* opened, int* user_priority);
  void RegisterAllComponentVarsLocked();
  void OpenAndQueryLocked(size_t record, int rank);
  void SelectLocked(bool list_order);
  void CloseOneLocked(std::list<Opened>::iterator it);

  const FrameworkSpec& spec_;
  std::atomic<int> verbosity_{0};
  std::atomic<bool> done_{false};
  mutable std::mutex mu_;
  // Guarded by mu_ until done_ is set, then immutable (until Close()).
  Status status_;
  std::vector<Var> base_vars_;                     // parallel to spec_.base_params
  std::vector<pmix_mca_param_value_t> base_values_;
  std::vector<ComponentRecord> records_;
  std::list<Opened> opened_;
  struct Candidate {
    std::list<Opened>::iterator opened;
    const void* module;
    int priority;
    int rank;  // tie-break: include-list position, else discovery order
  };
  std::vector<Candidate> candidates_;
  std::vector<SelectedModule> selected_;
};

// The services struct handed to every component's open().
const pmix_mca_services_t* ComponentServices();

}  // namespace pmix::mca

#endif  // PMIXX_MCA_BASE_FRAMEWORK_IMPL_H
