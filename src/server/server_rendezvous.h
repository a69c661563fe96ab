// Where tools find a server (standard §18.1): the rendezvous files a
// tool-enabled server writes once it listens, and removes at finalize
// (format and names: src/wire/rendezvous.h).
//
//   PMIX_SERVER_TOOL_SUPPORT     <tmpdir>/pmix.<host>.tool.<pid> and
//                                <tmpdir>/pmix.<host>.tool.<server nspace>, mode 0600
//   PMIX_SERVER_SESSION_SUPPORT  <tmpdir>/pmix.<host>.tool, mode 0600
//   PMIX_SERVER_SYSTEM_SUPPORT   <system tmpdir>/pmix.sys.<host>, mode 0640
//   PMIX_LAUNCHER_RENDEZVOUS_FILE (or PMIX_LAUNCHER_RNDZ_FILE in the
//                                environment) that file, mode 0600
//   PMIX_TCP_REPORT_URI          "-": the URI line on stdout, "+": on
//                                stderr, a number: "<varnames>;<URI line>" to
//                                that pipe fd (closed after), else a file with
//                                the URI line and the version (as OpenPMIx)
// <host> is the server's PMIX_HOSTNAME; the URI is that of the tcp
// listener when there is one (what OpenPMIx's tools expect), else the
// first listener's. A file of a live server is not replaced: for the
// system file (one system server per node) and the per-pid/per-nspace and
// launcher files that fails PMIx_server_init with PMIX_EXISTS; the shared
// session file is then skipped (the standard allows it: several servers
// may share a tmpdir). Stale files are reclaimed (rendezvous.h).
//
// Threads: progress thread only.
#ifndef PMIXX_SRC_SERVER_SERVER_RENDEZVOUS_H
#define PMIXX_SRC_SERVER_SERVER_RENDEZVOUS_H

#include <string>

#include "src/common/status.h"

namespace pmix::server {

struct Server;

// The URI tools are told (see above); empty without listeners.
std::string ToolUri(const Server& s);

// Writes every file s.tools asks for; on failure removes what it wrote.
Status WriteRendezvousFiles(Server& s);
// Removes the files WriteRendezvousFiles wrote.
void RemoveRendezvousFiles(Server& s);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_RENDEZVOUS_H
