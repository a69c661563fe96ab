// Rendezvous file names, format, exclusive writing (rendezvous.h).
#include "src/wire/rendezvous.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <ctime>

#include "pmix.h"

namespace pmix::wire {
namespace {

constexpr size_t kMaxFileSize = 64 * 1024;

std::string_view NextLine(std::string_view& text) {
  size_t nl = text.find('\n');
  std::string_view line = text.substr(0, nl);
  text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

template <class T>
bool ParseNumber(std::string_view text, T* out) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

// The file's text, at most kMaxFileSize bytes.
Result<std::string> Slurp(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    if (errno == ENOENT) return Status(PMIX_ERR_NOT_FOUND);
    return Status(errno == EACCES || errno == EPERM ? PMIX_ERR_NO_PERMISSIONS
                                                    : PMIX_ERR_FILE_OPEN_FAILURE);
  }
  std::string text;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0 && text.size() < kMaxFileSize)
    text.append(buf, static_cast<size_t>(n));
  ::close(fd);
  if (n < 0) return Status(PMIX_ERR_FILE_READ_FAILURE);
  return text;
}

bool Alive(pid_t pid) { return pid > 0 && (::kill(pid, 0) == 0 || errno == EPERM); }

Status CreateExclusive(const std::string& path, const std::string& text, mode_t mode) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
  if (fd < 0) {
    if (errno == EEXIST) return Status(PMIX_EXISTS);
    return Status(errno == EACCES || errno == EPERM ? PMIX_ERR_NO_PERMISSIONS
                                                    : PMIX_ERR_FILE_OPEN_FAILURE);
  }
  // The umask may have narrowed the mode; never widen it beyond `mode`.
  (void)::fchmod(fd, mode);
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      ::unlink(path.c_str());
      return Status(PMIX_ERR_FILE_WRITE_FAILURE);
    }
    done += static_cast<size_t>(n);
  }
  return ::close(fd) == 0 ? Status() : Status(PMIX_ERR_FILE_WRITE_FAILURE);
}

}  // namespace

std::string PidFileName(std::string_view host, pid_t pid) {
  return "pmix." + std::string(host) + ".tool." + std::to_string(pid);
}

std::string NspaceFileName(std::string_view host, std::string_view nspace) {
  return "pmix." + std::string(host) + ".tool." + std::string(nspace);
}

std::string SessionFileName(std::string_view host) { return "pmix." + std::string(host) + ".tool"; }

std::string SystemFileName(std::string_view host) { return "pmix.sys." + std::string(host); }

std::string FormatServerUri(const pmix_proc_t& server, std::string_view uri) {
  std::string ns(server.nspace, ::strnlen(server.nspace, PMIX_MAX_NSLEN));
  return ns + "." + std::to_string(server.rank) + ";" + std::string(uri);
}

Status ParseServerUri(std::string_view text, pmix_proc_t* server, std::string* uri) {
  size_t semi = text.find(';');
  if (semi == std::string_view::npos) {
    if (text.empty()) return Status(PMIX_ERR_BAD_PARAM);
    PMIx_Load_procid(server, "", PMIX_RANK_UNDEF);
    *uri = std::string(text);
    return Status();
  }
  std::string_view id = text.substr(0, semi), rest = text.substr(semi + 1);
  size_t dot = id.rfind('.');
  pmix_rank_t rank = 0;
  if (rest.empty() || dot == std::string_view::npos || dot > PMIX_MAX_NSLEN ||
      !ParseNumber(id.substr(dot + 1), &rank))
    return Status(PMIX_ERR_BAD_PARAM);
  std::string nspace(id.substr(0, dot));
  PMIx_Load_procid(server, nspace.c_str(), rank);
  *uri = std::string(rest);
  return Status();
}

std::string FormatRendezvous(const Rendezvous& r) {
  std::string out = FormatServerUri(r.server, r.uri) + "\n" + r.version + "\n";
  out += std::to_string(r.pid) + "\n";
  out += std::to_string(r.uid) + ":" + std::to_string(r.gid) + "\n";
  std::time_t now = std::time(nullptr);
  char when[64] = {};
  if (::ctime_r(&now, when) == nullptr) std::strcpy(when, "\n");
  out += std::string(when) + "\n";
  return out;
}

Result<Rendezvous> ParseRendezvous(std::string_view text) {
  Rendezvous r;
  PMIX_RETURN_IF_ERROR(ParseServerUri(NextLine(text), &r.server, &r.uri));
  r.version = std::string(NextLine(text));
  std::string_view pid = NextLine(text), ids = NextLine(text);
  long long value = 0;
  if (ParseNumber(pid, &value) && value > 0) r.pid = static_cast<pid_t>(value);
  size_t colon = ids.find(':');
  unsigned long uid = 0, gid = 0;
  if (colon != std::string_view::npos && ParseNumber(ids.substr(0, colon), &uid) &&
      ParseNumber(ids.substr(colon + 1), &gid)) {
    r.uid = static_cast<uid_t>(uid);
    r.gid = static_cast<gid_t>(gid);
  }
  return r;
}

Result<Rendezvous> ReadRendezvousFile(const std::string& path) {
  auto text = Slurp(path);
  if (!text.ok()) return text.status();
  return ParseRendezvous(*text);
}

Status WriteRendezvousFile(const std::string& path, const Rendezvous& r, mode_t mode) {
  std::string text = FormatRendezvous(r);
  Status made = CreateExclusive(path, text, mode);
  if (made.code() != PMIX_EXISTS) return made;
  // Someone's file is there: replace it only when its server is gone.
  auto old = ReadRendezvousFile(path);
  if (!old.ok() || old->pid == 0 || Alive(old->pid)) return Status(PMIX_EXISTS);
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return Status(PMIX_EXISTS);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) return Status(PMIX_ERR_NO_PERMISSIONS);
  return CreateExclusive(path, text, mode);
}

Status ReplaceFile(const std::string& path, const std::string& text, mode_t mode) {
  // A name nobody else uses: another one on a (planted) clash.
  static unsigned counter = 0;
  for (int attempt = 0; attempt < 16; ++attempt) {
    std::string temp = path + ".tmp." + std::to_string(::getpid()) + "." +
                       std::to_string(++counter) + "." + std::to_string(std::time(nullptr));
    Status made = CreateExclusive(temp, text, mode);
    if (made.code() == PMIX_EXISTS) continue;
    if (!made.ok()) return made;
    if (::rename(temp.c_str(), path.c_str()) == 0) return Status();
    int err = errno;
    ::unlink(temp.c_str());
    return Status(err == EACCES || err == EPERM ? PMIX_ERR_NO_PERMISSIONS
                                                : PMIX_ERR_FILE_WRITE_FAILURE);
  }
  return Status(PMIX_EXISTS);
}

void RemoveRendezvousFile(const std::string& path, pid_t pid) {
  auto r = ReadRendezvousFile(path);
  if (r.ok() && r->pid == pid) ::unlink(path.c_str());
}

}  // namespace pmix::wire
