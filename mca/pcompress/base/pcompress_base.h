// The pcompress framework as the rest of the library uses it.
//
// Single-select (include/pmix/mca/pcompress.h is the module interface).
// Base parameter: pcompress_base_limit (size, default 4096): values and
// blobs at or above this size are stored and sent compressed by the
// library. Every function here first ensures the framework (see
// mca/base/framework.h); thread-safe.
#ifndef PMIXX_MCA_PCOMPRESS_BASE_PCOMPRESS_BASE_H
#define PMIXX_MCA_PCOMPRESS_BASE_PCOMPRESS_BASE_H

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "pmix/mca/pcompress.h"
#include "src/common/status.h"

namespace pmix::pcompress {

// The selected module, or the framework's error (PMIX_ERR_NOT_SUPPORTED
// when no component is available).
Result<const pmix_pcompress_module_t*> SelectedModule();

// True when a blob of `size` bytes should be compressed: a module is
// available and size >= pcompress_base_limit.
bool ShouldCompress(size_t size);

// One block in the selected module's format. Errors: the framework's error,
// or PMIX_ERR_BAD_PARAM when the module refuses the input (too large for
// compress; corrupt, truncated or oversized for decompress).
Result<std::vector<uint8_t>> Compress(std::span<const uint8_t> data);
Result<std::vector<uint8_t>> Decompress(std::span<const uint8_t> block);

}  // namespace pmix::pcompress

#endif  // PMIXX_MCA_PCOMPRESS_BASE_PCOMPRESS_BASE_H
