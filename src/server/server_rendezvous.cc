// The rendezvous files of a tool-enabled server (server_rendezvous.h).
#include "src/server/server_rendezvous.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "pmix.h"
#include "pmix_version.h"
#include "src/common/output.h"
#include "src/server/server_state.h"
#include "src/wire/rendezvous.h"

namespace pmix::server {
namespace {

// The environment variable names OpenPMIx sends with the URI to a pipe.
constexpr const char* kUriVarNames =
    "PMIX_SERVER_URI41:PMIX_SERVER_URI4:PMIX_SERVER_URI3:PMIX_SERVER_URI2:PMIX_SERVER_URI21";

std::string Join(const std::string& dir, const std::string& name) {
  return (dir.empty() || dir.back() == '/') ? dir + name : dir + "/" + name;
}

wire::Rendezvous Contents(const Server& s) {
  wire::Rendezvous r;
  r.server = s.myproc;
  r.uri = ToolUri(s);
  r.version = PMIXX_VERSION;
  r.pid = ::getpid();
  r.uid = ::geteuid();
  r.gid = ::getegid();
  return r;
}

// One file; `optional`: a live owner is not an error (the file is skipped).
Status WriteOne(Server& s, const std::string& path, mode_t mode, bool optional) {
  Status st = wire::WriteRendezvousFile(path, Contents(s), mode);
  if (st.ok()) {
    s.tools.files.push_back(path);
    output::Verbose("server", 2, "rendezvous file %s written", path.c_str());
    return st;
  }
  if (optional && st.code() == PMIX_EXISTS) {
    output::Verbose("server", 1, "rendezvous file %s belongs to a running server: not written",
                    path.c_str());
    return Status();
  }
  output::Error("server", "cannot write the rendezvous file %s: %s", path.c_str(),
                st.code() == PMIX_EXISTS ? "a running server owns it" : PMIx_Error_string(st.code()));
  return st;
}

bool WriteAll(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// PMIX_TCP_REPORT_URI, as OpenPMIx reports it.
Status ReportUri(Server& s) {
  const std::string& where = s.tools.report_uri;
  std::string line = wire::FormatServerUri(s.myproc, ToolUri(s));
  if (where == "-") return WriteAll(STDOUT_FILENO, line + "\n") ? Status() : Status(PMIX_ERROR);
  if (where == "+") return WriteAll(STDERR_FILENO, line + "\n") ? Status() : Status(PMIX_ERROR);
  char* end = nullptr;
  long fd = std::strtol(where.c_str(), &end, 10);
  if (end != where.c_str() && *end == '\0') {
    std::string text = std::string(kUriVarNames) + ";" + line;
    text.push_back('\0');
    bool ok = fd >= 0 && WriteAll(static_cast<int>(fd), text);
    ::close(static_cast<int>(fd));
    return ok ? Status() : Status(PMIX_ERR_FILE_WRITE_FAILURE);
  }
  // A file: replaced, never written through (a link planted at that name
  // is replaced, not followed), readable by its owner only, as the session
  // rendezvous file.
  Status st = wire::ReplaceFile(where, line + "\n" + PMIXX_VERSION + "\n", 0600);
  if (!st.ok())
    output::Error("server", "cannot write the URI to %s: %s", where.c_str(),
                  PMIx_Error_string(st.code()));
  return st;
}

Status WriteFiles(Server& s) {
  const ToolSupport& t = s.tools;
  const std::string& host = s.hostname;
  if (t.system)
    PMIX_RETURN_IF_ERROR(WriteOne(s, Join(s.system_tmpdir, wire::SystemFileName(host)), 0640, false));
  if (t.session)
    PMIX_RETURN_IF_ERROR(WriteOne(s, Join(s.tmpdir, wire::SessionFileName(host)), 0600, true));
  if (t.tool) {
    PMIX_RETURN_IF_ERROR(WriteOne(s, Join(s.tmpdir, wire::PidFileName(host, ::getpid())), 0600, false));
    PMIX_RETURN_IF_ERROR(
        WriteOne(s, Join(s.tmpdir, wire::NspaceFileName(host, s.myproc.nspace)), 0600, false));
  }
  if (!t.launcher_file.empty()) PMIX_RETURN_IF_ERROR(WriteOne(s, t.launcher_file, 0600, false));
  return Status();
}

}  // namespace

std::string ToolUri(const Server& s) {
  for (const auto& l : s.listeners) {
    if (l.uri().rfind("tcp", 0) == 0) return l.uri();
  }
  return s.listeners.empty() ? std::string() : s.listeners.front().uri();
}

Status WriteRendezvousFiles(Server& s) {
  Status st = WriteFiles(s);
  if (st.ok() && !s.tools.report_uri.empty()) st = ReportUri(s);
  if (!st.ok()) RemoveRendezvousFiles(s);
  return st;
}

void RemoveRendezvousFiles(Server& s) {
  for (const std::string& path : s.tools.files) wire::RemoveRendezvousFile(path, ::getpid());
  s.tools.files.clear();
}

}  // namespace pmix::server
