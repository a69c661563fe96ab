// The pcompress framework spec, its base parameter and the internal API.
#include "mca/pcompress/base/pcompress_base.h"

#include <cstdlib>
#include <memory>

#include "mca/base/framework.h"
#include "mca/base/framework_registry.h"

namespace pmix::pcompress {
namespace {

const pmix_mca_param_desc_t kBaseParams[] = {
    {"limit", PMIX_MCA_PARAM_SIZE, "4096",
     "Blobs at or above this size (bytes) are compressed by the library; below a page the "
     "CPU cost outweighs the bytes saved",
     nullptr},
};

const mca::FrameworkSpec kSpec = {
    "pcompress",
    PMIX_PCOMPRESS_INTERFACE_MAJOR,
    PMIX_PCOMPRESS_INTERFACE_MINOR,
    false,
    "Compression of large values and blobs",
    kBaseParams,
};
// Known to pmix_info before first use.
const mca::KnownFramework kKnown(kSpec);

struct FreeDeleter {
  void operator()(uint8_t* p) const { std::free(p); }
};

using ModuleFn = bool (*)(const uint8_t*, size_t, uint8_t**, size_t*);

Result<std::vector<uint8_t>> Run(ModuleFn fn, std::span<const uint8_t> in) {
  uint8_t* raw = nullptr;
  size_t len = 0;
  if (!fn(in.data(), in.size(), &raw, &len)) return Status(PMIX_ERR_BAD_PARAM);
  std::unique_ptr<uint8_t, FreeDeleter> owned(raw);
  return std::vector<uint8_t>(raw, raw + len);
}

}  // namespace

Result<const pmix_pcompress_module_t*> SelectedModule() {
  mca::Framework& framework = mca::GetFramework(kSpec);
  PMIX_RETURN_IF_ERROR(framework.Ensure());
  const auto* module = framework.First<pmix_pcompress_module_t>();
  if (module == nullptr) return Status(PMIX_ERR_NOT_SUPPORTED);
  return module;
}

bool ShouldCompress(size_t size) {
  if (!SelectedModule().ok()) return false;
  return size >= mca::GetFramework(kSpec).BaseParam("limit").value.size;
}

Result<std::vector<uint8_t>> Compress(std::span<const uint8_t> data) {
  auto module = SelectedModule();
  PMIX_RETURN_IF_ERROR(module.status());
  return Run((*module)->compress, data);
}

Result<std::vector<uint8_t>> Decompress(std::span<const uint8_t> block) {
  auto module = SelectedModule();
  PMIX_RETURN_IF_ERROR(module.status());
  return Run((*module)->decompress, block);
}

}  // namespace pmix::pcompress
