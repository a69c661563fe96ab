// Introspection and lifecycle of the MCA frameworks beyond framework.h:
// what pmix_info lists, and the explicit close used by tests.
//
// Known frameworks: each framework's base code declares its spec once at
// namespace scope,
//     const pmix::mca::KnownFramework kKnown(kSpec);
// so that pmix_info lists the framework before anything used it. (A program
// that links the core as a static archive must keep those objects, e.g.
// with --whole-archive; libpmix.so always does.) GetFramework() adds the
// specs it sees as well.
//
// Threads: all functions may be called from any thread.
#ifndef PMIXX_MCA_BASE_FRAMEWORK_REGISTRY_H
#define PMIXX_MCA_BASE_FRAMEWORK_REGISTRY_H

#include <string>
#include <string_view>
#include <vector>

#include "mca/base/component_repository.h"
#include "mca/base/framework.h"

namespace pmix::mca {

// Registers `spec` as known (the spec must be a static).
struct KnownFramework {
  explicit KnownFramework(const FrameworkSpec& spec);
};

// Every framework known so far, sorted by name (one entry per name).
std::vector<const FrameworkSpec*> ListFrameworks();

// The components found for `framework` by its last Ensure() (empty if it
// was not ensured or not known), in discovery order, with status, reason,
// versions, selected flag and priority.
std::vector<ComponentRecord> ListComponents(std::string_view framework);

// The directories the dlopen repository searches: mca_base_component_path
// (default PMIXX_COMPONENT_DIR:~/.pmix/components) split on ':' with "~/"
// expanded. Registers the variable on first use.
std::vector<std::string> ComponentSearchPath();

// Calls close() on every component the framework holds open, forgets its
// selection and components and lets the next Ensure() start over. Tests
// only: modules returned earlier must no longer be used (they stay mapped).
// PMIX_ERR_NOT_FOUND if no such framework was created.
Status CloseFramework(std::string_view framework);
void CloseAllFrameworks();

}  // namespace pmix::mca

#endif  // PMIXX_MCA_BASE_FRAMEWORK_REGISTRY_H
