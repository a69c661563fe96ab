// The tcp ptl component: descriptor and parameters.
#include "plugins/ptl/tcp/tcp_module.h"
#include "pmix/mca/mca.h"
#include "pmix/mca/ptl.h"

namespace {

constexpr int kPriority = 40;

// Order matters: Open() reads the values by these indices.
const pmix_mca_param_desc_t kParams[] = {
    {"if_include", PMIX_MCA_PARAM_STRING, "lo",
     "Comma-separated interfaces to listen on; loopback by default, so nothing is reachable "
     "from the network unless asked for",
     nullptr},
    {"ipv4_port", PMIX_MCA_PARAM_INT, "0",
     "IPv4 port to listen on; 0 lets the kernel pick a free one, so servers never collide",
     nullptr},
    {"ipv6_port", PMIX_MCA_PARAM_INT, "0",
     "IPv6 port to listen on; 0 lets the kernel pick a free one, so servers never collide",
     nullptr},
    // OpenPMIx's names, so its users' PMIX_MCA_ptl_tcp_disable_ipv4_family works
    {"disable_ipv4_family", PMIX_MCA_PARAM_BOOL, "false",
     "Do not use IPv4; off, since IPv4 loopback exists everywhere", nullptr},
    {"disable_ipv6_family", PMIX_MCA_PARAM_BOOL, "false",
     "Do not use IPv6; off, as IPv6 is only used when IPv4 is disabled or absent", nullptr},
};

pmix_status_t Open(const pmix_mca_services_t* services, const pmix_mca_param_value_t* values,
                   void** context) {
  pmix::ptl::tcp::Config config;
  if (values[0].value.string != nullptr) config.if_include = values[0].value.string;
  config.ipv4_port = values[1].value.integer;
  config.ipv6_port = values[2].value.integer;
  config.disable_ipv4 = values[3].value.flag;
  config.disable_ipv6 = values[4].value.flag;
  pmix::ptl::tcp::Configure(services, config);
  *context = nullptr;
  return PMIX_SUCCESS;
}

pmix_status_t Query(void*, const void** module, int* priority) {
  *module = &pmix::ptl::tcp::kModule;
  *priority = kPriority;
  return PMIX_SUCCESS;
}

void Close(void*) { pmix::ptl::tcp::Configure(nullptr, pmix::ptl::tcp::Config{}); }

}  // namespace

extern "C" {
PMIX_MCA_COMPONENT_EXPORT pmix_mca_component_t pmix_mca_ptl_tcp_component = {
    PMIX_MCA_BASE_VERSION_MAJOR,
    PMIX_MCA_BASE_VERSION_MINOR,
    "ptl",
    PMIX_PTL_INTERFACE_MAJOR,
    PMIX_PTL_INTERFACE_MINOR,
    "tcp",
    1,
    0,
    0,
    kPriority,
    kParams,
    sizeof kParams / sizeof kParams[0],
    Open,
    Query,
    Close,
};
}  // extern "C"
