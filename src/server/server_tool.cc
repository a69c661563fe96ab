// Tool admission and identities (server_tool.h).
#include "src/server/server_tool.h"

#include <cstdlib>
#include <cstring>

#include "mca/bfrops/base/bfrops_base.h"
#include "mca/psec/base/psec_base.h"
#include "pmix_server.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/server/server_internal.h"
#include "src/server/server_state.h"
#include "src/wire/protocol.h"

namespace pmix::server {
namespace {

using ConnPtr = std::shared_ptr<wire::Connection>;
using ToolKey = std::pair<std::string, pmix_rank_t>;

ToolKey KeyOf(const pmix_proc_t& proc) {
  return {std::string(proc.nspace, ::strnlen(proc.nspace, PMIX_MAX_NSLEN)), proc.rank};
}

// A tool waiting for the host's tool_connected callback.
struct Pending {
  std::shared_ptr<Peer> peer;
  ptl::Frame hello;  // type and tag only
  bool named = false;  // the tool asked for its identity
  wire::Infos directives;  // the tool's own
  wire::Infos info;    // what the host was given (alive until its callback)
};

// The identity the library gives a tool that has none and a host that did
// not name one: unique on this server.
pmix_proc_t AssignedId(Server& s) {
  pmix_proc_t id;
  std::string nspace = std::string(s.myproc.nspace) + ".tool." + std::to_string(s.tools.next_id++);
  if (nspace.size() > PMIX_MAX_NSLEN) nspace = "tool." + std::to_string(s.tools.next_id);
  PMIx_Load_procid(&id, nspace.c_str(), 0);
  return id;
}

void Welcome(Server& s, const std::shared_ptr<Pending>& p) {
  s.admitting.erase(p->peer);
  const auto& peer = p->peer;
  if (peer->conn->closed()) return;
  if (s.tools.connected.count(KeyOf(peer->proc)) != 0 || s.FindPeer(peer->proc) != nullptr) {
    RefuseHello(peer->conn, p->hello, PMIX_EXISTS, "a tool with that identity is connected");
    return;
  }
  s.tools.connected[KeyOf(peer->proc)] = peer;
  if (auto uri = InfoString(p->directives.view(), PMIX_SERVER_URI))
    s.tools.advertised[KeyOf(peer->proc)] = *uri;
  ActivatePeer(s, peer);
  wire::Writer w(peer->conn->codec());
  std::vector<ptl::Fd> fds;
  Status written = WriteWelcome(s, *peer, w, &fds);
  if (!written.ok()) return peer->conn->Close(written);
  w.Proc(peer->proc);
  output::Verbose("server", 2, "tool %s:%u connected (uid %u)", peer->proc.nspace, peer->proc.rank,
                  static_cast<unsigned>(peer->uid));
  SendWelcome(s, peer, p->hello, w, std::move(fds));
}

void ToolConnectedDone(pmix_status_t status, pmix_proc_t* proc, void* cbdata) {
  // Any thread: copy what the host gave, then continue on the progress thread.
  std::shared_ptr<Pending> p(static_cast<Pending*>(cbdata));
  std::optional<pmix_proc_t> given;
  if (proc != nullptr && proc->nspace[0] != '\0') given = *proc;
  PostToServer([p, status, given](Server& s) {
    if (status != PMIX_SUCCESS) {
      s.admitting.erase(p->peer);
      RefuseHello(p->peer->conn, p->hello, status, "the host refused the tool");
      return;
    }
    if (given) {
      p->peer->proc = *given;
    } else if (!p->named) {
      p->peer->proc = AssignedId(s);
    }
    Welcome(s, p);
  });
}

Status ReadDirectives(const wire::Hello& h, const Peer& peer, wire::Infos& out) {
  if (h.info.empty()) return Status();
  wire::Reader r(peer.conn->codec(), std::span<const uint8_t>(
                                         reinterpret_cast<const uint8_t*>(h.info.data()), h.info.size()));
  out = r.InfoArray();
  return r.status();
}

// What tool_connected is given (server_tool.h, step 3).
Status HostInfo(const wire::Hello& h, const Peer& peer, bool named, const wire::Infos& directives,
                wire::Infos& out) {
  uint32_t uid = peer.uid, gid = peer.gid;
  PMIX_RETURN_IF_ERROR(out.Add(PMIX_VERSION_INFO, h.version.c_str(), PMIX_STRING));
  PMIX_RETURN_IF_ERROR(out.Add(PMIX_USERID, &uid, PMIX_UINT32));
  PMIX_RETURN_IF_ERROR(out.Add(PMIX_GRPID, &gid, PMIX_UINT32));
  if (named) {
    PMIX_RETURN_IF_ERROR(out.Add(PMIX_NSPACE, peer.proc.nspace, PMIX_STRING));
    PMIX_RETURN_IF_ERROR(out.Add(PMIX_RANK, &peer.proc.rank, PMIX_PROC_RANK));
  }
  for (const pmix_info_t& i : directives.view()) PMIX_RETURN_IF_ERROR(out.Append(i));
  return Status();
}

// Steps 1 and 2: the peer, or nullptr after refusing.
std::shared_ptr<Peer> Check(Server& s, const ConnPtr& conn, const ptl::Frame& frame,
                            const wire::Hello& h) {
  if (!s.tools.enabled) {
    RefuseHello(conn, frame, PMIX_ERR_NOT_SUPPORTED, "this server does not support tools");
    return nullptr;
  }
  auto codec = bfrops::CodecByName(h.codec);
  if (h.protocol != wire::kProtocol || !codec.ok()) {
    RefuseHello(conn, frame, PMIX_ERR_NOT_SUPPORTED, "unknown protocol or codec");
    return nullptr;
  }
  conn->set_codec(*codec);
  if (!AcceptablePsec(h.psec)) {
    RefuseHello(conn, frame, PMIX_ERR_NOT_SUPPORTED, "security mode not offered");
    return nullptr;
  }
  auto ids = psec::ValidateCredential(h.psec, conn->fd(), h.credential, {});
  if (!ids.ok()) {
    RefuseHello(conn, frame, ids.status().code(), "tool credential not valid");
    return nullptr;
  }
  auto peer = std::make_shared<Peer>();
  peer->conn = conn;
  peer->is_tool = true;
  peer->uid = ids->uid;
  peer->gid = ids->gid;
  peer->pid = static_cast<pid_t>(h.pid);
  if (!h.nspace.empty()) {
    PMIx_Load_procid(&peer->proc, h.nspace.c_str(), h.rank == PMIX_RANK_UNDEF ? 0 : h.rank);
    if (s.FindNamespace(h.nspace) != nullptr || s.tools.connected.count(KeyOf(peer->proc)) != 0) {
      RefuseHello(conn, frame, PMIX_EXISTS, "that identity is a client's or a connected tool's");
      return nullptr;
    }
  }
  return peer;
}

}  // namespace

void ConfigureTools(Server& s, std::span<const pmix_info_t> info) {
  ToolSupport& t = s.tools;
  t.tool = InfoFlag(info, PMIX_SERVER_TOOL_SUPPORT);
  t.session = InfoFlag(info, PMIX_SERVER_SESSION_SUPPORT);
  t.system = InfoFlag(info, PMIX_SERVER_SYSTEM_SUPPORT);
  t.enabled = t.tool || t.session || t.system;
  t.launcher_file = InfoString(info, PMIX_LAUNCHER_RENDEZVOUS_FILE).value_or("");
  if (t.launcher_file.empty()) {
    const char* env = std::getenv("PMIX_LAUNCHER_RNDZ_FILE");
    if (env != nullptr) t.launcher_file = env;
  }
  t.report_uri = InfoString(info, PMIX_TCP_REPORT_URI).value_or("");
}

void AdmitTool(Server& s, const ConnPtr& conn, const ptl::Frame& frame, const wire::Hello& h) {
  std::shared_ptr<Peer> peer = Check(s, conn, frame, h);
  if (peer == nullptr) return;
  auto p = std::make_unique<Pending>();
  p->peer = peer;
  p->hello = ptl::Frame{frame.flags, frame.type, frame.tag, {}};
  p->named = !h.nspace.empty();
  if (Status read = ReadDirectives(h, *peer, p->directives); !read.ok()) {
    RefuseHello(conn, frame, read.code(), "tool directives not readable");
    return;
  }
  if (s.module.tool_connected == nullptr) {
    if (peer->uid != s.uid) {
      RefuseHello(conn, frame, PMIX_ERR_NO_PERMISSIONS,
                  "a tool of another user, and no host tool_connected upcall to approve it");
      return;
    }
    if (!p->named) peer->proc = AssignedId(s);
    Welcome(s, std::shared_ptr<Pending>(std::move(p)));
    return;
  }
  Status built = HostInfo(h, *peer, p->named, p->directives, p->info);
  if (!built.ok()) {
    RefuseHello(conn, frame, built.code(), "tool directives not readable");
    return;
  }
  s.admitting.insert(peer);
  Pending* raw = p.release();  // ToolConnectedDone owns it
  s.module.tool_connected(raw->info.size() > 0 ? raw->info.data() : nullptr, raw->info.size(),
                          ToolConnectedDone, raw);
}

std::shared_ptr<Peer> FindTool(Server& s, const pmix_proc_t& proc) {
  auto it = s.tools.connected.find(KeyOf(proc));
  return it == s.tools.connected.end() ? nullptr : it->second;
}

void ToolsOnPeerLost(Server& s, const std::shared_ptr<Peer>& peer) {
  if (!peer->is_tool) return;
  auto it = s.tools.connected.find(KeyOf(peer->proc));
  if (it != s.tools.connected.end() && it->second == peer) {
    s.tools.connected.erase(it);
    s.tools.advertised.erase(KeyOf(peer->proc));
  }
}

std::optional<std::string> AdvertisedUri(Server& s, const pmix_proc_t& proc) {
  auto it = s.tools.advertised.find(KeyOf(proc));
  if (it == s.tools.advertised.end()) return std::nullopt;
  return it->second;
}

}  // namespace pmix::server
