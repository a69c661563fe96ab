// The raw preg component: descriptor (no parameters besides priority).
#include "pmix/mca/mca.h"
#include "pmix/mca/preg.h"
#include "plugins/preg/raw/raw_module.h"

namespace {

pmix_status_t Open(const pmix_mca_services_t*, const pmix_mca_param_value_t*, void** context) {
  *context = nullptr;
  return PMIX_SUCCESS;
}

pmix_status_t Query(void*, const void** module, int* priority) {
  *module = &pmix::preg::raw::kModule;
  *priority = 10;
  return PMIX_SUCCESS;
}

void Close(void*) {}

}  // namespace

extern "C" {
PMIX_MCA_COMPONENT_EXPORT pmix_mca_component_t pmix_mca_preg_raw_component = {
    PMIX_MCA_BASE_VERSION_MAJOR, PMIX_MCA_BASE_VERSION_MINOR,
    "preg", PMIX_PREG_INTERFACE_MAJOR, PMIX_PREG_INTERFACE_MINOR,
    "raw", 1, 0, 0,
    10, nullptr, 0,
    Open, Query, Close,
};
}  // extern "C"
