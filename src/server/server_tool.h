// Tools on the server (standard §18.1, §17.3.19): whether tools may
// connect, their admission, their identities.
//
// A server admits tools when PMIx_server_init was given
// PMIX_SERVER_TOOL_SUPPORT, PMIX_SERVER_SYSTEM_SUPPORT or
// PMIX_SERVER_SESSION_SUPPORT (a launcher tool's server is given them); without
// them a tool's hello is refused with PMIX_ERR_NOT_SUPPORTED, and nothing
// changes for clients either way. Where tools find the server is
// server_rendezvous.h.
//
// Admission of a tool (a hello with role "tool"):
//   1. codec and psec module as for clients; the credential is validated
//      by psec, which yields the tool's uid/gid (no registration to match);
//   2. its identity: the nspace/rank it asked for (PMIX_TOOL_NSPACE/RANK,
//      or kept from an earlier server), or none (empty nspace) -- an
//      identity already connected here, or one of a registered namespace,
//      is refused (PMIX_EXISTS: such a process connects as a client);
//   3. the host's tool_connected upcall decides, given PMIX_VERSION_INFO,
//      PMIX_USERID, PMIX_GRPID, the requested PMIX_NSPACE/PMIX_RANK (when
//      given) and the tool's own PMIx_tool_init directives; its callback's
//      status refuses or admits, its proc (when not NULL and named) is the
//      identity, else the requested one, else one the library assigns
//      ("<server nspace>.tool.<n>", rank 0);
//      without the upcall the library admits only tools of the server's
//      own uid (a host that wants others provides the upcall: the standard
//      leaves hosts without it free to refuse all);
//   4. the welcome (server_internal.h) plus the tool's identity.
// A tool is a peer with is_tool set and no namespace: it uses the client
// requests (query, spawn, job control, log, publish/lookup, events, get of
// a namespace's data, IOF), takes part in no collective, and its loss is
// no process's termination.
//
// Threads: progress thread only.
#ifndef PMIXX_SRC_SERVER_SERVER_TOOL_H
#define PMIXX_SRC_SERVER_SERVER_TOOL_H

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "mca/ptl/base/frame.h"
#include "pmix_common.h"
#include "src/common/status.h"

namespace pmix::wire {
class Connection;
struct Hello;
}  // namespace pmix::wire

namespace pmix::server {

struct Server;
struct Peer;

// The server's tool support (Server::tools).
struct ToolSupport {
  bool enabled = false;   // tools are admitted
  bool tool = false;      // PMIX_SERVER_TOOL_SUPPORT: the per-pid and per-nspace files
  bool session = false;   // PMIX_SERVER_SESSION_SUPPORT: pmix.<host>.tool
  bool system = false;    // PMIX_SERVER_SYSTEM_SUPPORT: pmix.sys.<host>
  std::string launcher_file;  // PMIX_LAUNCHER_RENDEZVOUS_FILE (or env PMIX_LAUNCHER_RNDZ_FILE)
  std::string report_uri;     // PMIX_TCP_REPORT_URI: "-", "+", or a file
  std::vector<std::string> files;  // rendezvous files this server created (removed at finalize)
  uint32_t next_id = 0;            // library-assigned identities
  // Connected tools by identity, and the URI each advertised (a tool that
  // is a server too puts PMIX_SERVER_URI among its directives).
  std::map<std::pair<std::string, pmix_rank_t>, std::shared_ptr<Peer>> connected;
  std::map<std::pair<std::string, pmix_rank_t>, std::string> advertised;
};

// Reads the tool attributes of PMIx_server_init (and PMIX_LAUNCHER_RNDZ_FILE
// from the environment) into s.tools.
void ConfigureTools(Server& s, std::span<const pmix_info_t> info);

// Admits or refuses a tool's hello (see the file comment).
void AdmitTool(Server& s, const std::shared_ptr<wire::Connection>& conn, const ptl::Frame& hello,
               const wire::Hello& h);

// The connected tool with that identity, or nullptr.
std::shared_ptr<Peer> FindTool(Server& s, const pmix_proc_t& proc);

// The URI the connected tool `proc` advertised, if any.
std::optional<std::string> AdvertisedUri(Server& s, const pmix_proc_t& proc);

// A tool's connection closed: forget it (server_peers.cc's loss hook).
void ToolsOnPeerLost(Server& s, const std::shared_ptr<Peer>& peer);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_TOOL_H
