// The zlib pcompress component: descriptor and parameters.
#include <zlib.h>

#include "pmix/mca/mca.h"
#include "pmix/mca/pcompress.h"
#include "plugins/pcompress/zlib/zlib_module.h"

namespace {

const pmix_mca_param_desc_t kParams[] = {
    {"max_size", PMIX_MCA_PARAM_SIZE, "1073741824",
     "Largest uncompressed block (bytes) compressed or accepted for decompression; 1 GiB is far "
     "above any real job-level blob and refuses corrupted or hostile size claims",
     nullptr},
    {"level", PMIX_MCA_PARAM_INT, "-1",
     "zlib compression level (0-9, -1 = zlib's default 6, its speed/size balance)", nullptr},
};

pmix_status_t Open(const pmix_mca_services_t*, const pmix_mca_param_value_t* values,
                   void** context) {
  long long level = values[1].value.integer;
  if (level < -1 || level > 9) {
    return PMIX_ERR_BAD_PARAM;
  }
  pmix::pcompress::zlib::Configure(values[0].value.size, static_cast<int>(level));
  *context = nullptr;
  return PMIX_SUCCESS;
}

pmix_status_t Query(void*, const void** module, int* priority) {
  *module = &pmix::pcompress::zlib::kModule;
  *priority = 50;
  return PMIX_SUCCESS;
}

void Close(void*) {}

}  // namespace

extern "C" {
PMIX_MCA_COMPONENT_EXPORT pmix_mca_component_t pmix_mca_pcompress_zlib_component = {
    PMIX_MCA_BASE_VERSION_MAJOR,
    PMIX_MCA_BASE_VERSION_MINOR,
    "pcompress",
    PMIX_PCOMPRESS_INTERFACE_MAJOR,
    PMIX_PCOMPRESS_INTERFACE_MINOR,
    "zlib",
    1,
    0,
    0,
    50,
    kParams,
    sizeof kParams / sizeof kParams[0],
    Open,
    Query,
    Close,
};
}  // extern "C"
