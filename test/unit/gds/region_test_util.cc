#include "test/unit/gds/region_test_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <string>


namespace pmix::gds::test {

bool MemfdSealingWorks() {
  int fd = ::memfd_create("probe", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return false;
  bool ok = ::ftruncate(fd, 1) == 0 &&
            ::fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW) == 0;
  ::close(fd);
  return ok;
}

void Fill(const pmix_gds_region_t& region, size_t size) {
  auto* bytes = static_cast<uint8_t*>(region.base);
  for (size_t i = 0; i < size; ++i) bytes[i] = Pattern(i);
}

bool HasPattern(const void* base, size_t size) {
  const auto* bytes = static_cast<const uint8_t*>(base);
  for (size_t i = 0; i < size; ++i) {
    if (bytes[i] != Pattern(i)) return false;
  }
  return true;
}

bool SendFd(int sock, int fd, size_t size) {
  uint64_t payload = size;
  iovec iov{&payload, sizeof payload};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  cmsghdr* cmsg = CMSG_FIRSTHDR(&msg);
  cmsg->cmsg_level = SOL_SOCKET;
  cmsg->cmsg_type = SCM_RIGHTS;
  cmsg->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(cmsg), &fd, sizeof fd);
  return ::sendmsg(sock, &msg, MSG_NOSIGNAL) == static_cast<ssize_t>(sizeof payload);
}

int RecvFd(int sock, size_t* size) {
  uint64_t payload = 0;
  iovec iov{&payload, sizeof payload};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  if (::recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != static_cast<ssize_t>(sizeof payload)) return -1;
  cmsghdr* cmsg = CMSG_FIRSTHDR(&msg);
  if (cmsg == nullptr || cmsg->cmsg_type != SCM_RIGHTS) return -1;
  int fd = -1;
  std::memcpy(&fd, CMSG_DATA(cmsg), sizeof fd);
  *size = payload;
  return fd;
}

size_t OpenFdCount() {
  size_t n = 0;
  DIR* dir = ::opendir("/proc/self/fd");
  if (dir == nullptr) return 0;
  while (dirent* e = ::readdir(dir)) {
    if (e->d_name[0] != '.') ++n;
  }
  ::closedir(dir);
  return n - 1;  // the directory's own descriptor
}

size_t MappingCount(std::string_view what) {
  std::ifstream maps("/proc/self/maps");
  size_t n = 0;
  for (std::string line; std::getline(maps, line);) {
    if (line.find(what) != std::string::npos) ++n;
  }
  return n;
}

}  // namespace pmix::gds::test
