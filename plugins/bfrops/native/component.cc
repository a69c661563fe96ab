// The native bfrops component: always available, priority 50.
#include "pmix/mca/mca.h"
#include "plugins/bfrops/native/native_module.h"

namespace {

// The codec has no parameters and no state: open and close do nothing.
pmix_status_t Open(const pmix_mca_services_t*, const pmix_mca_param_value_t*, void** context) {
  *context = nullptr;
  return PMIX_SUCCESS;
}

pmix_status_t Query(void*, const void** module, int* priority) {
  *module = &pmix::bfrops::native::kModule;
  *priority = 50;
  return PMIX_SUCCESS;
}

void Close(void*) {}

}  // namespace

extern "C" {
PMIX_MCA_COMPONENT_EXPORT pmix_mca_component_t pmix_mca_bfrops_native_component = {
    PMIX_MCA_BASE_VERSION_MAJOR,
    PMIX_MCA_BASE_VERSION_MINOR,
    "bfrops",
    PMIX_BFROPS_INTERFACE_MAJOR,
    PMIX_BFROPS_INTERFACE_MINOR,
    "native",
    1,
    0,
    0,
    50,
    nullptr,
    0,
    &Open,
    &Query,
    &Close,
};
}  // extern "C"
