// Host upcalls and peer replies (server_upcall.h).
#include "src/server/server_upcall.h"

#include <unistd.h>

#include <cstring>
#include <utility>

#include "src/common/info_lookup.h"
#include "src/server/server_internal.h"

namespace pmix::server {
namespace {

struct InfosCtx {
  InfosDone done;
};
struct StatusCtx {
  StatusDone done;
};

void InfosArrived(pmix_status_t status, pmix_info_t* info, size_t ninfo, void* cbdata,
                  pmix_release_cbfunc_t release_fn, void* release_cbdata) {
  std::shared_ptr<InfosCtx> ctx(static_cast<InfosCtx*>(cbdata));
  auto copy = wire::Infos::CopyOf(InfoSpan(info, ninfo));
  if (release_fn != nullptr) release_fn(release_cbdata);
  if (!copy.ok() && status == PMIX_SUCCESS) status = copy.status().code();
  auto results = std::make_shared<wire::Infos>(copy.ok() ? std::move(*copy) : wire::Infos());
  PostToServer([ctx, status, results](Server&) { ctx->done(status, std::move(*results)); });
}

void StatusArrived(pmix_status_t status, void* cbdata) {
  std::shared_ptr<StatusCtx> ctx(static_cast<StatusCtx*>(cbdata));
  PostToServer([ctx, status](Server&) { ctx->done(status); });
}

pmix_status_t Immediate(pmix_status_t rc) {
  return rc == PMIX_OPERATION_SUCCEEDED ? PMIX_SUCCESS : rc;
}

}  // namespace

Requester RequesterOf(const Peer& peer) { return Requester{peer.proc, peer.uid, peer.gid}; }

Requester SelfRequester(const Server& s) { return Requester{s.myproc, ::getuid(), ::getgid()}; }

Result<wire::Infos> WithRequesterIds(std::span<const pmix_info_t> in, const Requester& who) {
  wire::Infos out;
  for (const pmix_info_t& i : in) {
    if (PMIX_CHECK_KEY(&i, PMIX_USERID) || PMIX_CHECK_KEY(&i, PMIX_GRPID)) continue;
    PMIX_RETURN_IF_ERROR(out.Append(i));
  }
  uint32_t uid = who.uid, gid = who.gid;
  PMIX_RETURN_IF_ERROR(out.Add(PMIX_USERID, &uid, PMIX_UINT32));
  PMIX_RETURN_IF_ERROR(out.Add(PMIX_GRPID, &gid, PMIX_UINT32));
  return out;
}

Status AddRequesterIds(wire::Infos* infos, const Requester& who) {
  auto replaced = WithRequesterIds(infos->view(), who);
  if (!replaced.ok()) return replaced.status();
  *infos = std::move(*replaced);
  return Status();
}

void CallHostForInfos(const std::function<pmix_status_t(pmix_info_cbfunc_t, void*)>& call,
                      InfosDone done) {
  auto* ctx = new InfosCtx{std::move(done)};
  pmix_status_t rc = call(InfosArrived, ctx);
  if (rc == PMIX_SUCCESS) return;
  std::unique_ptr<InfosCtx> owned(ctx);
  owned->done(Immediate(rc), wire::Infos());
}

void CallHostForStatus(const std::function<pmix_status_t(pmix_op_cbfunc_t, void*)>& call,
                       StatusDone done) {
  auto* ctx = new StatusCtx{std::move(done)};
  pmix_status_t rc = call(StatusArrived, ctx);
  if (rc == PMIX_SUCCESS) return;
  std::unique_ptr<StatusCtx> owned(ctx);
  owned->done(Immediate(rc));
}

namespace {

struct LookupCtx {
  LookupDone done;
};

// The host's pdata are only valid during this call: copy them (a shallow
// view of each key and value, deep-copied by Append).
Status CopyFound(const pmix_pdata_t* data, size_t ndata, LookupFound* found) {
  for (size_t i = 0; i < ndata && data != nullptr; ++i) {
    pmix_info_t view;
    PMIx_Info_construct(&view);
    PMIx_Load_key(view.key, data[i].key);
    view.value = data[i].value;
    PMIX_RETURN_IF_ERROR(found->data.Append(view));
    found->publishers.push_back(data[i].proc);
  }
  return Status();
}

void LookupArrived(pmix_status_t status, pmix_pdata_t data[], size_t ndata, void* cbdata) {
  std::shared_ptr<LookupCtx> ctx(static_cast<LookupCtx*>(cbdata));
  auto found = std::make_shared<LookupFound>();
  Status copied = CopyFound(data, ndata, found.get());
  if (!copied.ok()) {
    if (status == PMIX_SUCCESS) status = copied.code();
    *found = LookupFound();
  }
  PostToServer([ctx, status, found](Server&) { ctx->done(status, std::move(*found)); });
}

}  // namespace

void CallHostForLookup(const std::function<pmix_status_t(pmix_lookup_cbfunc_t, void*)>& call,
                       LookupDone done) {
  auto* ctx = new LookupCtx{std::move(done)};
  pmix_status_t rc = call(LookupArrived, ctx);
  if (rc == PMIX_SUCCESS) return;
  std::unique_ptr<LookupCtx> owned(ctx);
  owned->done(Immediate(rc), LookupFound());
}

namespace {

struct SpawnCtx {
  SpawnResultDone done;
};

// pmix_spawn_cbfunc_t: any thread; nspace (may be NULL) is the host's.
void SpawnArrived(pmix_status_t status, char* nspace, void* cbdata) {
  std::shared_ptr<SpawnCtx> ctx(static_cast<SpawnCtx*>(cbdata));
  std::string name = nspace != nullptr ? std::string(nspace, ::strnlen(nspace, PMIX_MAX_NSLEN)) : "";
  PostToServer([ctx, status, name](Server&) { ctx->done(status, name); });
}

}  // namespace

void CallHostForSpawn(const std::function<pmix_status_t(pmix_spawn_cbfunc_t, void*)>& call,
                      SpawnResultDone done) {
  auto* ctx = new SpawnCtx{std::move(done)};
  pmix_status_t rc = call(SpawnArrived, ctx);
  if (rc == PMIX_SUCCESS) return;
  std::unique_ptr<SpawnCtx> owned(ctx);
  owned->done(Immediate(rc), std::string());
}

void ReplyStatusInfos(const std::weak_ptr<Peer>& weak, const ptl::Frame& request,
                      pmix_status_t status, const wire::Infos& infos) {
  auto peer = weak.lock();
  if (peer == nullptr || peer->conn->closed()) return;
  wire::Writer w(peer->conn->codec());
  w.Status(status).InfoArray(infos.view());
  auto body = w.Take();
  peer->conn
      ->Reply(request, body.ok() ? *body : StatusBody(peer->conn->codec(), body.status().code()))
      .ok();
}

InfosDone InfosReplier(const PeerPtr& peer, const ptl::Frame& request) {
  std::weak_ptr<Peer> weak = peer;
  // Type and tag only: a frame is move-only (it may own descriptors).
  return [weak, type = request.type, tag = request.tag](pmix_status_t status,
                                                        wire::Infos&& infos) {
    ReplyStatusInfos(weak, ptl::Frame{0, type, tag, {}}, status, infos);
  };
}

StatusDone StatusReplier(const PeerPtr& peer, const ptl::Frame& request) {
  std::weak_ptr<Peer> weak = peer;
  return [weak, type = request.type, tag = request.tag](pmix_status_t status) {
    ReplyStatusInfos(weak, ptl::Frame{0, type, tag, {}}, status, wire::Infos());
  };
}

ptl::Frame ReplyHeader(const ptl::Frame& frame) { return ptl::Frame{frame.flags, frame.type, frame.tag, {}}; }

}  // namespace pmix::server
