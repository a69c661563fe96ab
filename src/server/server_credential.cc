// Credential requests from clients (PMIx_Get_credential and
// PMIx_Validate_credential) go to the host's get_credential /
// validate_credential upcalls. Without one, the reply is
// PMIX_ERR_NOT_SUPPORTED and the client uses its own psec modules (a
// credential must name the client, not its server).
#include "pmix.h"
#include "src/common/info_lookup.h"
#include "src/server/server_internal.h"
#include "src/wire/protocol.h"

namespace pmix::server {
namespace {

struct CredCtx {
  std::weak_ptr<Peer> peer;
  ptl::Frame request;  // type and tag only
};

// Replies with status, an optional credential and infos (all copied here:
// the host's storage is only valid during its callback).
void ReplyCred(CredCtx* raw, pmix_status_t status, const pmix_byte_object_t* cred,
               const pmix_info_t* info, size_t ninfo) {
  std::shared_ptr<CredCtx> ctx(raw);
  auto bytes = std::make_shared<wire::Bytes>();
  if (cred != nullptr && cred->bytes != nullptr)
    bytes->assign(cred->bytes, cred->bytes + cred->size);
  auto copy = wire::Infos::CopyOf(InfoSpan(info, ninfo));
  if (!copy.ok()) status = copy.status().code();
  auto infos = std::make_shared<wire::Infos>(copy.ok() ? std::move(*copy) : wire::Infos());
  bool with_cred = ctx->request.type == static_cast<uint16_t>(wire::Msg::kGetCredential);
  PostToServer([ctx, status, bytes, infos, with_cred](Server&) {
    auto peer = ctx->peer.lock();
    if (peer == nullptr || peer->conn->closed()) return;
    wire::Writer w(peer->conn->codec());
    w.Status(status);
    if (with_cred) w.Blob(std::span<const uint8_t>(*bytes));
    w.InfoArray(infos->view());
    auto body = w.Take();
    peer->conn->Reply(ctx->request, body.ok() ? *body : StatusBody(peer->conn->codec(), body.status().code())).ok();
  });
}

void CredentialDone(pmix_status_t status, pmix_byte_object_t* cred, pmix_info_t info[], size_t ninfo,
                    void* cbdata) {
  ReplyCred(static_cast<CredCtx*>(cbdata), status, cred, info, ninfo);
}

void ValidationDone(pmix_status_t status, pmix_info_t info[], size_t ninfo, void* cbdata) {
  ReplyCred(static_cast<CredCtx*>(cbdata), status, nullptr, info, ninfo);
}

// The upcall's immediate answer when it will not call back.
void ReplyNow(const PeerPtr& peer, const ptl::Frame& frame, pmix_status_t rc) {
  if (rc == PMIX_OPERATION_SUCCEEDED) rc = PMIX_SUCCESS;
  wire::Writer w(peer->conn->codec());
  w.Status(rc);
  if (frame.type == static_cast<uint16_t>(wire::Msg::kGetCredential)) w.Blob(std::span<const uint8_t>());
  w.InfoArray({});
  auto body = w.Take();
  if (body.ok()) peer->conn->Reply(frame, *body).ok();
}

}  // namespace

void HandleGetCredential(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  wire::Reader r(peer->conn->codec(), frame.payload);
  wire::Infos directives = r.InfoArray();
  if (!r.status().ok()) return ReplyNow(peer, frame, r.status().code());
  if (s.module.get_credential == nullptr) return ReplyNow(peer, frame, PMIX_ERR_NOT_SUPPORTED);
  auto* ctx = new CredCtx{peer, ptl::Frame{frame.flags, frame.type, frame.tag, {}}};
  pmix_status_t rc = s.module.get_credential(&peer->proc, directives.data(), directives.size(),
                                             CredentialDone, ctx);
  if (rc == PMIX_SUCCESS) return;
  delete ctx;
  ReplyNow(peer, frame, rc == PMIX_OPERATION_SUCCEEDED ? PMIX_ERR_NOT_SUPPORTED : rc);
}

void HandleValidateCredential(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  wire::Reader r(peer->conn->codec(), frame.payload);
  wire::Bytes cred = r.Blob();
  wire::Infos directives = r.InfoArray();
  if (!r.status().ok()) return ReplyNow(peer, frame, r.status().code());
  if (s.module.validate_credential == nullptr) return ReplyNow(peer, frame, PMIX_ERR_NOT_SUPPORTED);
  pmix_byte_object_t bo{reinterpret_cast<char*>(cred.data()), cred.size()};
  auto* ctx = new CredCtx{peer, ptl::Frame{frame.flags, frame.type, frame.tag, {}}};
  pmix_status_t rc = s.module.validate_credential(&peer->proc, &bo, directives.data(),
                                                  directives.size(), ValidationDone, ctx);
  if (rc == PMIX_SUCCESS) return;
  delete ctx;
  ReplyNow(peer, frame, rc);
}

}  // namespace pmix::server
