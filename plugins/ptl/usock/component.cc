// The usock ptl component: descriptor (no parameters besides priority).
#include "plugins/ptl/usock/usock_module.h"
#include "pmix/mca/mca.h"
#include "pmix/mca/ptl.h"

namespace {

constexpr int kPriority = 80;

pmix_status_t Open(const pmix_mca_services_t* services, const pmix_mca_param_value_t*,
                   void** context) {
  pmix::ptl::usock::Configure(services);
  *context = nullptr;
  return PMIX_SUCCESS;
}

pmix_status_t Query(void*, const void** module, int* priority) {
  *module = &pmix::ptl::usock::kModule;
  *priority = kPriority;
  return PMIX_SUCCESS;
}

void Close(void*) { pmix::ptl::usock::Configure(nullptr); }

}  // namespace

extern "C" {
PMIX_MCA_COMPONENT_EXPORT pmix_mca_component_t pmix_mca_ptl_usock_component = {
    PMIX_MCA_BASE_VERSION_MAJOR,
    PMIX_MCA_BASE_VERSION_MINOR,
    "ptl",
    PMIX_PTL_INTERFACE_MAJOR,
    PMIX_PTL_INTERFACE_MINOR,
    "usock",
    1,
    0,
    0,
    kPriority,
    nullptr,
    0,
    Open,
    Query,
    Close,
};
}  // extern "C"
