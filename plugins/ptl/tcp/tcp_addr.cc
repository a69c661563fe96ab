// URI formatting/parsing and interface address lookup for tcp.
#include "plugins/ptl/tcp/tcp_addr.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include <charconv>
#include <cstring>
#include <memory>
#include <vector>

namespace pmix::ptl::tcp {
namespace {

std::vector<std::string> SplitNames(std::string_view list) {
  std::vector<std::string> names;
  std::string current;
  for (char c : list) {
    if (c == ',') {
      if (!current.empty()) names.push_back(current);
      current.clear();
    } else if (c != ' ' && c != '\t') {
      current += c;
    }
  }
  if (!current.empty()) names.push_back(current);
  return names;
}

bool ParsePort(std::string_view text, int* port) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1 || value > 65535) {
    return false;
  }
  *port = value;
  return true;
}

Address FromSockaddr(const sockaddr* sa) {
  Address address;
  address.length = sa->sa_family == AF_INET ? sizeof(sockaddr_in) : sizeof(sockaddr_in6);
  std::memcpy(&address.storage, sa, address.length);
  return address;
}

// Keeps the first usable address of each family from one ifaddrs entry.
void Consider(const ifaddrs* entry, InterfaceAddresses* found) {
  const sockaddr* sa = entry->ifa_addr;
  if (sa == nullptr || (entry->ifa_flags & IFF_UP) == 0) return;
  if (sa->sa_family == AF_INET && !found->v4) found->v4 = FromSockaddr(sa);
  if (sa->sa_family == AF_INET6 && !found->v6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(sa);
    // A link-local address needs a scope in URIs; loopback has ::1 anyway.
    if (!IN6_IS_ADDR_LINKLOCAL(&in6->sin6_addr)) found->v6 = FromSockaddr(sa);
  }
}

}  // namespace

std::string FormatUri(const Address& address) {
  char text[INET6_ADDRSTRLEN] = {};
  if (address.family() == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&address.storage);
    ::inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
    return std::string(kScheme4) + text + ":" + std::to_string(ntohs(in->sin_port));
  }
  const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&address.storage);
  ::inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof text);
  return std::string(kScheme6) + "[" + text + "]:" + std::to_string(ntohs(in6->sin6_port));
}

pmix_status_t ParseUri(std::string_view uri, Address* address) {
  bool v6 = uri.starts_with(kScheme6);
  if (!v6 && !uri.starts_with(kScheme4)) return PMIX_ERR_NOT_SUPPORTED;
  std::string_view rest = uri.substr(kScheme4.size());
  size_t colon = rest.rfind(':');
  if (colon == std::string_view::npos) return PMIX_ERR_BAD_PARAM;
  std::string_view host = rest.substr(0, colon);
  if (v6) {
    if (host.size() < 2 || host.front() != '[' || host.back() != ']') return PMIX_ERR_BAD_PARAM;
    host = host.substr(1, host.size() - 2);
  }
  int port = 0;
  if (!ParsePort(rest.substr(colon + 1), &port)) return PMIX_ERR_BAD_PARAM;
  std::string host_text(host);
  Address parsed;
  if (v6) {
    auto* in6 = reinterpret_cast<sockaddr_in6*>(&parsed.storage);
    in6->sin6_family = AF_INET6;
    if (::inet_pton(AF_INET6, host_text.c_str(), &in6->sin6_addr) != 1) return PMIX_ERR_BAD_PARAM;
    parsed.length = sizeof *in6;
  } else {
    auto* in = reinterpret_cast<sockaddr_in*>(&parsed.storage);
    in->sin_family = AF_INET;
    if (::inet_pton(AF_INET, host_text.c_str(), &in->sin_addr) != 1) return PMIX_ERR_BAD_PARAM;
    parsed.length = sizeof *in;
  }
  SetPort(&parsed, port);
  *address = parsed;
  return PMIX_SUCCESS;
}

pmix_status_t FindInterfaceAddresses(std::string_view if_include, InterfaceAddresses* found,
                                     std::string* missing) {
  std::vector<std::string> names = SplitNames(if_include);
  if (names.empty()) {
    *missing = std::string(if_include);
    return PMIX_ERR_BAD_PARAM;
  }
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return PMIX_ERR_OUT_OF_RESOURCE;
  std::unique_ptr<ifaddrs, decltype(&::freeifaddrs)> owned(list, &::freeifaddrs);
  InterfaceAddresses result;
  for (const std::string& name : names) {
    bool exists = false;
    for (const ifaddrs* entry = list; entry != nullptr; entry = entry->ifa_next) {
      if (name != entry->ifa_name) continue;
      exists = true;
      Consider(entry, &result);
    }
    if (!exists) {
      *missing = name;
      return PMIX_ERR_BAD_PARAM;
    }
  }
  *found = result;
  return PMIX_SUCCESS;
}

void SetPort(Address* address, int port) {
  if (address->family() == AF_INET) {
    reinterpret_cast<sockaddr_in*>(&address->storage)->sin_port =
        htons(static_cast<uint16_t>(port));
  } else {
    reinterpret_cast<sockaddr_in6*>(&address->storage)->sin6_port =
        htons(static_cast<uint16_t>(port));
  }
}

}  // namespace pmix::ptl::tcp
