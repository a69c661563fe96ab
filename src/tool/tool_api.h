// Pieces the tool's API files share (tool.cc: init/finalize,
// tool_servers.cc: attach, disconnect, the server list, the primary).
//
// Threads: as each says. The caller-thread ones run under ToolMutex().
#ifndef PMIXX_SRC_TOOL_TOOL_API_H
#define PMIXX_SRC_TOOL_TOOL_API_H

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "pmix_common.h"
#include "src/client/client_link.h"
#include "src/common/status.h"
#include "src/wire/buffer.h"
#include "src/wire/connection.h"

namespace pmix::tool {

// How long a server has to answer a hello.
inline constexpr std::chrono::milliseconds kHelloTimeout{10000};
// How long finalize/disconnect wait for the servers' goodbyes.
inline constexpr std::chrono::milliseconds kGoodbyeTimeout{5000};

// Serialises the tool's init, finalize and connection changes.
std::mutex& ToolMutex();

// The directives a tool sends with its hello (for the host's
// tool_connected): every info of `info` but pointers, which mean nothing
// in another process.
wire::Infos Forwardable(std::span<const pmix_info_t> info);

// Caller thread: hands a new connection to the tool on the progress
// thread (AddLink).
Status AdoptConnection(client::Connected&& connected, bool primary);

// Caller thread: whether the tool is connected to any server.
bool Connected();

// Caller thread: PMIx_tool_attach_to_server without the argument checks
// (proc, server: NULL allowed).
Status AttachOne(pmix_proc_t* proc, pmix_proc_t* server, std::span<const pmix_info_t> info);

// Progress thread: every connection of the tool.
std::vector<std::shared_ptr<wire::Connection>> AllServers();

// Progress thread: tells each server the tool leaves (kFinalize), waits
// for their answers (at most kGoodbyeTimeout), closes the connections,
// then runs `then`.
void SayGoodbye(std::vector<std::shared_ptr<wire::Connection>> conns, std::function<void()> then);

}  // namespace pmix::tool

#endif  // PMIXX_SRC_TOOL_TOOL_API_H
