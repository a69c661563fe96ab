// The tcp module: listen on the selected interface, accept, connect.
#include "plugins/ptl/tcp/tcp_module.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "plugins/ptl/common/ptl_socket.h"
#include "plugins/ptl/tcp/tcp_addr.h"

namespace pmix::ptl::tcp {
namespace {

using common::Say;

const pmix_mca_services_t* g_services = nullptr;
Config g_config;

// The defaults, overridden by the caller's directives.
Config Effective(const pmix_info_t info[], size_t ninfo) {
  Config config = g_config;
  auto find = [&](const char* key) { return common::FindInfo(info, ninfo, key); };
  if (auto text = common::InfoString(find(PMIX_TCP_IF_INCLUDE))) config.if_include = *text;
  if (auto port = common::InfoInteger(find(PMIX_TCP_IPV4_PORT))) config.ipv4_port = *port;
  if (auto port = common::InfoInteger(find(PMIX_TCP_IPV6_PORT))) config.ipv6_port = *port;
  if (auto flag = common::InfoFlag(find(PMIX_TCP_DISABLE_IPV4))) config.disable_ipv4 = *flag;
  if (auto flag = common::InfoFlag(find(PMIX_TCP_DISABLE_IPV6))) config.disable_ipv6 = *flag;
  return config;
}

void SetNoDelay(int fd) {
  int one = 1;
  (void)::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

pmix_status_t ListenOn(Address address, long long port, int* listen_fd, char** uri) {
  SetPort(&address, static_cast<int>(port));
  int fd = ::socket(address.family(), SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return PMIX_ERR_OUT_OF_RESOURCE;
  int one = 1;
  (void)::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (address.family() == AF_INET6)
    (void)::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&address.storage), address.length) != 0 ||
      ::listen(fd, SOMAXCONN) != 0) {
    int err = errno;
    ::close(fd);
    Say(g_services, 0, "tcp: cannot listen on %s: %s", FormatUri(address).c_str(),
        std::strerror(err));
    return err == EADDRINUSE ? PMIX_ERR_EXISTS
           : err == EACCES   ? PMIX_ERR_NO_PERMISSIONS
                             : PMIX_ERROR;
  }
  Address bound;
  bound.length = sizeof bound.storage;
  char* copy = nullptr;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&bound.storage), &bound.length) != 0 ||
      (copy = ::strdup(FormatUri(bound).c_str())) == nullptr) {
    ::close(fd);
    return PMIX_ERR_NOMEM;
  }
  *listen_fd = fd;
  *uri = copy;
  return PMIX_SUCCESS;
}

pmix_status_t Listen(const pmix_info_t info[], size_t ninfo, int* listen_fd, char** uri) {
  Config config = Effective(info, ninfo);
  for (long long port : {config.ipv4_port, config.ipv6_port}) {
    if (port < 0 || port > 65535) {
      Say(g_services, 0, "tcp: port %lld is out of range", port);
      return PMIX_ERR_BAD_PARAM;
    }
  }
  if (config.disable_ipv4 && config.disable_ipv6) return PMIX_ERR_NOT_SUPPORTED;
  InterfaceAddresses found;
  std::string missing;
  pmix_status_t rc = FindInterfaceAddresses(config.if_include, &found, &missing);
  if (rc == PMIX_ERR_BAD_PARAM) {
    Say(g_services, 0, "tcp: interface '%s' of the include list '%s' does not exist",
        missing.c_str(), config.if_include.c_str());
  }
  if (rc != PMIX_SUCCESS) return rc;
  if (!config.disable_ipv4 && found.v4)
    return ListenOn(*found.v4, config.ipv4_port, listen_fd, uri);
  if (!config.disable_ipv6 && found.v6)
    return ListenOn(*found.v6, config.ipv6_port, listen_fd, uri);
  Say(g_services, 1, "tcp: no address of an enabled family on '%s'", config.if_include.c_str());
  return PMIX_ERR_NOT_SUPPORTED;
}

void Unlisten(int listen_fd, const char*) {
  if (listen_fd >= 0) ::close(listen_fd);
}

pmix_status_t Accept(int listen_fd, int* fd) {
  pmix_status_t rc = common::AcceptOne(listen_fd, fd);
  if (rc == PMIX_SUCCESS) SetNoDelay(*fd);
  return rc;
}

pmix_status_t Connect(const char* uri, int timeout_ms, int* out_fd) {
  if (uri == nullptr) return PMIX_ERR_NOT_SUPPORTED;
  Address address;
  pmix_status_t rc = ParseUri(uri, &address);
  if (rc != PMIX_SUCCESS) return rc;
  int fd = ::socket(address.family(), SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return PMIX_ERR_OUT_OF_RESOURCE;
  int result;
  do {
    result = ::connect(fd, reinterpret_cast<const sockaddr*>(&address.storage), address.length);
  } while (result != 0 && errno == EINTR);
  if (result != 0) {
    rc = errno == EINPROGRESS ? common::FinishConnect(fd, common::EffectiveTimeout(timeout_ms))
                              : common::ConnectError(errno);
  }
  if (rc != PMIX_SUCCESS) {
    ::close(fd);
    return rc;
  }
  SetNoDelay(fd);
  *out_fd = fd;
  return PMIX_SUCCESS;
}

}  // namespace

const pmix_ptl_module_t kModule = {"tcp", Listen, Unlisten, Accept, Connect};

void Configure(const pmix_mca_services_t* services, const Config& config) {
  g_services = services;
  g_config = config;
}

}  // namespace pmix::ptl::tcp
