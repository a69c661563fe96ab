// The tool's rendezvous chain (tool_connect.h).
#include "src/tool/tool_connect.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/wire/rendezvous.h"

namespace pmix::tool {
namespace {

constexpr std::chrono::milliseconds kConnectTimeout{10000};
using Clock = std::chrono::steady_clock;

std::string EnvOr(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::string(v) : fallback;
}

std::string TmpDir(std::span<const pmix_info_t> info, const char* key) {
  if (auto v = InfoString(info, key); v && !v->empty()) return *v;
  return EnvOr(key == std::string(PMIX_SERVER_TMPDIR) ? "PMIX_SERVER_TMPDIR" : "PMIX_SYSTEM_TMPDIR",
               EnvOr("TMPDIR", "/tmp"));
}

// PMIX_SERVER_URI / PMIX_TCP_URI: the URI, or the first line of a file:.
Result<std::string> UriValue(const std::string& value) {
  if (value.rfind("file:", 0) != 0) return value;
  auto r = wire::ReadRendezvousFile(value.substr(5));
  if (!r.ok()) return r.status();
  return r->server.nspace[0] != '\0' ? wire::FormatServerUri(r->server, r->uri) : r->uri;
}

Status ReadNumbers(std::span<const pmix_info_t> info, ConnectOptions& o) {
  if (const pmix_info_t* i = FindInfo(info, PMIX_SERVER_PIDINFO)) {
    int64_t pid = 0;
    if (i->value.type == PMIX_PID) pid = i->value.data.pid;
    else if (auto n = InfoInt(info, PMIX_SERVER_PIDINFO)) pid = *n;
    if (pid <= 0) return Status(PMIX_ERR_BAD_PARAM);
    o.pid = static_cast<pid_t>(pid);
  }
  if (auto n = InfoInt(info, PMIX_CONNECT_MAX_RETRIES)) o.max_retries = static_cast<int>(std::max<int64_t>(*n, 0));
  if (auto n = InfoInt(info, PMIX_CONNECT_RETRY_DELAY))
    o.retry_delay = std::chrono::seconds(std::max<int64_t>(*n, 0));
  if (auto n = InfoInt(info, PMIX_TIMEOUT)) o.timeout = std::chrono::seconds(std::max<int64_t>(*n, 0));
  return Status();
}

// The candidates a rendezvous file names: nothing when it is not there.
Result<Candidate> FromFile(const std::string& path) {
  auto r = wire::ReadRendezvousFile(path);
  if (!r.ok()) return r.status();
  return Candidate{r->server, r->uri};
}

// Files whose name is `name` (exact) or starts with `prefix`, under dir.
void Search(const std::string& dir, const std::string& name, bool prefix, int depth,
            std::vector<std::string>& found) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return;
  std::vector<std::string> subdirs;
  while (dirent* e = ::readdir(d)) {
    std::string entry = e->d_name;
    if (entry == "." || entry == "..") continue;
    std::string path = dir + (dir.back() == '/' ? "" : "/") + entry;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      if (depth > 0) subdirs.push_back(path);
    } else if (S_ISREG(st.st_mode) && (prefix ? entry.rfind(name, 0) == 0 : entry == name)) {
      found.push_back(path);
    }
  }
  ::closedir(d);
  std::sort(subdirs.begin(), subdirs.end());
  for (const std::string& sub : subdirs) Search(sub, name, prefix, depth - 1, found);
}

// One named file under a tree (the first found), else NOT_FOUND.
Result<Candidate> FindNamed(const std::string& root, const std::string& name) {
  std::vector<std::string> found;
  Search(root, name, false, kSearchDepth, found);
  if (found.empty()) return Status(PMIX_ERR_NOT_FOUND);
  std::sort(found.begin(), found.end());
  return FromFile(found.front());
}

Result<client::Connected> TryCandidate(const Candidate& c, const wire::Hello& hello,
                                       const ConnectOptions& o, const Skip& skip) {
  if (o.tcp_only && c.uri.rfind("tcp", 0) != 0) return Status(PMIX_ERR_NOT_SUPPORTED);
  if (skip && skip(c)) return Status(PMIX_ERR_UNREACH);
  output::Verbose("tool", 2, "connecting to %s", c.uri.c_str());
  return client::ConnectToServer(hello, c.uri, kConnectTimeout);
}

bool Retryable(const Status& st) {
  return st.code() == PMIX_ERR_NOT_FOUND || st.code() == PMIX_ERR_UNREACH ||
         st.code() == PMIX_ERR_TIMEOUT;
}

