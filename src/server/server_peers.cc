// Peers of the server: the hello (who is calling, with which codec and
// credential), the welcome, message routing, clean finalize, abort, and
// what happens when a peer's connection goes away.
#include <cstring>
#include <string>

#include "mca/bfrops/base/bfrops_base.h"
#include "mca/gds/base/gds_base.h"
#include "mca/psec/base/psec_base.h"
#include "mca/ptl/base/frame_io.h"
#include "pmix.h"
#include "src/common/output.h"
#include "src/event/roles.h"
#include "src/server/server_alloc.h"
#include "src/server/server_connect.h"
#include "src/server/server_group.h"
#include "src/server/server_fabric.h"
#include "src/server/server_internal.h"
#include "src/server/server_iof_peer.h"
#include "src/server/server_job_control.h"
#include "src/server/server_log.h"
#include "src/server/server_publish.h"
#include "src/server/server_query.h"
#include "src/server/server_spawn.h"
#include "src/server/server_tool.h"
#include "src/wire/job_image.h"
#include "src/wire/protocol.h"

namespace pmix::server {
namespace {

using ConnPtr = std::shared_ptr<wire::Connection>;

void Refuse(const ConnPtr& conn, const ptl::Frame& hello, pmix_status_t status, const char* why) {
  RefuseHello(conn, hello, status, why);
}

void Dispatch(Server& s, const PeerPtr& peer, ptl::Frame&& frame);
void PeerLost(Server& s, const PeerPtr& peer);

}  // namespace

void RefuseHello(const ConnPtr& conn, const ptl::Frame& hello, pmix_status_t status,
                 const char* why) {
  output::Verbose("server", 1, "refusing a connection: %s (%s)", why, PMIx_Error_string(status));
  ptl::Frame reply;
  reply.flags = wire::kFlagReply;
  reply.type = hello.type;
  reply.tag = hello.tag;
  reply.payload = wire::EncodeFields({std::to_string(status)});
  ptl::SendFrame(conn->fd(), reply, std::chrono::milliseconds(200)).ok();
  conn->Close(status);
}

bool AcceptablePsec(const std::string& psec) {
  auto names = psec::SelectedNames();
  if (!names.ok()) return false;
  for (size_t i = 0; i < names->size(); ++i) {
    if ((*names)[i] == psec) return psec != "none" || i == 0;
  }
  return false;
}

void ActivatePeer(Server& s, const PeerPtr& peer) {
  s.peers.insert(peer);
  GrantConnectedLimits(s, *peer->conn);
  peer->conn->TrustPeer();  // admitted: large frames (commits) are read without regrowth
  std::weak_ptr<Peer> weak = peer;
  peer->conn->SetHandlers(
      [weak](ptl::Frame&& frame) {
        auto p = weak.lock();
        if (p && CurrentServer() != nullptr) Dispatch(*CurrentServer(), p, std::move(frame));
      },
      [weak](Status) {
        auto p = weak.lock();
        if (p && CurrentServer() != nullptr) PeerLost(*CurrentServer(), p);
      });
}

Status WriteWelcome(const Server& s, const Peer& peer, wire::Writer& w,
                    std::vector<ptl::Fd>* fds) {
  auto gds_module = s.store.module();
  w.Proc(s.myproc).Str(s.hostname).I32(peer.ns != nullptr ? peer.ns->nlocalprocs : 0);
  w.Str(gds_module != nullptr ? gds_module->name : "hash");
  // The namespace's image, built once at registration: its descriptor to a
  // peer on a Unix socket (shared pages), else its bytes.
  const gds::Image* image = peer.ns != nullptr ? s.store.FindImage(peer.ns->name).get() : nullptr;
  return wire::PackImage(w, image, peer.conn->can_pass_fds() ? fds : nullptr);
}

void SendWelcome(Server& s, const PeerPtr& peer, const ptl::Frame& hello, wire::Writer& w,
                 std::vector<ptl::Fd> fds) {
  auto body = w.Take();
  if (!body.ok()) {
    peer->conn->Close(body.status());
    return;
  }
  std::string text(body->begin(), body->end());
  peer->conn
      ->ReplyWithFds(hello, wire::EncodeFields({"0", peer->conn->codec()->codec, text}),
                     std::move(fds))
      .ok();
  EventsOnPeerConnected(s, peer);  // the events it missed (§10.1: the server caches them)
}

namespace {

void Welcome(Server& s, const PeerPtr& peer, const ptl::Frame& hello) {
  s.admitting.erase(peer);
  if (peer->conn->closed()) return;
  auto record = peer->ns->clients.find(peer->proc.rank);
  if (record == peer->ns->clients.end() || record->second.peer != nullptr) {
    Refuse(peer->conn, hello, PMIX_ERR_NOT_FOUND, "client deregistered or connected meanwhile");
    return;
  }
  record->second.peer = peer;
  record->second.departed = PMIX_SUCCESS;
  ActivatePeer(s, peer);
  wire::Writer w(peer->conn->codec());
  std::vector<ptl::Fd> fds;
  Status written = WriteWelcome(s, *peer, w, &fds);
  if (!written.ok()) return peer->conn->Close(written);
  SendWelcome(s, peer, hello, w, std::move(fds));
}

struct ConnectedCtx {
  std::weak_ptr<Peer> peer;
  ptl::Frame hello;
};

void ConnectedDone(pmix_status_t status, void* cbdata) {
  std::unique_ptr<ConnectedCtx> ctx(static_cast<ConnectedCtx*>(cbdata));
  PostToServer([ctx = std::shared_ptr<ConnectedCtx>(std::move(ctx)), status](Server& s) {
    auto peer = ctx->peer.lock();
    if (peer == nullptr) return;
    if (status == PMIX_SUCCESS) {
      Welcome(s, peer, ctx->hello);
    } else {
      s.admitting.erase(peer);
      Refuse(peer->conn, ctx->hello, status, "the host refused the client");
    }
  });
}

void IgnoreOp(pmix_status_t, void*) {}

// Tells the host (client_connected2, else client_connected) and welcomes
// the peer when the host agrees. The deprecated client_connected is only a
// notice: hosts return PMIX_SUCCESS without ever calling back (Slurm
// 22.05), so its callback is not waited for.
void AskHost(Server& s, const PeerPtr& peer, const ptl::Frame& hello) {
  if (s.module.client_connected2 == nullptr && s.module.client_connected != nullptr) {
    pmix_status_t rc = s.module.client_connected(&peer->proc, peer->server_object, IgnoreOp, nullptr);
    if (rc == PMIX_SUCCESS || rc == PMIX_OPERATION_SUCCEEDED || rc == PMIX_ERR_NOT_SUPPORTED) {
      Welcome(s, peer, hello);
    } else {
      Refuse(peer->conn, hello, rc, "the host refused the client");
    }
    return;
  }
  auto* ctx = new ConnectedCtx{peer, ptl::Frame{hello.flags, hello.type, hello.tag, {}}};
  pmix_status_t rc = PMIX_OPERATION_SUCCEEDED;
  if (s.module.client_connected2 != nullptr) {
    rc = s.module.client_connected2(&peer->proc, peer->server_object, nullptr, 0, ConnectedDone, ctx);
  }
  if (rc == PMIX_SUCCESS) {  // ConnectedDone follows
    s.admitting.insert(peer);
    return;
  }
  delete ctx;
  if (rc == PMIX_OPERATION_SUCCEEDED || rc == PMIX_ERR_NOT_SUPPORTED) {
    Welcome(s, peer, hello);
  } else {
    Refuse(peer->conn, hello, rc, "the host refused the client");
  }
}

// Checks the hello against what the host registered; the peer, or nullptr
// after refusing.
PeerPtr Admit(Server& s, const ConnPtr& conn, const ptl::Frame& frame, const wire::Hello& h) {
  if (h.protocol != wire::kProtocol) {
    Refuse(conn, frame, PMIX_ERR_NOT_SUPPORTED, "unknown protocol");
    return nullptr;
  }
  auto codec = bfrops::CodecByName(h.codec);
  if (!codec.ok()) {
    Refuse(conn, frame, PMIX_ERR_NOT_SUPPORTED, "unknown codec");
    return nullptr;
  }
  conn->set_codec(*codec);
  Namespace* ns = s.FindNamespace(h.nspace);
  auto record = ns == nullptr ? decltype(ns->clients.end()){} : ns->clients.find(h.rank);
  if (ns == nullptr || record == ns->clients.end()) {
    Refuse(conn, frame, PMIX_ERR_NOT_FOUND, "not a registered client");
    return nullptr;
  }
  if (!AcceptablePsec(h.psec)) {
    Refuse(conn, frame, PMIX_ERR_NOT_SUPPORTED, "security mode not offered");
    return nullptr;
  }
  uint32_t uid = record->second.uid, gid = record->second.gid;
  pmix_info_t want[2];
  PMIx_Info_load(&want[0], PMIX_USERID, &uid, PMIX_UINT32);
  PMIx_Info_load(&want[1], PMIX_GRPID, &gid, PMIX_UINT32);
  auto ids = psec::ValidateCredential(h.psec, conn->fd(), h.credential, want);
  if (!ids.ok()) {
    Refuse(conn, frame, ids.status().code(), "credential not valid for the registered uid/gid");
    return nullptr;
  }
  // Only after the credential: whether the client is connected is no
  // business of another user's.
  if (record->second.peer != nullptr) {
    Refuse(conn, frame, PMIX_EXISTS, "that client is already connected");
    return nullptr;
  }
  auto peer = std::make_shared<Peer>();
  peer->conn = conn;
  PMIx_Load_procid(&peer->proc, h.nspace.c_str(), h.rank);
  peer->uid = ids->uid;
  peer->gid = ids->gid;
  peer->pid = static_cast<pid_t>(h.pid);
  peer->server_object = record->second.server_object;
  peer->ns = ns;
  return peer;
}

// --- finalize and abort -------------------------------------------------------

struct ReplyCtx {
  std::weak_ptr<Peer> peer;
  ptl::Frame request;  // type and tag only
};

void ReplyWithStatus(pmix_status_t status, void* cbdata) {
  std::shared_ptr<ReplyCtx> ctx(static_cast<ReplyCtx*>(cbdata));
  PostToServer([ctx, status](Server&) {
    auto peer = ctx->peer.lock();
    if (peer != nullptr && !peer->conn->closed())
      peer->conn->Reply(ctx->request, StatusBody(peer->conn->codec(), status)).ok();
  });
}

ReplyCtx* NewReplyCtx(const PeerPtr& peer, const ptl::Frame& frame) {
  return new ReplyCtx{peer, ptl::Frame{frame.flags, frame.type, frame.tag, {}}};
}

void HandleFinalize(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  peer->finalized = true;
  pmix_status_t rc = PMIX_OPERATION_SUCCEEDED;
  // A tool is no registered client of the host: it is not told.
  if (s.module.client_finalized != nullptr && !peer->is_tool) {
    ReplyCtx* ctx = NewReplyCtx(peer, frame);
    rc = s.module.client_finalized(&peer->proc, peer->server_object, ReplyWithStatus, ctx);
    if (rc == PMIX_SUCCESS) return;
    delete ctx;
  }
  peer->conn->Reply(frame, StatusBody(peer->conn->codec(), PMIX_SUCCESS)).ok();
}

void HandleAbort(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  wire::Reader r(peer->conn->codec(), frame.payload);
  int32_t status = r.I32();
  std::string msg = r.String();
  std::vector<pmix_proc_t> procs = r.Procs();
  if (!r.status().ok()) {
    peer->conn->Reply(frame, StatusBody(peer->conn->codec(), r.status().code())).ok();
    return;
  }
  if (s.module.abort == nullptr) {
    peer->conn->Reply(frame, StatusBody(peer->conn->codec(), PMIX_ERR_NOT_SUPPORTED)).ok();
    return;
  }
  ReplyCtx* ctx = NewReplyCtx(peer, frame);
  pmix_status_t rc = s.module.abort(&peer->proc, peer->server_object, status, msg.c_str(),
                                    procs.empty() ? nullptr : procs.data(), procs.size(),
                                    ReplyWithStatus, ctx);
  if (rc == PMIX_SUCCESS) return;
  delete ctx;
  if (rc == PMIX_OPERATION_SUCCEEDED) rc = PMIX_SUCCESS;
  peer->conn->Reply(frame, StatusBody(peer->conn->codec(), rc)).ok();
}

void Dispatch(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  switch (static_cast<wire::Msg>(frame.type)) {
    case wire::Msg::kFinalize: return HandleFinalize(s, peer, std::move(frame));
    case wire::Msg::kAbort: return HandleAbort(s, peer, std::move(frame));
    case wire::Msg::kFence: return HandleFence(s, peer, std::move(frame));
    case wire::Msg::kDoorbell: return HandleDoorbell(s, peer, std::move(frame));
    case wire::Msg::kChunksKept: return HandleChunksKept(s, peer, std::move(frame));
    case wire::Msg::kGet: return HandleGet(s, peer, std::move(frame));
    case wire::Msg::kCommit: return HandleCommit(s, peer, std::move(frame));
    case wire::Msg::kNotify: return HandleNotify(s, peer, std::move(frame));
    case wire::Msg::kGetCredential: return HandleGetCredential(s, peer, std::move(frame));
    case wire::Msg::kValidateCredential: return HandleValidateCredential(s, peer, std::move(frame));
    case wire::Msg::kJobControl: return HandleJobControl(s, peer, std::move(frame));
    case wire::Msg::kAllocate: return HandleAllocate(s, peer, std::move(frame));
    case wire::Msg::kMonitor: return HandleMonitor(s, peer, std::move(frame));
    case wire::Msg::kFabric: return HandleFabric(s, peer, std::move(frame));
    case wire::Msg::kPublish: return HandlePublish(s, peer, std::move(frame));
    case wire::Msg::kLookup: return HandleLookup(s, peer, std::move(frame));
    case wire::Msg::kUnpublish: return HandleUnpublish(s, peer, std::move(frame));
    case wire::Msg::kSpawn: return HandleSpawn(s, peer, std::move(frame));
    case wire::Msg::kConnect: return HandleConnect(s, peer, std::move(frame));
    case wire::Msg::kDisconnect: return HandleDisconnect(s, peer, std::move(frame));
    case wire::Msg::kQuery: return HandleQuery(s, peer, std::move(frame));
    case wire::Msg::kLog: return HandleLog(s, peer, std::move(frame));
    case wire::Msg::kGroup: return HandleGroup(s, peer, std::move(frame));
    case wire::Msg::kIof: return HandleIof(s, peer, std::move(frame));
    default:
      peer->conn->Reply(frame, StatusBody(peer->conn->codec(), PMIX_ERR_NOT_SUPPORTED)).ok();
  }
}

void PeerLost(Server& s, const PeerPtr& peer) {
  if (s.peers.erase(peer) == 0) return;
  auto record = peer->ns != nullptr ? peer->ns->clients.find(peer->proc.rank)
                                    : decltype(peer->ns->clients.end()){};
  if (peer->ns != nullptr && record != peer->ns->clients.end() && record->second.peer == peer) {
    record->second.peer = nullptr;
    record->second.pid = peer->pid;
    record->second.departed = peer->finalized ? PMIX_ERR_NOT_FOUND : PMIX_ERR_PROC_TERM_WO_SYNC;
  }
  FenceOnPeerLost(s, peer);
  GetOnPeerLost(s, peer);
  // client_finalized is only for a client that called PMIx_Finalize (hosts
  // read it as a normal end, as OpenPMIx does); the loss of one that did
  // not reaches the host as an event (server_events.cc).
  EventsOnPeerLost(s, peer);
  JobControlOnPeerLost(s, peer);
  ConnectOnPeerLost(s, peer);
  GroupOnPeerLost(s, peer);
  IofOnPeerLost(s, peer);
  ToolsOnPeerLost(s, peer);
}

}  // namespace

void ClientDeregistered(Server& s, Namespace& ns, pmix_rank_t rank) {
  // What a peer that finalized without contributing does to the
  // collectives (fence: dropped, PMIX_ERR_PARTIAL_SUCCESS to the others;
  // connect: failed; group: a member that left), without a connection.
  auto gone = std::make_shared<Peer>();
  PMIx_Load_procid(&gone->proc, ns.name.c_str(), rank);
  gone->finalized = true;
  gone->ns = &ns;
  FenceOnPeerLost(s, gone);
  ConnectOnPeerLost(s, gone);
  GroupOnPeerLost(s, gone);
}

wire::Bytes StatusBody(const pmix_bfrops_module_t* codec, pmix_status_t status) {
  wire::Writer w(codec);
  w.Status(status);
  auto body = w.Take();
  return body.ok() ? std::move(*body) : wire::Bytes{};
}

void OnHello(Server& s, const ConnPtr& conn, ptl::Frame&& frame) {
  ConnPtr keep = conn;
  ForgetGreeting(s, conn);
  if (frame.type != static_cast<uint16_t>(wire::Msg::kHello)) {
    conn->Close(PMIX_ERR_UNPACK_FAILURE);
    return;
  }
  auto hello = wire::Hello::Decode(frame.payload);
  if (!hello.ok()) {
    Refuse(conn, frame, hello.status().code(), "malformed hello");
    return;
  }
  // Until the host agrees, the peer's messages (none expected) are ignored
  // and its loss only drops it.
  conn->SetHandlers([](ptl::Frame&&) {}, [](Status) {});
  // A peer that cannot attach the regions job data and fence results live
  // in here (it chose another gds, e.g. PMIX_MCA_gds=hash in its own
  // environment) gets every region's bytes inline, as over TCP.
  if (auto regions = gds::RegionModule();
      regions.ok() && *regions != nullptr && !hello->CanAttach((*regions)->name))
    conn->StopPassingFds();
  if (hello->role == "tool") return AdmitTool(s, conn, frame, *hello);
  if (hello->role != "client") {
    Refuse(conn, frame, PMIX_ERR_NOT_SUPPORTED, "unknown role");
    return;
  }
  PeerPtr peer = Admit(s, conn, frame, *hello);
  if (peer != nullptr) AskHost(s, peer, frame);
}

}  // namespace pmix::server
