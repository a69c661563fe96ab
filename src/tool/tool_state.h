// The tool library's state (PMIx_tool_init .. PMIx_tool_finalize): the
// servers the tool is connected to (standard §18.1, §18.5).
//
// A tool is a client (client_link.h): the process's Client holds the
// primary server's connection in Client::conn and its identity in
// Client::server, so every client API talks to the primary. The Tool
// holds every connection, in attachment order; switching the primary
// (PMIx_tool_set_server) only changes what Client::conn points at. With
// no primary (never connected, or the primary disconnected) requests that
// need a server fail with PMIX_ERR_UNREACH (Client::singleton is set).
//
// Losing the primary raises PMIX_ERR_LOST_CONNECTION to the tool's own
// handlers (as for a client); losing another server only drops it.
//
// Threads: progress thread only, like the Client.
#ifndef PMIXX_SRC_TOOL_TOOL_STATE_H
#define PMIXX_SRC_TOOL_TOOL_STATE_H

#include <memory>
#include <string>
#include <vector>

#include "pmix_common.h"
#include "src/client/client_link.h"
#include "src/common/status.h"
#include "src/wire/connection.h"

namespace pmix::tool {

struct Link {
  pmix_proc_t server{};
  std::string uri;
  std::shared_ptr<wire::Connection> conn;
};

struct Tool {
  std::vector<Link> links;  // attachment order
  bool launcher = false;    // PMIx_tool_init started the process's server (PMIX_LAUNCHER)
};

// Progress thread: the tool, or nullptr outside init..finalize.
Tool* CurrentTool();
void InstallTool(std::unique_ptr<Tool> tool);  // nullptr: deletes it

// Takes over a new connection; it becomes the primary when `primary` or
// when there is none. PMIX_ERR_INIT without a tool or client state.
Status AddLink(client::Connected&& connected, bool primary);
// The link to `server`, or nullptr.
Link* FindLink(const pmix_proc_t& server);
// Makes `link` the primary.
void MakePrimary(const Link& link);
// Closes the connection to `server` (the primary too); false when there is none.
bool DropLink(const pmix_proc_t& server);
// The primary's link, or nullptr.
Link* PrimaryLink();

}  // namespace pmix::tool

#endif  // PMIXX_SRC_TOOL_TOOL_STATE_H
