// The hash gds component: descriptor (no parameters besides priority).
#include "pmix/mca/gds.h"
#include "pmix/mca/mca.h"
#include "plugins/common/constant_component.h"
#include "plugins/gds/hash/hash_module.h"

namespace {

using Component = pmix::plugins::ConstantComponent<&pmix::gds::hash::kModule, pmix::gds::hash::kPriority>;

}  // namespace

extern "C" {
PMIX_MCA_COMPONENT_EXPORT pmix_mca_component_t pmix_mca_gds_hash_component = {
    PMIX_MCA_BASE_VERSION_MAJOR, PMIX_MCA_BASE_VERSION_MINOR,
    "gds", PMIX_GDS_INTERFACE_MAJOR, PMIX_GDS_INTERFACE_MINOR,
    "hash", 1, 0, 0,
    pmix::gds::hash::kPriority, nullptr, 0,
    Component::Open, Component::Query, Component::Close,
};
}  // extern "C"
