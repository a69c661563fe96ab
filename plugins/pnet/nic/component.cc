// The nic pnet component: descriptor (no parameters besides priority).
#include "pmix/mca/mca.h"
#include "plugins/common/constant_component.h"
#include "pmix/mca/pnet.h"
#include "plugins/pnet/nic/nic_module.h"

namespace {

using Component = pmix::plugins::ConstantComponent<&pmix::pnet::nic::kModule, 20>;

}  // namespace

extern "C" {
PMIX_MCA_COMPONENT_EXPORT pmix_mca_component_t pmix_mca_pnet_nic_component = {
    PMIX_MCA_BASE_VERSION_MAJOR, PMIX_MCA_BASE_VERSION_MINOR,
    "pnet", PMIX_PNET_INTERFACE_MAJOR, PMIX_PNET_INTERFACE_MINOR,
    "nic", 1, 0, 0,
    20, nullptr, 0,
    Component::Open, Component::Query, Component::Close,
};
}  // extern "C"
