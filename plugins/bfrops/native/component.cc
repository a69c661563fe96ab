// The native bfrops component: always available, priority 50.
#include "pmix/mca/mca.h"
#include "plugins/common/constant_component.h"
#include "plugins/bfrops/native/native_module.h"

namespace {

using Component = pmix::plugins::ConstantComponent<&pmix::bfrops::native::kModule, 50>;

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
    Component::Open, Component::Query, Component::Close,
};
}  // extern "C"
