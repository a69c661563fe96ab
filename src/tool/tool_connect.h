// How a tool finds a server and connects to it (standard §18.1.1,
// §18.1.2): the connection attributes of PMIx_tool_init and
// PMIx_tool_attach_to_server, and the precedence chain over them.
//
// The chain, first match wins; a named target that cannot be reached is
// an error (the chain does not go on), except PMIX_CONNECT_SYSTEM_FIRST:
//   PMIX_TOOL_ATTACHMENT_FILE  that file (rendezvous format)
//   PMIX_SERVER_URI / PMIX_TCP_URI  that URI ("nspace.rank;uri" or a bare
//                              ptl URI; "file:<path>" names a file holding
//                              it); both given is PMIX_ERR_BAD_PARAM; with
//                              PMIX_TCP_URI only a tcp URI is used
//   PMIX_SERVER_PIDINFO        pmix.<host>.tool.<pid> under the server tmpdir
//   PMIX_SERVER_NSPACE         pmix.<host>.tool.<nspace> under the server tmpdir
//   PMIX_CONNECT_TO_SYSTEM     pmix.sys.<host> in the system tmpdir
//   PMIX_CONNECT_SYSTEM_FIRST  that file if it is there and answers, else on
//   default                    every pmix.<host>.tool* file under the server
//                              tmpdir, until a server accepts
// "Under" a directory means in it or in its subdirectories (at most
// kSearchDepth levels down, symlinks not followed), as a launcher's
// session directory sits in TMPDIR. The server tmpdir is PMIX_SERVER_TMPDIR
// (the attribute, else the environment variable), else TMPDIR, else /tmp;
// the system tmpdir likewise from PMIX_SYSTEM_TMPDIR. <host> is
// gethostname(), or PMIX_HOSTNAME when given.
//
// Delayed connection: a named file that is not there yet, or a server that
// does not answer yet, is tried again PMIX_CONNECT_MAX_RETRIES times,
// PMIX_CONNECT_RETRY_DELAY seconds apart (default 1 s; no retries unless
// asked); PMIX_WAIT_FOR_CONNECTION keeps trying until PMIX_TIMEOUT seconds
// passed (0 or none: without end). The default search is never retried.
//
// Threads: any (blocking, bounded as above); no shared state.
#ifndef PMIXX_SRC_TOOL_TOOL_CONNECT_H
#define PMIXX_SRC_TOOL_TOOL_CONNECT_H

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "pmix_common.h"
#include "src/client/client_link.h"
#include "src/common/status.h"

namespace pmix::tool {

inline constexpr int kSearchDepth = 3;

struct ConnectOptions {
  std::optional<std::string> attachment_file;
  std::optional<std::string> uri;  // PMIX_SERVER_URI or PMIX_TCP_URI, a file: already read
  bool tcp_only = false;           // it came as PMIX_TCP_URI
  std::optional<pid_t> pid;
  std::optional<std::string> nspace;
  bool to_system = false;
  bool system_first = false;
  std::string server_tmpdir;
  std::string system_tmpdir;
  std::string hostname;
  int max_retries = 0;
  std::chrono::milliseconds retry_delay{1000};
  bool wait = false;  // PMIX_WAIT_FOR_CONNECTION
  std::chrono::seconds timeout{0};  // PMIX_TIMEOUT with wait (0: none)

  // Whether any attribute names a particular server.
  bool Targeted() const {
    return attachment_file || uri || pid || nspace || to_system;
  }
};

// Reads the attributes (see the file comment). PMIX_ERR_BAD_PARAM for both
// URIs, a value of the wrong type, or a "file:" URI whose file cannot be
// read (its status otherwise).
Result<ConnectOptions> ReadConnectOptions(std::span<const pmix_info_t> info);

// A server the chain may try: where it listens, and who it is when its
// file said so (nspace empty otherwise).
struct Candidate {
  pmix_proc_t server{};
  std::string uri;
};
// True for a candidate the caller is connected to already: skipped.
using Skip = std::function<bool(const Candidate&)>;

// Runs the chain for `hello`. The connection and welcome, or: the refusing
// server's status, PMIX_ERR_NOT_FOUND when a named file does not exist (in
// time), PMIX_ERR_UNREACH when nothing (new) answered.
Result<client::Connected> Rendezvous(const ConnectOptions& opts, const wire::Hello& hello,
                                     const Skip& skip);

}  // namespace pmix::tool

#endif  // PMIXX_SRC_TOOL_TOOL_CONNECT_H
