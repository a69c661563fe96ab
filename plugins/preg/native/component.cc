// The native preg component: descriptor and parameters.
#include "pmix/mca/mca.h"
#include "pmix/mca/preg.h"
#include "plugins/preg/native/native_module.h"

namespace {

const pmix_mca_param_desc_t kParams[] = {
    {"max_entries", PMIX_MCA_PARAM_SIZE, "16777216",
     "Most names, or ranks over all nodes, one regex may expand to when parsed; 16 Mi is above "
     "any machine's node or process count and bounds the memory a hostile regex can claim",
     nullptr},
};

pmix_status_t Open(const pmix_mca_services_t*, const pmix_mca_param_value_t* values,
                   void** context) {
  pmix::preg::native::Configure(values[0].value.size);
  *context = nullptr;
  return PMIX_SUCCESS;
}

pmix_status_t Query(void*, const void** module, int* priority) {
  *module = &pmix::preg::native::kModule;
  *priority = 50;
  return PMIX_SUCCESS;
}

void Close(void*) {}

}  // namespace

extern "C" {
PMIX_MCA_COMPONENT_EXPORT pmix_mca_component_t pmix_mca_preg_native_component = {
    PMIX_MCA_BASE_VERSION_MAJOR, PMIX_MCA_BASE_VERSION_MINOR,
    "preg", PMIX_PREG_INTERFACE_MAJOR, PMIX_PREG_INTERFACE_MINOR,
    "native", 1, 0, 0,
    50, kParams, sizeof kParams / sizeof kParams[0],
    Open, Query, Close,
};
}  // extern "C"
