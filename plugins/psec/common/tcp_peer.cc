// The owner of a loopback TCP peer's socket (contract in tcp_peer.h).
#include "plugins/psec/common/tcp_peer.h"

#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <new>
#include <string>
#include <vector>

#include "plugins/psec/common/proc_net_tcp.h"

namespace pmix::psec::util {
namespace {

constexpr const char* kTable4 = "/proc/net/tcp";
constexpr const char* kTable6 = "/proc/net/tcp6";
constexpr size_t kMaxPasswdBuffer = size_t{1} << 20;
constexpr int kMaxGroupListTries = 4;

// The whole file, or nullopt when it cannot be read.
std::optional<std::string> ReadFile(const char* path) {
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string text;
  char chunk[16384];
  for (;;) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      if (n < 0) return std::nullopt;
      return text;
    }
    text.append(chunk, static_cast<size_t>(n));
  }
}

bool IsConnectedTcp(int fd, TcpEndpoint* local, TcpEndpoint* remote) {
  int protocol = 0;
  socklen_t len = sizeof protocol;
  if (fd < 0 || getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &protocol, &len) != 0) return false;
  if (protocol != IPPROTO_TCP) return false;
  sockaddr_storage ours{}, theirs{};
  socklen_t ours_len = sizeof ours, theirs_len = sizeof theirs;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&ours), &ours_len) != 0 ||
      getpeername(fd, reinterpret_cast<sockaddr*>(&theirs), &theirs_len) != 0) {
    return false;  // ENOTCONN: nobody to ask about
  }
  auto l = EndpointOf(reinterpret_cast<sockaddr*>(&ours), ours_len);
  auto r = EndpointOf(reinterpret_cast<sockaddr*>(&theirs), theirs_len);
  if (!l || !r) return false;
  *local = *l;
  *remote = *r;
  return true;
}

// The passwd entry's name and primary group of uid.
bool LookUpUser(uid_t uid, std::string* name, gid_t* primary) {
  long hint = sysconf(_SC_GETPW_R_SIZE_MAX);
  std::vector<char> buffer(hint > 0 ? static_cast<size_t>(hint) : 16384);
  for (;;) {
    passwd entry{};
    passwd* found = nullptr;
    int rc = getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found);
    if (rc == ERANGE && buffer.size() < kMaxPasswdBuffer) {
      buffer.resize(buffer.size() * 2);
      continue;
    }
    if (rc != 0 || found == nullptr) return false;
    *name = entry.pw_name;
    *primary = entry.pw_gid;
    return true;
  }
}

bool UserInGroup(const std::string& name, gid_t primary, gid_t gid) {
  if (gid == primary) return true;
  int count = 32;
  std::vector<gid_t> groups;
  for (int attempt = 0; attempt < kMaxGroupListTries; ++attempt) {
    groups.resize(static_cast<size_t>(std::max(count, 1)));
    count = static_cast<int>(groups.size());
    if (getgrouplist(name.c_str(), primary, groups.data(), &count) >= 0) {
      groups.resize(static_cast<size_t>(count));
      return std::find(groups.begin(), groups.end(), gid) != groups.end();
    }
  }
  return false;
}

bool WeAreInGroup(gid_t gid) {
  if (gid == getegid()) return true;
  int count = getgroups(0, nullptr);
  if (count <= 0) return false;
  std::vector<gid_t> groups(static_cast<size_t>(count));
  count = getgroups(count, groups.data());
  if (count < 0) return false;
  groups.resize(static_cast<size_t>(count));
  return std::find(groups.begin(), groups.end(), gid) != groups.end();
}

}  // namespace

std::optional<gid_t> GroupFor(uid_t uid, std::optional<gid_t> wanted) {
  bool ours = uid == geteuid();
  if (ours && wanted && WeAreInGroup(*wanted)) return wanted;
  std::string name;
  gid_t primary = 0;
  if (LookUpUser(uid, &name, &primary)) {
    if (wanted && UserInGroup(name, primary, *wanted)) return wanted;
    return ours ? getegid() : primary;
  }
  if (ours) return getegid();
  return std::nullopt;
}

pmix_status_t LoopbackTcpPeerIds(int fd, const Expected& expected, Ids* ids) {
  try {
    TcpEndpoint local, remote;
    if (!IsConnectedTcp(fd, &local, &remote) || !IsLoopback(remote)) return PMIX_ERR_NOT_SUPPORTED;
    // Each read costs the kernel a walk of its whole socket hash (~ms):
    // an IPv6 peer address can only be in tcp6; a (mapped) IPv4 one is
    // usually an AF_INET socket's, else a dual-stack one's in tcp6.
    std::optional<uid_t> uid;
    for (const char* path : {IsV4Mapped(remote) ? kTable4 : nullptr, kTable6}) {
      if (path == nullptr) continue;
      auto table = ReadFile(path);
      // The peer's view: its local end is our remote one and vice versa.
      if (table) uid = FindSocketOwner(*table, remote, local);
      if (uid) break;
    }
    if (!uid) return PMIX_ERR_NOT_SUPPORTED;
    if (expected.has_uid && *uid != expected.uid) return PMIX_ERR_NO_PERMISSIONS;
    std::optional<gid_t> wanted;
    if (expected.has_gid) wanted = static_cast<gid_t>(expected.gid);
    auto gid = GroupFor(*uid, wanted);
    if (!gid) return expected.has_gid ? PMIX_ERR_NO_PERMISSIONS : PMIX_ERR_NOT_SUPPORTED;
    *ids = Ids{*uid, *gid};
    return PMIX_SUCCESS;
  } catch (const std::bad_alloc&) {
    return PMIX_ERR_NOMEM;
  }
}

}  // namespace pmix::psec::util
