// IO forwarding requests on the server (server_iof_peer.h).
#include "src/server/server_iof_peer.h"

#include <cstring>

#include "pmix.h"

#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/iof/iof_wire.h"
#include "src/server/server_internal.h"
#include "src/server/server_upcall.h"
#include "src/wire/protocol.h"

namespace pmix::server {
namespace {

// Tells the host a registration ended (fire and forget).
void TellHostStop(Server& s, const IofRegistry::Removed& r, std::span<const pmix_info_t> directives) {
  if (s.module.iof_pull == nullptr || r.sources.empty()) return;
  wire::Infos with_stop;
  for (const pmix_info_t& i : directives)
    if (!with_stop.Append(i).ok()) return;
  bool yes = true;
  if (!with_stop.Add(PMIX_IOF_STOP, &yes, PMIX_BOOL).ok()) return;
  auto upcall = s.module.iof_pull;
  auto held = std::make_shared<wire::Infos>(std::move(with_stop));
  auto sources = std::make_shared<std::vector<pmix_proc_t>>(r.sources);
  CallHostForStatus(
      [&](pmix_op_cbfunc_t cbfunc, void* cbdata) {
        return upcall(sources->data(), sources->size(), held->data(), held->size(), r.channels,
                      cbfunc, cbdata);
      },
      [held, sources](pmix_status_t) {});
}

// Sends each chunk to the peer, tagged with the peer's handle.
IofSink PeerSink(const PeerPtr& peer, uint64_t tag) {
  std::weak_ptr<wire::Connection> weak = peer->conn;
  const pmix_bfrops_module_t* codec = peer->conn->codec();
  return [weak, codec, tag](const IofChunk& c) {
    auto conn = weak.lock();
    if (conn == nullptr || conn->closed()) return;
    wire::Writer w(codec);
    iof::WriteDelivery(w, tag, c.source, c.channel, c.data, c.info);
    auto body = w.Take();
    if (!body.ok()) {
      output::Error("server", "forwarded output not packed: %s", PMIx_Error_string(body.status().code()));
      return;
    }
    (void)conn->Send(static_cast<uint16_t>(wire::Msg::kIof), 0, *body);
  };
}

void Reply(const PeerPtr& peer, const ptl::Frame& request, pmix_status_t status, uint64_t id) {
  if (peer->conn == nullptr || peer->conn->closed()) return;
  wire::Writer w(peer->conn->codec());
  w.Status(status).U64(id);
  auto body = w.Take();
  if (body.ok()) (void)peer->conn->Reply(request, *body);
}

void OnPull(Server& s, const PeerPtr& peer, const ptl::Frame& frame, iof::Pull&& p) {
  std::weak_ptr<Peer> weak = peer;
  auto header = std::make_shared<ptl::Frame>(ReplyHeader(frame));  // frames are move-only
  (void)IofPull(s, peer.get(), std::move(p.procs), p.channels, std::move(p.directives),
                PeerSink(peer, p.tag), peer->conn, [weak, header](pmix_status_t status, uint64_t id) {
                  if (auto live = weak.lock()) Reply(live, *header, status, id);
                });
}

}  // namespace

uint64_t IofPull(Server& s, const void* owner, std::vector<pmix_proc_t> procs,
                 pmix_iof_channel_t channels, wire::Infos directives, IofSink sink,
                 std::weak_ptr<wire::Connection> conn, IofPullDone done) {
  if (procs.empty() || !iof::ValidChannels(channels)) {
    done(PMIX_ERR_BAD_PARAM, 0);
    return 0;
  }
  // Registered first: output the host delivers while it sets up is not lost.
  uint64_t id = s.iof.Add(procs, channels, std::move(sink), owner, std::move(conn));
  if (s.module.iof_pull == nullptr) {
    done(PMIX_SUCCESS, id);
    return id;
  }
  auto upcall = s.module.iof_pull;
  auto held = std::make_shared<wire::Infos>(std::move(directives));
  auto sources = std::make_shared<std::vector<pmix_proc_t>>(std::move(procs));
  CallHostForStatus(
      [&](pmix_op_cbfunc_t cbfunc, void* cbdata) {
        return upcall(sources->data(), sources->size(), held->data(), held->size(), channels,
                      cbfunc, cbdata);
      },
      [held, sources, id, owner, done](pmix_status_t status) {
        if (status != PMIX_SUCCESS) {
          if (Server* srv = CurrentServer()) (void)srv->iof.Remove(id, owner);
          return done(status, 0);
        }
        done(PMIX_SUCCESS, id);
      });
  return id;
}

pmix_status_t IofDeregister(Server& s, const void* owner, uint64_t id,
                            std::span<const pmix_info_t> directives) {
  auto removed = s.iof.Remove(id, owner);
  if (!removed) return PMIX_ERR_NOT_FOUND;
  TellHostStop(s, *removed, directives);
  return PMIX_SUCCESS;
}

void IofPush(Server& s, const pmix_proc_t& source, std::vector<pmix_proc_t> targets,
             wire::Infos directives, wire::Bytes data, bool eof,
             std::function<void(pmix_status_t)> done) {
  if (targets.empty()) return done(PMIX_ERR_BAD_PARAM);
  if (s.module.push_stdin == nullptr) return done(PMIX_ERR_NOT_SUPPORTED);
  if (eof && !InfoFlag(directives.view(), PMIX_IOF_COMPLETE)) {
    bool yes = true;
    if (Status st = directives.Add(PMIX_IOF_COMPLETE, &yes, PMIX_BOOL); !st.ok()) return done(st.code());
  }
  struct Held {
    pmix_proc_t source;
    std::vector<pmix_proc_t> targets;
    wire::Infos directives;
    wire::Bytes data;
    pmix_byte_object_t bo;
  };
  auto h = std::make_shared<Held>(Held{source, std::move(targets), std::move(directives), std::move(data), {}});
  h->bo.bytes = reinterpret_cast<char*>(h->data.data());
  h->bo.size = h->data.size();
  auto upcall = s.module.push_stdin;
  CallHostForStatus(
      [&](pmix_op_cbfunc_t cbfunc, void* cbdata) {
        return upcall(&h->source, h->targets.data(), h->targets.size(), h->directives.data(),
                      h->directives.size(), &h->bo, cbfunc, cbdata);
      },
      [h, done](pmix_status_t status) { done(status); });
}

void HandleIof(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  wire::Reader r(peer->conn->codec(), frame.payload);
  iof::Op op = iof::ReadOp(r);
  if (op == iof::Op::kPull) {
    iof::Pull p = iof::ReadPull(r);
    if (!r.status().ok()) return Reply(peer, frame, r.status().code(), 0);
    return OnPull(s, peer, frame, std::move(p));
  }
  if (op == iof::Op::kDeregister) {
    iof::Deregister d = iof::ReadDeregister(r);
    pmix_status_t rc = r.status().ok() ? IofDeregister(s, peer.get(), d.id, d.directives.view())
                                       : r.status().code();
    return Reply(peer, frame, rc, d.id);
  }
  if (op == iof::Op::kPush) {
    iof::Push p = iof::ReadPush(r);
    if (!r.status().ok()) return Reply(peer, frame, r.status().code(), 0);
    std::weak_ptr<Peer> weak = peer;
    auto header = std::make_shared<ptl::Frame>(ReplyHeader(frame));
    return IofPush(s, peer->proc, std::move(p.targets), std::move(p.directives), std::move(p.data),
                   p.eof, [weak, header](pmix_status_t status) {
                     if (auto live = weak.lock()) Reply(live, *header, status, 0);
                   });
  }
  Reply(peer, frame, PMIX_ERR_NOT_SUPPORTED, 0);
}

void IofOnPeerLost(Server& s, const PeerPtr& peer) {
  for (const auto& removed : s.iof.RemoveOwner(peer.get())) TellHostStop(s, removed, {});
}

}  // namespace pmix::server
