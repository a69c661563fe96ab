// Sorting a registration array into a Model, with every check that does
// not need the node/proc layout (layout.h does the rest). Pure: reads only
// its arguments.
#ifndef PMIXX_SRC_JOBINFO_PARSE_H
#define PMIXX_SRC_JOBINFO_PARSE_H

#include <span>
#include <string_view>

#include "pmix_common.h"
#include "src/common/status.h"
#include "src/jobinfo/model.h"

namespace pmix::jobinfo {

// The model of `info` (given in parts, read in order as one array) for
// namespace `nspace`. The model points into the parts: keep them alive
// while the model is used. Errors: jobinfo.h.
Result<Model> Parse(std::string_view nspace, std::span<const std::span<const pmix_info_t>> info);

}  // namespace pmix::jobinfo

#endif  // PMIXX_SRC_JOBINFO_PARSE_H
