// Addresses for the tcp transport: URIs, and the local interface addresses
// an include list selects.
//
// URIs: "tcp4://<dotted quad>:<port>", "tcp6://[<IPv6 address>]:<port>".
#ifndef PMIXX_PLUGINS_PTL_TCP_TCP_ADDR_H
#define PMIXX_PLUGINS_PTL_TCP_TCP_ADDR_H

#include <sys/socket.h>

#include <optional>
#include <string>
#include <string_view>

#include "pmix_common.h"

namespace pmix::ptl::tcp {

inline constexpr std::string_view kScheme4 = "tcp4://";
inline constexpr std::string_view kScheme6 = "tcp6://";

struct Address {
  sockaddr_storage storage{};
  socklen_t length = 0;
  int family() const { return storage.ss_family; }
};

// The URI of a bound AF_INET / AF_INET6 address (port included).
std::string FormatUri(const Address& address);

// PMIX_ERR_NOT_SUPPORTED when uri is not tcp4:// or tcp6://,
// PMIX_ERR_BAD_PARAM when it is but is malformed (port 1..65535 required).
pmix_status_t ParseUri(std::string_view uri, Address* address);

struct InterfaceAddresses {
  std::optional<Address> v4;  // the first IPv4 address found
  std::optional<Address> v6;  // the first IPv6 address that is not link-local
};

// The addresses of the up interfaces named in if_include (comma-separated
// names, spaces ignored), in the order the system lists them. An unknown
// name is PMIX_ERR_BAD_PARAM and *missing is set to it; an empty list too.
pmix_status_t FindInterfaceAddresses(std::string_view if_include, InterfaceAddresses* found,
                                     std::string* missing);

// Sets the port of an AF_INET / AF_INET6 address.
void SetPort(Address* address, int port);

}  // namespace pmix::ptl::tcp

#endif  // PMIXX_PLUGINS_PTL_TCP_TCP_ADDR_H
