// The native psec component: descriptor (no parameters besides priority).
//
// Priority 100, the highest: on a Unix socket the kernel's record of the
// peer cannot be forged by the peer and costs one getsockopt, while munge
// needs a daemon round trip per credential. Over tcp it judges loopback
// peers only (from the kernel's socket table); a remote peer needs another
// module (munge).
#include "plugins/psec/native/native_module.h"
#include "pmix/mca/mca.h"
#include "plugins/common/constant_component.h"
#include "pmix/mca/psec.h"

namespace {

using Component = pmix::plugins::ConstantComponent<&pmix::psec::native::kModule, 100, &pmix::psec::native::Configure>;

}  // namespace

// clang-format off
extern "C" {
PMIX_MCA_COMPONENT_EXPORT pmix_mca_component_t pmix_mca_psec_native_component = {
    PMIX_MCA_BASE_VERSION_MAJOR, PMIX_MCA_BASE_VERSION_MINOR,
    "psec", PMIX_PSEC_INTERFACE_MAJOR, PMIX_PSEC_INTERFACE_MINOR,
    "native", 1, 0, 0,
    100, nullptr, 0,
    Component::Open, Component::Query, Component::Close,
};
}  // extern "C"
// clang-format on
