// PMIx_generate_regex / PMIx_generate_ppn (standard §17.2.x, server API).
//
// Measured on OpenPMIx 4.2.2: a NULL input crashes there; here NULL input
// or output is PMIX_ERR_BAD_PARAM. The output is malloc'd (free() it) and
// written only on success.
#include <cstring>

#include "pmix_server.h"

#include "mca/preg/base/preg_base.h"
#include "src/common/api_guard.h"

namespace {

template <class Generate>
pmix_status_t Run(const char* api, const char* input, char** output, Generate generate) {
  return pmix::ApiGuard(api, [&]() -> pmix::Status {
    if (input == nullptr || output == nullptr) return PMIX_ERR_BAD_PARAM;
    auto text = generate(input);
    PMIX_RETURN_IF_ERROR(text.status());
    char* copy = strdup(text->c_str());
    if (copy == nullptr) return PMIX_ERR_NOMEM;
    *output = copy;
    return PMIX_SUCCESS;
  });
}

}  // namespace

extern "C" {

pmix_status_t PMIx_generate_regex(const char* input, char** regex) {
  return Run("PMIx_generate_regex", input, regex, pmix::preg::GenerateNodeRegex);
}

pmix_status_t PMIx_generate_ppn(const char* input, char** ppn) {
  return Run("PMIx_generate_ppn", input, ppn, pmix::preg::GeneratePpn);
}

}  // extern "C"