// A named target, tried again as the delayed-connection attributes say.
Result<client::Connected> Named(const std::function<Result<Candidate>()>& find,
                                const wire::Hello& hello, const ConnectOptions& o,
                                const Skip& skip) {
  const auto start = Clock::now();
  for (int attempt = 0;; ++attempt) {
    auto c = find();
    Result<client::Connected> conn = c.ok() ? TryCandidate(*c, hello, o, skip)
                                            : Result<client::Connected>(c.status());
    if (conn.ok() || !Retryable(conn.status())) return conn;
    bool again = o.wait ? (o.timeout.count() == 0 || Clock::now() - start < o.timeout)
                        : attempt < o.max_retries;
    if (!again) return conn;
    std::this_thread::sleep_for(o.retry_delay);
  }
}

Result<client::Connected> DefaultSearch(const ConnectOptions& o, const wire::Hello& hello,
                                        const Skip& skip) {
  std::vector<std::string> files;
  Search(o.server_tmpdir, wire::SessionFileName(o.hostname), true, kSearchDepth, files);
  std::sort(files.begin(), files.end());
  Status last = PMIX_ERR_UNREACH;
  for (const std::string& path : files) {
    auto c = FromFile(path);
    if (!c.ok()) continue;
    auto conn = TryCandidate(*c, hello, o, skip);
    if (conn.ok()) return conn;
    if (conn.status().code() != PMIX_ERR_UNREACH) last = conn.status();
  }
  return last;
}

}  // namespace

Result<ConnectOptions> ReadConnectOptions(std::span<const pmix_info_t> info) {
  ConnectOptions o;
  o.attachment_file = InfoString(info, PMIX_TOOL_ATTACHMENT_FILE);
  auto server_uri = InfoString(info, PMIX_SERVER_URI);
  auto tcp_uri = InfoString(info, PMIX_TCP_URI);
  if (server_uri && tcp_uri) return Status(PMIX_ERR_BAD_PARAM);
  if (server_uri || tcp_uri) {
    auto uri = UriValue(server_uri ? *server_uri : *tcp_uri);
    if (!uri.ok()) return uri.status();
    if (uri->empty()) return Status(PMIX_ERR_BAD_PARAM);
    o.uri = *uri;
    o.tcp_only = tcp_uri.has_value();
  }
  PMIX_RETURN_IF_ERROR(ReadNumbers(info, o));
  o.nspace = InfoString(info, PMIX_SERVER_NSPACE);
  if (o.nspace && (o.nspace->empty() || o.nspace->size() > PMIX_MAX_NSLEN))
    return Status(PMIX_ERR_BAD_PARAM);
  o.to_system = InfoFlag(info, PMIX_CONNECT_TO_SYSTEM);
  o.system_first = InfoFlag(info, PMIX_CONNECT_SYSTEM_FIRST);
  o.wait = InfoFlag(info, PMIX_WAIT_FOR_CONNECTION);
  o.server_tmpdir = TmpDir(info, PMIX_SERVER_TMPDIR);
  o.system_tmpdir = TmpDir(info, PMIX_SYSTEM_TMPDIR);
  o.hostname = InfoString(info, PMIX_HOSTNAME).value_or("");
  if (o.hostname.empty()) {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    o.hostname = host;
  }
  return o;
}

Result<client::Connected> Rendezvous(const ConnectOptions& o, const wire::Hello& hello,
                                     const Skip& skip) {
  const std::string system_file = o.system_tmpdir + "/" + wire::SystemFileName(o.hostname);
  if (o.attachment_file) {
    return Named([&] { return FromFile(*o.attachment_file); }, hello, o, skip);
  }
  if (o.uri) {
    return Named(
        [&]() -> Result<Candidate> {
          Candidate c;
          PMIX_RETURN_IF_ERROR(wire::ParseServerUri(*o.uri, &c.server, &c.uri));
          return c;
        },
        hello, o, skip);
  }
  if (o.pid) {
    std::string name = wire::PidFileName(o.hostname, *o.pid);
    return Named([&] { return FindNamed(o.server_tmpdir, name); }, hello, o, skip);
  }
  if (o.nspace) {
    std::string name = wire::NspaceFileName(o.hostname, *o.nspace);
    return Named([&] { return FindNamed(o.server_tmpdir, name); }, hello, o, skip);
  }
  if (o.to_system) return Named([&] { return FromFile(system_file); }, hello, o, skip);
  if (o.system_first) {
    auto c = FromFile(system_file);
    if (c.ok()) {
      auto conn = TryCandidate(*c, hello, o, skip);
      if (conn.ok()) return conn;
    }
  }
  return DefaultSearch(o, hello, skip);
}

}  // namespace pmix::tool
