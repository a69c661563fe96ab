// The munge psec component: descriptor and parameters.
//
// Priority 50: below native (which is cheaper and as strong on a Unix
// socket) and above none. query() always offers the module: libmunge is
// linked, so a loaded component can talk to munged; whether munged runs is
// decided per credential (see munge_module.h), since it may come and go.
#include "plugins/psec/munge/munge_module.h"
#include "pmix/mca/mca.h"
#include "pmix/mca/psec.h"

namespace {

const pmix_mca_param_desc_t kParams[] = {
    {"socket", PMIX_MCA_PARAM_STRING, nullptr,
     "Path of munged's socket; unset uses libmunge's default (/run/munge/munge.socket.2), "
     "where the system daemon listens",
     nullptr},
};

pmix_status_t Open(const pmix_mca_services_t* services, const pmix_mca_param_value_t* values,
                   void** context) {
  try {
    pmix::psec::munge::Configure(services, values[0].value.string);
  } catch (...) {
    return PMIX_ERR_NOMEM;
  }
  *context = nullptr;
  return PMIX_SUCCESS;
}

pmix_status_t Query(void*, const void** module, int* priority) {
  *module = &pmix::psec::munge::kModule;
  *priority = 50;
  return PMIX_SUCCESS;
}

void Close(void*) {
  try {
    pmix::psec::munge::Configure(nullptr, nullptr);
  } catch (...) {
  }
}

}  // namespace

// clang-format off
extern "C" {
PMIX_MCA_COMPONENT_EXPORT pmix_mca_component_t pmix_mca_psec_munge_component = {
    PMIX_MCA_BASE_VERSION_MAJOR, PMIX_MCA_BASE_VERSION_MINOR,
    "psec", PMIX_PSEC_INTERFACE_MAJOR, PMIX_PSEC_INTERFACE_MINOR,
    "munge", 1, 0, 0,
    50, kParams, sizeof kParams / sizeof kParams[0],
    Open, Query, Close,
};
}  // extern "C"
// clang-format on
