// The none psec component: descriptor (no parameters besides priority).
// Priority 0 so that any component that checks something comes first.
#include "plugins/psec/none/none_module.h"
#include "pmix/mca/mca.h"
#include "pmix/mca/psec.h"

namespace {

pmix_status_t Open(const pmix_mca_services_t*, const pmix_mca_param_value_t*, void** context) {
  *context = nullptr;
  return PMIX_SUCCESS;
}

pmix_status_t Query(void*, const void** module, int* priority) {
  *module = &pmix::psec::none::kModule;
  *priority = 0;
  return PMIX_SUCCESS;
}

void Close(void*) {}

}  // namespace

// clang-format off
extern "C" {
PMIX_MCA_COMPONENT_EXPORT pmix_mca_component_t pmix_mca_psec_none_component = {
    PMIX_MCA_BASE_VERSION_MAJOR, PMIX_MCA_BASE_VERSION_MINOR,
    "psec", PMIX_PSEC_INTERFACE_MAJOR, PMIX_PSEC_INTERFACE_MINOR,
    "none", 1, 0, 0,
    0, nullptr, 0,
    Open, Query, Close,
};
}  // extern "C"
// clang-format on
