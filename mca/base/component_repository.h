// The component repository: finding a framework's components, checking
// their descriptors, and remembering what was found for pmix_info.
//
// dlopen builds: each directory of the search path is scanned for
// pmix_mca_<fw>_<comp>.so (directories in path order, files in name order);
// each file is opened with libltdl with local symbol scope (a component's
// symbols never enter the global namespace) and its descriptor
// pmix_mca_<fw>_<comp>_component is looked up and validated. The first file
// found for a component name wins; later ones are recorded as shadowed.
// A refused file is unloaded again; an accepted one stays mapped until the
// process exits (nothing ever unloads it, not even a static destructor).
// --disable-dlopen builds: the descriptors come from the generated table of
// built-in components (static_components.cc) and go through the same
// validation.
//
// Threads: libltdl is not thread-safe; every libltdl call here is made
// under one internal mutex, so these functions may be called from any
// thread.
#ifndef PMIXX_MCA_BASE_COMPONENT_REPOSITORY_H
#define PMIXX_MCA_BASE_COMPONENT_REPOSITORY_H

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mca/base/framework.h"
#include "pmix/mca/mca.h"

namespace pmix::mca {

enum class ComponentStatus {
  kLoaded,    // descriptor valid; see `note` for what happened at open/select
  kRefused,   // not loadable or invalid; see `reason`
  kShadowed,  // same component name as a file found earlier in the path
};

// "loaded", "refused", "shadowed".
const char* ComponentStatusName(ComponentStatus status);

// What pmix_info shows for one component file (or built-in descriptor).
struct ComponentRecord {
  std::string framework;
  std::string name;           // from the file name (descriptor for built-ins)
  std::string path;           // the file, or "(built-in)"
  // Versions from the descriptor; all 0 when it could not be read.
  uint32_t mca_major = 0, mca_minor = 0;
  uint32_t framework_major = 0, framework_minor = 0;
  uint32_t version_major = 0, version_minor = 0, version_release = 0;
  ComponentStatus status = ComponentStatus::kRefused;
  std::string reason;         // refused/shadowed: why (one line)
  std::string note;           // loaded: "excluded by PMIX_MCA_<fw>",
                              // "not available", "open failed: ...", or ""
  bool selected = false;
  int priority = 0;           // the effective priority once queried
  const pmix_mca_component_t* descriptor = nullptr;  // set when kLoaded
};

// Why `descriptor` (found as component `expected_name`) cannot serve
// `spec`, as one line ("mca_major is 9, expected 1"); "" when it is valid.
std::string ValidateDescriptor(const FrameworkSpec& spec, std::string_view expected_name,
                               const pmix_mca_component_t* descriptor);

// Scans `dirs` (dlopen builds) or the built-in table (static builds) for
// spec's components. Refusals are printed once each, on stderr; shadowed
// files when `verbosity` (the framework's <fw>_base_verbose) is >= 1, each
// accepted component at >= 10.
std::vector<ComponentRecord> FindComponents(const FrameworkSpec& spec,
                                            std::span<const std::string> dirs,
                                            int verbosity);

// The same validation applied to a given set of descriptors, recorded with
// path "(built-in)" (what static builds use; tests may call it directly).
std::vector<ComponentRecord> AdoptBuiltins(
    const FrameworkSpec& spec, std::span<const pmix_mca_component_t* const> table,
    int verbosity = 0);

// The built-in table of a --disable-dlopen build (empty otherwise).
std::span<const pmix_mca_component_t* const> BuiltinComponents();

}  // namespace pmix::mca

#endif  // PMIXX_MCA_BASE_COMPONENT_REPOSITORY_H
