// Cleanup registrations: parsing, the per-target registry and removal.
// Removal works on directory descriptors (openat/fstatat/unlinkat) so
// that no symbolic link below a registered path is followed.
#include "src/server/server_cleanup.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/common/text.h"

namespace pmix::server::cleanup {
namespace {

constexpr int kMaxDepth = 64;  // deeper trees are left in place
constexpr const char* kStream = "server";

// Absolute, not "/", no "." or ".." component; trailing slashes dropped.
bool NormalizePath(std::string* path) {
  while (path->size() > 1 && path->back() == '/') path->pop_back();
  if (path->empty() || path->front() != '/' || *path == "/") return false;
  size_t start = 1;
  while (start <= path->size()) {
    size_t slash = path->find('/', start);
    if (slash == std::string::npos) slash = path->size();
    std::string_view part = std::string_view(*path).substr(start, slash - start);
    if (part == "." || part == "..") return false;
    start = slash + 1;
  }
  return true;
}

// Reads a comma-delimited string directive into paths (validated) or names.
Status ReadList(const pmix_info_t& info, bool are_paths, std::vector<std::string>* out) {
  if (info.value.type != PMIX_STRING || info.value.data.string == nullptr)
    return PMIX_ERR_BAD_PARAM;
  for (std::string& item : SplitCommas(info.value.data.string)) {
    if (are_paths && !NormalizePath(&item)) {
      output::Verbose(kStream, 1,
                      "job control: cleanup path '%s' refused (absolute only, no . or .., not /)",
                      item.c_str());
      return PMIX_ERR_BAD_PARAM;
    }
    out->push_back(std::move(item));
  }
  return Status();
}

bool IsIgnored(const Request& req, std::string_view name) {
  for (const std::string& kept : req.ignore)
    if (kept == name) return true;
  return false;
}

bool Owned(const Request& req, const struct stat& st) {
  return req.owner == 0 || st.st_uid == req.owner;
}

std::pair<std::string, std::string> SplitParent(const std::string& path) {
  size_t slash = path.rfind('/');
  return {slash == 0 ? std::string("/") : path.substr(0, slash), path.substr(slash + 1)};
}

size_t RemoveDir(int parent, const char* name, const Request& req, int depth, bool top);

// Removes the entries of the open directory fd that req allows.
size_t ClearDir(int fd, const Request& req, int depth) {
  int copy = ::dup(fd);
  DIR* dir = copy < 0 ? nullptr : ::fdopendir(copy);
  if (dir == nullptr) {
    if (copy >= 0) ::close(copy);
    return 0;
  }
  std::vector<std::string> names;
  while (struct dirent* entry = ::readdir(dir)) {
    std::string_view name = entry->d_name;
    if (name != "." && name != ".." && !IsIgnored(req, name)) names.emplace_back(name);
  }
  ::closedir(dir);
  size_t removed = 0;
  for (const std::string& name : names) {
    struct stat st;
    if (::fstatat(fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      if (req.recursive && depth < kMaxDepth)
        removed += RemoveDir(fd, name.c_str(), req, depth + 1, false);
      continue;
    }
    if (req.empty_only || !Owned(req, st)) continue;
    if (::unlinkat(fd, name.c_str(), 0) == 0) ++removed;
  }
  return removed;
}

size_t RemoveDir(int parent, const char* name, const Request& req, int depth, bool top) {
  struct stat st;
  if (::fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode)) return 0;
  if (!Owned(req, st)) {
    output::Verbose(kStream, 1, "job control: cleanup of '%s' skipped: not the requester's", name);
    return 0;
  }
  int fd = ::openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return 0;
  size_t removed = ClearDir(fd, req, depth);
  ::close(fd);
  if (top && req.leave_topdir) return removed;
  if (::unlinkat(parent, name, AT_REMOVEDIR) == 0) ++removed;
  return removed;
}

// Runs fn(parent_fd, last_component) for an absolute path.
template <class Fn>
size_t AtParent(const std::string& path, Fn&& fn) {
  auto [parent, name] = SplitParent(path);
  int pfd = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (pfd < 0) return 0;
  size_t removed = fn(pfd, name.c_str());
  ::close(pfd);
  return removed;
}

size_t RemoveFile(const std::string& path, const Request& req) {
  return AtParent(path, [&](int pfd, const char* name) -> size_t {
    struct stat st;
    if (IsIgnored(req, name) || ::fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return 0;
    if (S_ISDIR(st.st_mode) || !Owned(req, st)) return 0;
    return ::unlinkat(pfd, name, 0) == 0 ? 1 : 0;
  });
}

}  // namespace

bool IsCleanupKey(const char* key) {
  static constexpr const char* kKeys[] = {PMIX_REGISTER_CLEANUP,  PMIX_REGISTER_CLEANUP_DIR,
                                          PMIX_CLEANUP_RECURSIVE, PMIX_CLEANUP_EMPTY,
                                          PMIX_CLEANUP_IGNORE,    PMIX_CLEANUP_LEAVE_TOPDIR};
  for (const char* k : kKeys)
    if (key != nullptr && std::strncmp(key, k, PMIX_MAX_KEYLEN) == 0) return true;
  return false;
}

Status Split(std::span<const pmix_info_t> directives, Request* req, wire::Infos* rest) {
  for (const pmix_info_t& info : directives) {
    std::span<const pmix_info_t> one(&info, 1);
    if (PMIX_CHECK_KEY(&info, PMIX_REGISTER_CLEANUP)) {
      PMIX_RETURN_IF_ERROR(ReadList(info, true, &req->files));
    } else if (PMIX_CHECK_KEY(&info, PMIX_REGISTER_CLEANUP_DIR)) {
      PMIX_RETURN_IF_ERROR(ReadList(info, true, &req->dirs));
    } else if (PMIX_CHECK_KEY(&info, PMIX_CLEANUP_IGNORE)) {
      PMIX_RETURN_IF_ERROR(ReadList(info, false, &req->ignore));
    } else if (PMIX_CHECK_KEY(&info, PMIX_CLEANUP_RECURSIVE)) {
      req->recursive = InfoFlag(one, PMIX_CLEANUP_RECURSIVE);
    } else if (PMIX_CHECK_KEY(&info, PMIX_CLEANUP_EMPTY)) {
      req->empty_only = InfoFlag(one, PMIX_CLEANUP_EMPTY);
    } else if (PMIX_CHECK_KEY(&info, PMIX_CLEANUP_LEAVE_TOPDIR)) {
      req->leave_topdir = InfoFlag(one, PMIX_CLEANUP_LEAVE_TOPDIR);
    } else {
      PMIX_RETURN_IF_ERROR(rest->Append(info));
    }
  }
  return Status();
}

size_t Execute(const Request& req) {
  size_t removed = 0;
  for (const std::string& file : req.files) removed += RemoveFile(file, req);
  for (const std::string& dir : req.dirs)
    removed += AtParent(
        dir, [&](int pfd, const char* name) { return RemoveDir(pfd, name, req, 0, true); });
  output::Verbose(kStream, 2, "job control: cleanup removed %zu entries", removed);
  return removed;
}

void Registry::Add(const pmix_proc_t& target, Request req) {
  std::string nspace(target.nspace, ::strnlen(target.nspace, PMIX_MAX_NSLEN));
  by_target_[{std::move(nspace), target.rank}].push_back(std::move(req));
}

std::vector<Request> Registry::TakeProc(const pmix_proc_t& target) {
  std::string nspace(target.nspace, ::strnlen(target.nspace, PMIX_MAX_NSLEN));
  auto it = by_target_.find(std::make_pair(nspace, target.rank));
  if (it == by_target_.end()) return {};
  std::vector<Request> out = std::move(it->second);
  by_target_.erase(it);
  return out;
}

std::vector<Request> Registry::TakeNamespace(std::string_view nspace) {
  std::vector<Request> out;
  for (auto it = by_target_.begin(); it != by_target_.end();) {
    if (it->first.first != nspace) {
      ++it;
      continue;
    }
    for (Request& r : it->second) out.push_back(std::move(r));
    it = by_target_.erase(it);
  }
  return out;
}

std::vector<Request> Registry::TakeAll() {
  std::vector<Request> out;
  for (auto& [target, list] : by_target_)
    for (Request& r : list) out.push_back(std::move(r));
  by_target_.clear();
  return out;
}

size_t Registry::size() const {
  size_t n = 0;
  for (const auto& [target, list] : by_target_) n += list.size();
  return n;
}

}  // namespace pmix::server::cleanup
