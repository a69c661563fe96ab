// The none psec component: descriptor (no parameters besides priority).
// Priority 0 so that any component that checks something comes first.
#include "plugins/psec/none/none_module.h"
#include "pmix/mca/mca.h"
#include "plugins/common/constant_component.h"
#include "pmix/mca/psec.h"

namespace {

using Component = pmix::plugins::ConstantComponent<&pmix::psec::none::kModule, 0>;

}  // namespace

// clang-format off
extern "C" {
PMIX_MCA_COMPONENT_EXPORT pmix_mca_component_t pmix_mca_psec_none_component = {
    PMIX_MCA_BASE_VERSION_MAJOR, PMIX_MCA_BASE_VERSION_MINOR,
    "psec", PMIX_PSEC_INTERFACE_MAJOR, PMIX_PSEC_INTERFACE_MINOR,
    "none", 1, 0, 0,
    0, nullptr, 0,
    Component::Open, Component::Query, Component::Close,
};
}  // extern "C"
// clang-format on
