// The hash gds component: descriptor (no parameters besides priority).
#include "pmix/mca/gds.h"
#include "pmix/mca/mca.h"
#include "plugins/gds/hash/hash_module.h"

namespace {

pmix_status_t Open(const pmix_mca_services_t*, const pmix_mca_param_value_t*, void** context) {
  *context = nullptr;
  return PMIX_SUCCESS;
}

pmix_status_t Query(void*, const void** module, int* priority) {
  *module = &pmix::gds::hash::kModule;
  *priority = pmix::gds::hash::kPriority;
  return PMIX_SUCCESS;
}

void Close(void*) {}

}  // namespace

extern "C" {
PMIX_MCA_COMPONENT_EXPORT pmix_mca_component_t pmix_mca_gds_hash_component = {
    PMIX_MCA_BASE_VERSION_MAJOR, PMIX_MCA_BASE_VERSION_MINOR,
    "gds", PMIX_GDS_INTERFACE_MAJOR, PMIX_GDS_INTERFACE_MINOR,
    "hash", 1, 0, 0,
    pmix::gds::hash::kPriority, nullptr, 0,
    Open, Query, Close,
};
}  // extern "C"
