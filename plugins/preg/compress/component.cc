// The compress preg component: descriptor (no parameters besides priority).
#include "pmix/mca/mca.h"
#include "plugins/common/constant_component.h"
#include "pmix/mca/preg.h"
#include "plugins/preg/compress/compress_module.h"

namespace {

using Component = pmix::plugins::ConstantComponent<&pmix::preg::compress::kModule, 20>;

}  // namespace

extern "C" {
PMIX_MCA_COMPONENT_EXPORT pmix_mca_component_t pmix_mca_preg_compress_component = {
    PMIX_MCA_BASE_VERSION_MAJOR, PMIX_MCA_BASE_VERSION_MINOR,
    "preg", PMIX_PREG_INTERFACE_MAJOR, PMIX_PREG_INTERFACE_MINOR,
    "compress", 1, 0, 0,
    20, nullptr, 0,
    Component::Open, Component::Query, Component::Close,
};
}  // extern "C"
