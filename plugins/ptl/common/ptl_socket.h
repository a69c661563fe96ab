// What both ptl components need: reading their pmix_info_t directives and
// a few socket operations. Header-only (inline), so that each component's
// DSO carries its own copy and a static build has one.
#ifndef PMIXX_PLUGINS_PTL_COMMON_PTL_SOCKET_H
#define PMIXX_PLUGINS_PTL_COMMON_PTL_SOCKET_H

#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "pmix/mca/mca.h"

namespace pmix::ptl::common {

// The timeout connect() uses when its caller gives none (<= 0).
inline constexpr int kDefaultConnectTimeoutMs = 10000;

// Prints through the framework's output service (nothing when null).
inline void Say(const pmix_mca_services_t* services, int level, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));
inline void Say(const pmix_mca_services_t* services, int level, const char* fmt, ...) {
  if (services == nullptr || services->output == nullptr) return;
  char text[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(text, sizeof text, fmt, args);
  va_end(args);
  services->output("ptl", level, "%s", text);
}

inline const pmix_info_t* FindInfo(const pmix_info_t info[], size_t ninfo, const char* key) {
  if (info == nullptr) return nullptr;
  for (size_t i = 0; i < ninfo; ++i) {
    if (std::strncmp(info[i].key, key, PMIX_MAX_KEYLEN) == 0) return &info[i];
  }
  return nullptr;
}

// A string directive; nullopt when absent; "" stands for a non-string value.
inline std::optional<std::string> InfoString(const pmix_info_t* info) {
  if (info == nullptr) return std::nullopt;
  if (info->value.type != PMIX_STRING || info->value.data.string == nullptr) return "";
  return std::string(info->value.data.string);
}

// A boolean directive: absent is nullopt; a non-boolean value counts as true
// (the standard's convention for flag attributes given without a value).
inline std::optional<bool> InfoFlag(const pmix_info_t* info) {
  if (info == nullptr) return std::nullopt;
  if (info->value.type != PMIX_BOOL) return true;
  return info->value.data.flag;
}

// An integer directive of any integer type; nullopt when absent or not an
// integer. (Not PMIx_Value_get_number: the components stay free of libpmix
// symbols, so test/unit/ptl links them without it.)
inline std::optional<long long> InfoInteger(const pmix_info_t* info) {
  if (info == nullptr) return std::nullopt;
  const pmix_value_t& v = info->value;
  switch (v.type) {
    case PMIX_INT:
      return v.data.integer;
    case PMIX_INT8:
      return v.data.int8;
    case PMIX_INT16:
      return v.data.int16;
    case PMIX_INT32:
      return v.data.int32;
    case PMIX_INT64:
      return v.data.int64;
    case PMIX_UINT:
      return v.data.uint;
    case PMIX_UINT8:
      return v.data.uint8;
    case PMIX_UINT16:
      return v.data.uint16;
    case PMIX_UINT32:
      return v.data.uint32;
    case PMIX_UINT64:
      if (v.data.uint64 > static_cast<uint64_t>(LLONG_MAX)) return std::nullopt;
      return static_cast<long long>(v.data.uint64);
    default:
      return std::nullopt;
  }
}

inline int EffectiveTimeout(int timeout_ms) {
  return timeout_ms > 0 ? timeout_ms : kDefaultConnectTimeoutMs;
}

// accept4 with CLOEXEC|NONBLOCK; PMIX_ERR_WOULD_BLOCK when nothing is
// pending (including a peer that gave up before being accepted).
inline pmix_status_t AcceptOne(int listen_fd, int* fd) {
  while (true) {
    int accepted = ::accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (accepted >= 0) {
      *fd = accepted;
      return PMIX_SUCCESS;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED) {
      return PMIX_ERR_WOULD_BLOCK;
    }
    return errno == EMFILE || errno == ENFILE || errno == ENOMEM || errno == ENOBUFS
               ? PMIX_ERR_OUT_OF_RESOURCE
               : PMIX_ERROR;
  }
}

// The status for a failed connect()'s errno.
inline pmix_status_t ConnectError(int err) {
  switch (err) {
    case ETIMEDOUT:
    case EAGAIN:
      return PMIX_ERR_TIMEOUT;
    case EACCES:
    case EPERM:
      return PMIX_ERR_NO_PERMISSIONS;
    default:
      return PMIX_ERR_UNREACH;
  }
}

// Finishes a non-blocking connect() that returned EINPROGRESS: waits up to
// timeout_ms for the outcome.
inline pmix_status_t FinishConnect(int fd, int timeout_ms) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  pollfd pfd{fd, POLLOUT, 0};
  int n;
  do {
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    n = left > 0 ? ::poll(&pfd, 1, static_cast<int>(left)) : 0;
  } while (n < 0 && errno == EINTR);
  if (n == 0) return PMIX_ERR_TIMEOUT;
  if (n < 0) return PMIX_ERROR;
  int err = 0;
  socklen_t len = sizeof err;
  if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) return PMIX_ERROR;
  return err == 0 ? PMIX_SUCCESS : ConnectError(err);
}

}  // namespace pmix::ptl::common

#endif  // PMIXX_PLUGINS_PTL_COMMON_PTL_SOCKET_H
