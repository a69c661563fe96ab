// The MCA engine as the rest of the library sees it: frameworks, their
// selected modules, and their parameters.
//
// A framework is described statically by its base code (mca/<fw>/base/)
// with a FrameworkSpec, and obtained with GetFramework(spec). The first call
// to Ensure() -- from any thread, any number of times, before or without
// PMIx_Init -- registers the framework's base parameters
// (<fw>_base_verbose is always added) and its components' parameters
// (<fw>_<comp>_priority is always added, defaulting to the descriptor's
// default_priority), finds the components (dlopen'd from $libdir/pmix and
// the mca_base_component_path directories, or built in with
// --disable-dlopen), checks their versions, applies the PMIX_MCA_<fw>
// include ("a,b") or exclude ("^a,b") list, opens them, queries them and
// orders the available ones: in the include list's order when there is one
// (DESIGN §4), else by priority (highest first; a priority set by the user
// through <fw>_<comp>_priority wins over the one query returns).
// A single-select framework keeps only the first. The outcome, success or
// the error, is kept: later calls return it without redoing the work.
// Selected modules are immutable and valid until process exit.
//
// Errors (returned by Ensure, and printed once through the output
// facility): a requested component that is missing names it and the path
// searched; a malformed selection list ("a,^b") is PMIX_ERR_BAD_PARAM; no
// available component at all is PMIX_ERR_NOT_SUPPORTED.
#ifndef PMIXX_MCA_BASE_FRAMEWORK_H
#define PMIXX_MCA_BASE_FRAMEWORK_H

#include <cstdint>
#include <span>
#include <string_view>

#include "pmix/mca/mca.h"
#include "src/common/status.h"

namespace pmix::mca {

struct FrameworkSpec {
  const char* name;                 // "preg"
  uint32_t interface_major;         // PMIX_PREG_INTERFACE_MAJOR
  uint32_t interface_minor;
  bool multi_select;
  const char* description;          // one line, shown by pmix_info
  // Framework-level parameters; full names are <fw>_base_<name>.
  std::span<const pmix_mca_param_desc_t> base_params;
};

struct SelectedModule {
  const pmix_mca_component_t* component;
  const void* module;               // the framework's module struct
  int priority;
};

class Framework {
 public:
  virtual ~Framework() = default;
  // Opens and selects once; thread-safe; see the file comment.
  virtual Status Ensure() = 0;
  // The selected modules, highest priority first (empty before Ensure()
  // succeeded). For a single-select framework, at most one.
  virtual std::span<const SelectedModule> Selected() const = 0;
  // A base parameter's resolved value (name without the <fw>_base_ prefix).
  // Precondition: Ensure() succeeded and the name is in spec.base_params.
  virtual const pmix_mca_param_value_t& BaseParam(std::string_view name) const = 0;
  // The framework's verbosity (<fw>_base_verbose).
  virtual int Verbosity() const = 0;

  // The first selected module as the framework's module type, or nullptr.
  template <class Module>
  const Module* First() const {
    auto selected = Selected();
    return selected.empty() ? nullptr : static_cast<const Module*>(selected.front().module);
  }
};

// The process-wide instance for spec (keyed by spec.name); created on the
// first call. The spec must outlive the process (a static).
Framework& GetFramework(const FrameworkSpec& spec);

}  // namespace pmix::mca

#endif  // PMIXX_MCA_BASE_FRAMEWORK_H
