// sendmsg/recvmsg with SCM_RIGHTS.
#include "mca/ptl/base/fd_passing.h"

#include <sys/socket.h>

#include <cerrno>
#include <cstring>

#include "mca/ptl/base/frame.h"

namespace pmix::ptl {
namespace {

// Room for the most descriptors any caller accepts (the kernel merges a
// message's SCM_RIGHTS into one control message); one more, so that a peer
// sending too many is told apart from one sending exactly the maximum.
constexpr size_t kControlFds = kMaxFrameFds + 1;
union Control {
  cmsghdr align;
  char bytes[CMSG_SPACE(sizeof(int) * kControlFds)];
};

}  // namespace

bool CanPassFds(int fd) {
  int domain = 0;
  socklen_t len = sizeof domain;
  return ::getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) == 0 && domain == AF_UNIX;
}

ssize_t SendWithFds(int fd, std::span<const iovec> iov, std::span<const int> fds) {
  msghdr msg{};
  msg.msg_iov = const_cast<iovec*>(iov.data());
  msg.msg_iovlen = iov.size();
  Control control;
  if (!fds.empty()) {
    if (fds.size() > kMaxFrameFds) {
      errno = EINVAL;
      return -1;
    }
    std::memset(&control, 0, sizeof control);
    msg.msg_control = control.bytes;
    msg.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
    cmsghdr* cmsg = CMSG_FIRSTHDR(&msg);
    cmsg->cmsg_level = SOL_SOCKET;
    cmsg->cmsg_type = SCM_RIGHTS;
    cmsg->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(cmsg), fds.data(), sizeof(int) * fds.size());
  }
  return ::sendmsg(fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
}

ssize_t RecvWithFds(int fd, std::span<uint8_t> buffer, size_t max_fds, std::vector<Fd>* fds,
                    bool* truncated) {
  *truncated = false;
  iovec iov{buffer.data(), buffer.size()};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  Control control;
  msg.msg_control = control.bytes;
  msg.msg_controllen = sizeof control.bytes;
  ssize_t n = ::recvmsg(fd, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
  if (n < 0) return n;
  size_t got = 0;
  for (cmsghdr* cmsg = CMSG_FIRSTHDR(&msg); cmsg != nullptr; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
    if (cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS) continue;
    size_t count = (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < count; ++i) {
      int received = -1;
      std::memcpy(&received, CMSG_DATA(cmsg) + i * sizeof(int), sizeof received);
      fds->emplace_back(received);  // owned from here on, also when refused
      ++got;
    }
  }
  if ((msg.msg_flags & MSG_CTRUNC) != 0 || got > max_fds) *truncated = true;
  return n;
}

}  // namespace pmix::ptl
