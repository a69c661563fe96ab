// The tool's server connections (tool_state.h).
#include "src/tool/tool_state.h"

#include <algorithm>

#include "pmix.h"

#include "src/client/client_state.h"
#include "src/common/output.h"
#include "src/runtime/context.h"

namespace pmix::tool {
namespace {

Tool* g_tool = nullptr;  // progress thread only

bool SameProc(const pmix_proc_t& a, const pmix_proc_t& b) {
  return PMIx_Check_nspace(a.nspace, b.nspace) && a.rank == b.rank;
}

void OnLinkLost(const wire::Connection* conn) {
  if (g_tool == nullptr) return;
  auto& links = g_tool->links;
  auto it = std::find_if(links.begin(), links.end(),
                         [conn](const Link& l) { return l.conn.get() == conn; });
  if (it == links.end()) return;
  pmix_proc_t server = it->server;
  links.erase(it);
  client::Client* c = client::CurrentClient();
  if (c == nullptr || c->conn.get() != conn) return;
  c->conn = nullptr;
  c->singleton = true;
  if (c->finalizing) return;
  output::Verbose("tool", 1, "lost the connection to server %s:%u", server.nspace, server.rank);
  client::EventsOnServerLost(*c);
}

}  // namespace

Tool* CurrentTool() { return g_tool; }

void InstallTool(std::unique_ptr<Tool> tool) {
  delete g_tool;
  g_tool = tool.release();
}

Status AddLink(client::Connected&& connected, bool primary) {
  client::Client* c = client::CurrentClient();
  if (g_tool == nullptr || c == nullptr) return PMIX_ERR_INIT;
  const pmix_bfrops_module_t* codec = connected.welcome.codec;
  auto conn = wire::Connection::Create(*runtime::Engine(), std::move(connected.fd),
                                       std::move(connected.reader), codec);
  const wire::Connection* raw = conn.get();
  PMIX_RETURN_IF_ERROR(conn->Start(
      [codec](ptl::Frame&& frame) { client::OnServerMessage(codec, std::move(frame)); },
      [raw](Status) { OnLinkLost(raw); }));
  g_tool->links.push_back(Link{connected.welcome.server, connected.uri, conn});
  if (primary || c->conn == nullptr) MakePrimary(g_tool->links.back());
  return Status();
}

Link* FindLink(const pmix_proc_t& server) {
  if (g_tool == nullptr) return nullptr;
  for (Link& l : g_tool->links)
    if (SameProc(l.server, server)) return &l;
  return nullptr;
}

Link* PrimaryLink() {
  client::Client* c = client::CurrentClient();
  if (g_tool == nullptr || c == nullptr || c->conn == nullptr) return nullptr;
  for (Link& l : g_tool->links)
    if (l.conn == c->conn) return &l;
  return nullptr;
}

void MakePrimary(const Link& link) {
  client::Client* c = client::CurrentClient();
  if (c == nullptr) return;
  c->conn = link.conn;
  c->server = link.server;
  c->singleton = false;
}

bool DropLink(const pmix_proc_t& server) {
  Link* link = FindLink(server);
  if (link == nullptr) return false;
  std::shared_ptr<wire::Connection> conn = link->conn;  // OnLinkLost erases the link
  client::Client* c = client::CurrentClient();
  if (c != nullptr && c->conn == conn) {  // a deliberate disconnect: no lost-connection event
    c->conn = nullptr;
    c->singleton = true;
  }
  conn->Close(PMIX_ERR_LOST_CONNECTION);
  return true;
}

}  // namespace pmix::tool
