// The usock ptl component: descriptor (no parameters besides priority).
#include "plugins/ptl/usock/usock_module.h"
#include "pmix/mca/mca.h"
#include "plugins/common/constant_component.h"
#include "pmix/mca/ptl.h"

namespace {

constexpr int kPriority = 80;

using Component = pmix::plugins::ConstantComponent<&pmix::ptl::usock::kModule, kPriority, &pmix::ptl::usock::Configure>;

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
    Component::Open, Component::Query, Component::Close,
};
}  // extern "C"
