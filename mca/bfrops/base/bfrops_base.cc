#include "mca/bfrops/base/bfrops_base.h"

#include "mca/base/framework_registry.h"

namespace pmix::bfrops {
namespace {

constexpr mca::FrameworkSpec kSpec = {
    "bfrops",
    PMIX_BFROPS_INTERFACE_MAJOR,
    PMIX_BFROPS_INTERFACE_MINOR,
    true,
    "Wire encoding of PMIx data types (PMIx_Data_pack and messages)",
    {},
};
// Known to pmix_info before anything packs.
const mca::KnownFramework kKnown(kSpec);

Status Opened() { return mca::GetFramework(kSpec).Ensure(); }

}  // namespace

const mca::FrameworkSpec& Spec() { return kSpec; }

Result<const pmix_bfrops_module_t*> DefaultCodec() {
  PMIX_RETURN_IF_ERROR(Opened());
  const auto* module = mca::GetFramework(kSpec).First<pmix_bfrops_module_t>();
  if (module == nullptr) return Status(PMIX_ERR_NOT_SUPPORTED);
  return module;
}

Result<const pmix_bfrops_module_t*> CodecByName(std::string_view codec) {
  PMIX_RETURN_IF_ERROR(Opened());
  for (const mca::SelectedModule& s : mca::GetFramework(kSpec).Selected()) {
    const auto* module = static_cast<const pmix_bfrops_module_t*>(s.module);
    if (module != nullptr && module->codec != nullptr && codec == module->codec) {
      return module;
    }
  }
  return Status(PMIX_ERR_NOT_FOUND);
}

}  // namespace pmix::bfrops
