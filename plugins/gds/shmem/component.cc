// The shmem gds component: descriptor (no parameters besides priority).
// query() offers the module only where memfds can be sealed.
#include "pmix/mca/gds.h"
#include "pmix/mca/mca.h"
#include "plugins/gds/shmem/shmem_module.h"

namespace {

pmix_status_t Open(const pmix_mca_services_t* services, const pmix_mca_param_value_t*,
                   void** context) {
  pmix::gds::shmem::Configure(services);
  *context = nullptr;
  return PMIX_SUCCESS;
}

pmix_status_t Query(void*, const void** module, int* priority) {
  if (!pmix::gds::shmem::SealingWorks()) return PMIX_ERR_NOT_SUPPORTED;
  *module = &pmix::gds::shmem::kModule;
  *priority = pmix::gds::shmem::kPriority;
  return PMIX_SUCCESS;
}

void Close(void*) { pmix::gds::shmem::Configure(nullptr); }

}  // namespace

// clang-format off
extern "C" {
PMIX_MCA_COMPONENT_EXPORT pmix_mca_component_t pmix_mca_gds_shmem_component = {
    PMIX_MCA_BASE_VERSION_MAJOR, PMIX_MCA_BASE_VERSION_MINOR,
    "gds", PMIX_GDS_INTERFACE_MAJOR, PMIX_GDS_INTERFACE_MINOR,
    "shmem", 1, 0, 0,
    pmix::gds::shmem::kPriority, nullptr, 0,
    Open, Query, Close,
};
}  // extern "C"
// clang-format on
