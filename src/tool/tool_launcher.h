// A launcher tool (PMIX_LAUNCHER, standard §18.1, §18.2): a tool that is
// also a server, so tools it starts (or any tool of its user) can attach to
// it, and that is reached through rendezvous files of its own.
//
// StartLauncherServer runs PMIx_server_init for the tool's process with
// tool support (PMIX_SERVER_TOOL_SUPPORT: pmix.<host>.tool.<pid> and
// .<tool nspace> in its tmpdir), the tool's identity as the server's, and
// the tool's own PMIX_SERVER_TMPDIR, PMIX_SYSTEM_TMPDIR,
// PMIX_SERVER_SESSION_SUPPORT, PMIX_SERVER_SYSTEM_SUPPORT,
// PMIX_LAUNCHER_RENDEZVOUS_FILE and PMIX_TCP_REPORT_URI directives. Its
// host module relays what its tools ask (query, spawn, job control, log)
// to the launcher's primary server through the client API; with no
// primary they fail with PMIX_ERR_UNREACH. Tools of the launcher's own
// user are admitted (server_tool.h, no tool_connected upcall).
//
// The process may also call the server API itself (register namespaces,
// deliver IO) as any host would.
//
// Threads: Start/Stop on the caller's thread (not the progress thread),
// under the tool's lock; LauncherPeerUri from any thread but the progress
// thread.
#ifndef PMIXX_SRC_TOOL_TOOL_LAUNCHER_H
#define PMIXX_SRC_TOOL_TOOL_LAUNCHER_H

#include <optional>
#include <span>
#include <string>

#include "pmix_common.h"
#include "src/common/status.h"

namespace pmix::tool {

Status StartLauncherServer(const pmix_proc_t& me, std::span<const pmix_info_t> info);
void StopLauncherServer();

// The URI a tool connected to this process's server advertised (its own
// listener, PMIX_SERVER_URI in its hello), when `proc` is connected here.
std::optional<std::string> LauncherPeerUri(const pmix_proc_t& proc);

}  // namespace pmix::tool

#endif  // PMIXX_SRC_TOOL_TOOL_LAUNCHER_H
