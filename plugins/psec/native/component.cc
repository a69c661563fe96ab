// The native psec component: descriptor (no parameters besides priority).
//
// Priority 100, the highest: on a Unix socket the kernel's record of the
// peer cannot be forged by the peer and costs one getsockopt, while munge
// needs a daemon round trip per credential. It cannot judge a tcp peer;
// the handshake then names another module (munge) for that connection.
#include "plugins/psec/native/native_module.h"
#include "pmix/mca/mca.h"
#include "pmix/mca/psec.h"

namespace {

pmix_status_t Open(const pmix_mca_services_t* services, const pmix_mca_param_value_t*,
                   void** context) {
  pmix::psec::native::Configure(services);
  *context = nullptr;
  return PMIX_SUCCESS;
}

pmix_status_t Query(void*, const void** module, int* priority) {
  *module = &pmix::psec::native::kModule;
  *priority = 100;
  return PMIX_SUCCESS;
}

void Close(void*) { pmix::psec::native::Configure(nullptr); }

}  // namespace

// clang-format off
extern "C" {
PMIX_MCA_COMPONENT_EXPORT pmix_mca_component_t pmix_mca_psec_native_component = {
    PMIX_MCA_BASE_VERSION_MAJOR, PMIX_MCA_BASE_VERSION_MINOR,
    "psec", PMIX_PSEC_INTERFACE_MAJOR, PMIX_PSEC_INTERFACE_MINOR,
    "native", 1, 0, 0,
    100, nullptr, 0,
    Open, Query, Close,
};
}  // extern "C"
// clang-format on
