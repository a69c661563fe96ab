// The usock module: safe tmpdir, socket file lifecycle, connect with timeout.
#include "plugins/ptl/usock/usock_module.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "plugins/ptl/common/ptl_socket.h"

namespace pmix::ptl::usock {
namespace {

using common::Say;

const pmix_mca_services_t* g_services = nullptr;
std::atomic<unsigned> g_listen_count{0};

// The sockaddr for path; false when it does not fit (with its NUL).
bool MakeAddress(const std::string& path, sockaddr_un* addr) {
  if (path.empty() || path.size() >= sizeof addr->sun_path) return false;
  std::memset(addr, 0, sizeof *addr);
  addr->sun_family = AF_UNIX;
  std::memcpy(addr->sun_path, path.c_str(), path.size() + 1);
  return true;
}

bool IsOurSocket(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode) && st.st_uid == ::geteuid();
}

// Makes room for our socket at path: nothing there, or a stale socket of ours.
pmix_status_t ClearPath(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return errno == ENOENT ? PMIX_SUCCESS : PMIX_ERROR;
  if (!IsOurSocket(path)) {
    Say(g_services, 0, "usock: %s exists and is not a socket of ours; not replacing it",
        path.c_str());
    return PMIX_ERR_NO_PERMISSIONS;
  }
  return ::unlink(path.c_str()) == 0 || errno == ENOENT ? PMIX_SUCCESS : PMIX_ERROR;
}

// A socket's name in its directory, "pmix-<pid>-<n>", and the temporary
// name it is bound under until it listens, ".~<pid>-<n>": hidden (peers
// that scan the directory for a socket, bad_peer among them, skip dot
// files) and never longer, so it fits wherever the final name does.
constexpr const char kFinalPrefix[] = "pmix-";
constexpr const char kBoundPrefix[] = ".~";
static_assert(sizeof kBoundPrefix <= sizeof kFinalPrefix);

struct SocketPaths {
  std::string path;   // where peers connect
  std::string bound;  // where it is bound, chmod()ed and set listening
};

SocketPaths NextSocketPaths(std::string dir) {
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  if (dir != "/") dir += '/';
  std::string id = std::to_string(::getpid()) + "-" + std::to_string(g_listen_count++);
  return {dir + kFinalPrefix + id, dir + kBoundPrefix + id};
}

// The socket file's mode: PMIX_SOCKET_MODE (its 9 permission bits) when
// the host gives one, owner read/write otherwise; nullopt for a directive
// that is not an integer mode.
std::optional<mode_t> SocketMode(const pmix_info_t info[], size_t ninfo) {
  const pmix_info_t* given = common::FindInfo(info, ninfo, PMIX_SOCKET_MODE);
  if (given == nullptr) return mode_t{0600};
  auto mode = common::InfoInteger(given);
  if (!mode || *mode < 0 || (*mode & ~0777LL) != 0) return std::nullopt;
  return static_cast<mode_t>(*mode);
}

// A bound, listening socket at paths.path whose file has exactly `mode`,
// whatever the umask (which bind() applies). The socket is bound under
// paths.bound, given its mode, set listening and only then renamed to
// paths.path: a peer that finds the file (a tool or bad_peer scanning the
// directory) can connect at once and never sees another mode. bind() fails
// on any existing file (a symlink too), so the file is ours; the directory
// is one nobody else may write (PrepareTmpdir), so the chmod and the rename
// reach that same file. On any failure nothing is left at either name.
pmix_status_t BindAndListen(const SocketPaths& paths, mode_t mode, int* listen_fd) {
  sockaddr_un addr;
  if (!MakeAddress(paths.bound, &addr)) return PMIX_ERR_BAD_PARAM;  // fits where path does
  pmix_status_t rc = ClearPath(paths.bound);  // a leftover of a server killed before its rename
  if (rc != PMIX_SUCCESS) return rc;
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return PMIX_ERR_OUT_OF_RESOURCE;
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    int err = errno;
    ::close(fd);
    Say(g_services, 0, "usock: cannot bind %s: %s", paths.bound.c_str(), std::strerror(err));
    return err == EACCES ? PMIX_ERR_NO_PERMISSIONS : PMIX_ERROR;
  }
  const char* failed = nullptr;
  if (::chmod(paths.bound.c_str(), mode) != 0) {
    failed = "set the mode of";
  } else if (::listen(fd, SOMAXCONN) != 0) {
    failed = "listen at";
  } else if (::rename(paths.bound.c_str(), paths.path.c_str()) != 0) {
    failed = "rename into place";
  }
  if (failed != nullptr) {
    int err = errno;
    ::close(fd);
    ::unlink(paths.bound.c_str());
    Say(g_services, 0, "usock: cannot %s %s: %s", failed, paths.bound.c_str(), std::strerror(err));
    return PMIX_ERROR;
  }
  *listen_fd = fd;
  return PMIX_SUCCESS;
}

