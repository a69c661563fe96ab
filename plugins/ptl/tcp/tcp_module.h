// The tcp transport: IPv4 or IPv6 stream sockets, for tools and peers that
// cannot use the server's Unix socket. Loopback only unless configured.
//
// listen() resolves the interfaces of the include list (parameter
// ptl_tcp_if_include, or PMIX_TCP_IF_INCLUDE; an unknown interface name is
// PMIX_ERR_BAD_PARAM, logged with the name) and opens ONE listening socket
// (the module interface returns one): on the first IPv4 address of those
// interfaces unless IPv4 is disabled or they have none, else on their
// first non-link-local IPv6 address (so a host without IPv6 loopback still
// listens on IPv4, and PMIX_TCP_DISABLE_IPV4 asks for IPv6). Port: the
// family's port parameter / PMIX_TCP_IPV4_PORT / PMIX_TCP_IPV6_PORT, 0 for
// an ephemeral one. Both families disabled, or no address of an enabled
// family: PMIX_ERR_NOT_SUPPORTED. SO_REUSEADDR on the listener; accepted
// and connected sockets get TCP_NODELAY. URIs as in tcp_addr.h.
#ifndef PMIXX_PLUGINS_PTL_TCP_TCP_MODULE_H
#define PMIXX_PLUGINS_PTL_TCP_TCP_MODULE_H

#include <string>

#include "pmix/mca/ptl.h"

namespace pmix::ptl::tcp {

struct Config {
  std::string if_include = "lo";
  long long ipv4_port = 0;
  long long ipv6_port = 0;
  bool disable_ipv4 = false;
  bool disable_ipv6 = false;
};

extern const pmix_ptl_module_t kModule;

// Sets the defaults that info directives override, and the services for
// diagnostics (may be null). Called from open(), before any listen().
void Configure(const pmix_mca_services_t* services, const Config& config);

}  // namespace pmix::ptl::tcp

#endif  // PMIXX_PLUGINS_PTL_TCP_TCP_MODULE_H
