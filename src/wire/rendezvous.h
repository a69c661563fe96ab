// Rendezvous files: how a tool finds a server (standard §18.1), in the
// names and format OpenPMIx 4.2 uses, so either library's tools can read
// the other's files.
//
// Names (ours are the same): in the server's tmpdir
// "pmix.<host>.tool.<pid>", "pmix.<host>.tool.<server nspace>" and
// "pmix.<host>.tool"; in the system tmpdir "pmix.sys.<host>".
//
// Content, one item per line:
//   <server nspace>.<server rank>;<URI>
//   <library version>
//   <server pid>
//   <server euid>:<server egid>
//   <creation time, ctime(3) format>
// A reader needs only the first line; the second is optional (files written
// by --report-uri have two lines). The URI line is also the form a server
// URI may take elsewhere (PMIX_SERVER_URI, --report-uri): "nspace.rank;URI";
// the server's rank is the part after the last '.' before the ';'.
//
// Files are created exclusively (O_CREAT|O_EXCL, never through a symlink)
// with the given mode. An existing file whose pid line names a process
// that no longer exists is stale: it is replaced. One of a live process
// (or unreadable) makes the write fail with PMIX_EXISTS.
//
// Threads: no shared state.
#ifndef PMIXX_SRC_WIRE_RENDEZVOUS_H
#define PMIXX_SRC_WIRE_RENDEZVOUS_H

#include <sys/types.h>

#include <string>
#include <string_view>

#include "pmix_common.h"
#include "src/common/status.h"

namespace pmix::wire {

struct Rendezvous {
  pmix_proc_t server{};
  std::string uri;      // as a ptl module takes it
  std::string version;  // empty when the file has none
  pid_t pid = 0;        // 0 when the file has none
  uid_t uid = 0;
  gid_t gid = 0;
};

std::string PidFileName(std::string_view host, pid_t pid);
std::string NspaceFileName(std::string_view host, std::string_view nspace);
std::string SessionFileName(std::string_view host);
std::string SystemFileName(std::string_view host);

// "nspace.rank;uri". Parse accepts it, or a bare URI (no ';': the server's
// identity unknown, nspace empty, rank PMIX_RANK_UNDEF); PMIX_ERR_BAD_PARAM
// for an empty URI, a malformed rank or an overlong nspace.
std::string FormatServerUri(const pmix_proc_t& server, std::string_view uri);
Status ParseServerUri(std::string_view text, pmix_proc_t* server, std::string* uri);

// The file's text (all five lines), and its reading (first line required).
std::string FormatRendezvous(const Rendezvous& r);
Result<Rendezvous> ParseRendezvous(std::string_view text);

// Reads and parses `path` (PMIX_ERR_NOT_FOUND when it does not exist,
// PMIX_ERR_NO_PERMISSIONS when it cannot be read).
Result<Rendezvous> ReadRendezvousFile(const std::string& path);

// Writes `r` to `path` as the file comment says (the directory must
// exist). PMIX_EXISTS when a live server owns the file.
Status WriteRendezvousFile(const std::string& path, const Rendezvous& r, mode_t mode);

// Writes `text` to `path`, replacing whatever is there without ever
// writing through it: a new file (O_EXCL | O_NOFOLLOW, `mode`) is made
// beside it and renamed over it, so a symbolic link planted at `path` is
// replaced, not followed, and a reader sees the old or the whole new text.
Status ReplaceFile(const std::string& path, const std::string& text, mode_t mode);

// Removes `path` if it still names process `pid` (another server may have
// reclaimed it since).
void RemoveRendezvousFile(const std::string& path, pid_t pid);

}  // namespace pmix::wire

#endif  // PMIXX_SRC_WIRE_RENDEZVOUS_H