pmix_status_t Listen(const pmix_info_t info[], size_t ninfo, int* listen_fd, char** uri) {
  auto dir = common::InfoString(common::FindInfo(info, ninfo, PMIX_SERVER_TMPDIR));
  if (!dir || dir->empty() || dir->front() != '/') {
    Say(g_services, 0, "usock: PMIX_SERVER_TMPDIR must name an absolute directory");
    return PMIX_ERR_BAD_PARAM;
  }
  SocketPaths paths = NextSocketPaths(*dir);
  const std::string& path = paths.path;
  sockaddr_un addr;
  if (!MakeAddress(path, &addr)) {
    Say(g_services, 0, "usock: socket path %s is longer than the %zu bytes a Unix socket allows",
        path.c_str(), sizeof addr.sun_path - 1);
    return PMIX_ERR_BAD_PARAM;
  }
  auto mode = SocketMode(info, ninfo);
  if (!mode) {
    Say(g_services, 0, "usock: PMIX_SOCKET_MODE must be an integer mode of at most 0777");
    return PMIX_ERR_BAD_PARAM;
  }
  pmix_status_t rc = PrepareTmpdir(*dir);
  if (rc != PMIX_SUCCESS) return rc;
  if ((rc = ClearPath(path)) != PMIX_SUCCESS) return rc;
  std::string text = std::string(kScheme) + path;
  char* copy = ::strdup(text.c_str());
  if (copy == nullptr) return PMIX_ERR_NOMEM;
  if ((rc = BindAndListen(paths, *mode, listen_fd)) != PMIX_SUCCESS) {
    std::free(copy);
    return rc;
  }
  *uri = copy;
  return PMIX_SUCCESS;
}

void Unlisten(int listen_fd, const char* uri) {
  if (listen_fd >= 0) ::close(listen_fd);
  if (uri == nullptr || std::strncmp(uri, kScheme, std::strlen(kScheme)) != 0) return;
  std::string path(uri + std::strlen(kScheme));
  if (IsOurSocket(path)) ::unlink(path.c_str());
}

pmix_status_t Accept(int listen_fd, int* fd) { return common::AcceptOne(listen_fd, fd); }

// A blocking connect bounded by SO_SNDTIMEO (which Unix sockets honour for
// connect, also when the listener's backlog is full), then non-blocking.
pmix_status_t Connect(const char* uri, int timeout_ms, int* out_fd) {
  if (uri == nullptr || std::strncmp(uri, kScheme, std::strlen(kScheme)) != 0) {
    return PMIX_ERR_NOT_SUPPORTED;
  }
  sockaddr_un addr;
  if (!MakeAddress(uri + std::strlen(kScheme), &addr)) return PMIX_ERR_BAD_PARAM;
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return PMIX_ERR_OUT_OF_RESOURCE;
  int ms = common::EffectiveTimeout(timeout_ms);
  timeval tv{ms / 1000, (ms % 1000) * 1000};
  int rc = ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  while (rc == 0 && ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    if (errno == EISCONN) break;
    rc = errno == EINTR ? 0 : -1;
  }
  int err = errno;
  if (rc != 0 || ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) {
    ::close(fd);
    return rc != 0 ? common::ConnectError(err == EINPROGRESS ? EAGAIN : err) : PMIX_ERROR;
  }
  *out_fd = fd;
  return PMIX_SUCCESS;
}

}  // namespace

const pmix_ptl_module_t kModule = {"usock", Listen, Unlisten, Accept, Connect};

void Configure(const pmix_mca_services_t* services) { g_services = services; }

pmix_status_t PrepareTmpdir(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    int err = errno;
    Say(g_services, 0, "usock: cannot create %s: %s", dir.c_str(), std::strerror(err));
    return err == EACCES || err == EPERM || err == EROFS ? PMIX_ERR_NO_PERMISSIONS
                                                         : PMIX_ERR_NOT_FOUND;
  }
  struct stat st;
  if (::lstat(dir.c_str(), &st) != 0) return PMIX_ERR_NOT_FOUND;
  const char* why = S_ISLNK(st.st_mode)        ? "is a symbolic link"
                    : !S_ISDIR(st.st_mode)     ? "is not a directory"
                    : st.st_uid != ::geteuid() ? "is not owned by us"
                    : (st.st_mode & 022) != 0  ? "is writable by group or others"
                                               : nullptr;
  if (why != nullptr) {
    Say(g_services, 0, "usock: refusing tmpdir %s: it %s", dir.c_str(), why);
    return PMIX_ERR_NO_PERMISSIONS;
  }
  return PMIX_SUCCESS;
}

}  // namespace pmix::ptl::usock
