// open/query/close for a component whose module is a constant object and
// that keeps no state of its own (most components): query offers `Module`
// at `Priority`. `Configure`, when given, receives the services at open()
// and nullptr at close(), for components that log through them.
//
// Header-only and internal to this tree (each plugin compiles its own
// copy, so a DSO carries no dependency on libpmix for it).
#ifndef PMIXX_PLUGINS_COMMON_CONSTANT_COMPONENT_H
#define PMIXX_PLUGINS_COMMON_CONSTANT_COMPONENT_H

#include "pmix/mca/mca.h"

namespace pmix::plugins {

// The Configure of components that need none. (A function, not nullptr
// tested with `if constexpr`: GCC with -fsanitize=undefined does not treat
// comparing a function address with nullptr as a constant expression.)
inline void NoConfigure(const pmix_mca_services_t*) {}

template <const auto* Module, int Priority,
          void (*Configure)(const pmix_mca_services_t*) = &NoConfigure>
struct ConstantComponent {
  static pmix_status_t Open(const pmix_mca_services_t* services, const pmix_mca_param_value_t*,
                            void** context) {
    Configure(services);
    *context = nullptr;
    return PMIX_SUCCESS;
  }
  static pmix_status_t Query(void*, const void** module, int* priority) {
    *module = Module;
    *priority = Priority;
    return PMIX_SUCCESS;
  }
  static void Close(void*) {
    Configure(nullptr);
  }
};

}  // namespace pmix::plugins

#endif  // PMIXX_PLUGINS_COMMON_CONSTANT_COMPONENT_H
