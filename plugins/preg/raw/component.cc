// The raw preg component: descriptor (no parameters besides priority).
#include "pmix/mca/mca.h"
#include "plugins/common/constant_component.h"
#include "pmix/mca/preg.h"
#include "plugins/preg/raw/raw_module.h"

namespace {

using Component = pmix::plugins::ConstantComponent<&pmix::preg::raw::kModule, 10>;

}  // namespace

extern "C" {
PMIX_MCA_COMPONENT_EXPORT pmix_mca_component_t pmix_mca_preg_raw_component = {
    PMIX_MCA_BASE_VERSION_MAJOR, PMIX_MCA_BASE_VERSION_MINOR,
    "preg", PMIX_PREG_INTERFACE_MAJOR, PMIX_PREG_INTERFACE_MINOR,
    "raw", 1, 0, 0,
    10, nullptr, 0,
    Component::Open, Component::Query, Component::Close,
};
}  // extern "C"
