// The bfrops framework as the rest of the library sees it: which codec to
// use. Multi-select: every available codec is kept, highest priority first;
// the first is this process's default.
//
// Threads: any thread; the first call opens the framework (see
// mca/base/framework.h), later calls only read the immutable selection.
#ifndef PMIXX_MCA_BFROPS_BASE_BFROPS_BASE_H
#define PMIXX_MCA_BFROPS_BASE_BFROPS_BASE_H

#include <string_view>

#include "mca/base/framework.h"
#include "pmix/mca/bfrops.h"
#include "src/common/status.h"

namespace pmix::bfrops {

// The framework's static description.
const mca::FrameworkSpec& Spec();

// The default codec (the highest-priority one). Errors: whatever opening
// the framework returned (PMIX_ERR_NOT_SUPPORTED when no codec exists).
Result<const pmix_bfrops_module_t*> DefaultCodec();

// The codec whose wire name is `codec` (e.g. "native1"), for talking to a
// peer that announced it. PMIX_ERR_NOT_FOUND when no selected codec has it.
Result<const pmix_bfrops_module_t*> CodecByName(std::string_view codec);

}  // namespace pmix::bfrops

#endif  // PMIXX_MCA_BFROPS_BASE_BFROPS_BASE_H
