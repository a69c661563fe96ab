// Helpers of the descriptor-passing tests: descriptors to pass, whether two
// descriptors are the same open file, raw sends (a hostile peer), and a
// count of this process's descriptors for leak checks. Header-only.
#ifndef PMIXX_TEST_UNIT_PTL_FD_TEST_UTIL_H
#define PMIXX_TEST_UNIT_PTL_FD_TEST_UTIL_H

#include <dirent.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <span>
#include <vector>

#include "mca/ptl/base/fd.h"

namespace pmix::ptl::test {

// Entries of /proc/self/fd (without the directory's own).
inline size_t OpenFdCount() {
  size_t n = 0;
  DIR* dir = ::opendir("/proc/self/fd");
  if (dir == nullptr) return 0;
  while (dirent* e = ::readdir(dir)) {
    if (e->d_name[0] != '.') ++n;
  }
  ::closedir(dir);
  return n - 1;
}

inline bool IsOpen(int fd) { return ::fcntl(fd, F_GETFD) != -1; }
inline bool IsCloexec(int fd) { return (::fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0; }

// The same file (device and inode): a descriptor and the one it became
// after travelling.
inline bool SameFile(int a, int b) {
  struct stat sa, sb;
  return ::fstat(a, &sa) == 0 && ::fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

// n distinct files to send (the read ends of n pipes; the write ends are
// closed).
inline std::vector<Fd> Files(size_t n) {
  std::vector<Fd> out;
  for (size_t i = 0; i < n; ++i) {
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0) break;
    ::close(p[1]);
    out.emplace_back(p[0]);
  }
  return out;
}

inline std::vector<int> Numbers(const std::vector<Fd>& fds) {
  std::vector<int> out;
  for (const Fd& fd : fds) out.push_back(fd.get());
  return out;
}

// One sendmsg of bytes with fds attached, as a peer of any intent might.
inline bool SendRaw(int sock, std::span<const uint8_t> bytes, std::span<const int> fds) {
  iovec iov{const_cast<uint8_t*>(bytes.data()), bytes.size()};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  std::vector<char> control(CMSG_SPACE(sizeof(int) * fds.size()));
  if (!fds.empty()) {
    msg.msg_control = control.data();
    msg.msg_controllen = control.size();
    cmsghdr* cmsg = CMSG_FIRSTHDR(&msg);
    cmsg->cmsg_level = SOL_SOCKET;
    cmsg->cmsg_type = SCM_RIGHTS;
    cmsg->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(cmsg), fds.data(), sizeof(int) * fds.size());
  }
  return ::sendmsg(sock, &msg, MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
}

}  // namespace pmix::ptl::test

#endif  // PMIXX_TEST_UNIT_PTL_FD_TEST_UTIL_H
