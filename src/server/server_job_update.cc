// A namespace's new image to its connected clients.
#include "src/server/server_job_update.h"

#include <map>
#include <vector>

#include "pmix.h"
#include "src/common/output.h"
#include "src/wire/job_image.h"
#include "src/wire/protocol.h"

namespace pmix::server {
namespace {

Result<wire::Bytes> UpdateBody(const pmix_bfrops_module_t* codec, const Namespace& ns,
                               const gds::Image& image, std::vector<ptl::Fd>* fds) {
  wire::Writer w(codec);
  w.Str(ns.name);
  PMIX_RETURN_IF_ERROR(wire::PackImage(w, &image, fds));
  return w.Take();
}

}  // namespace

size_t PushJobImage(Server& s, const Namespace& ns) {
  auto image = s.store.FindImage(ns.name);
  if (image == nullptr) return 0;
  const auto type = static_cast<uint16_t>(wire::Msg::kJobUpdate);
  // Inline bodies are the image's bytes: made once per codec.
  std::map<const pmix_bfrops_module_t*, wire::Bytes> inline_bodies;
  size_t sent = 0;
  for (const auto& [rank, record] : ns.clients) {
    const PeerPtr& peer = record.peer;
    if (peer == nullptr || peer->conn->closed()) continue;
    const pmix_bfrops_module_t* codec = peer->conn->codec();
    Status queued;
    if (peer->conn->can_pass_fds() && image->region().fd() >= 0) {
      std::vector<ptl::Fd> fds;
      auto body = UpdateBody(codec, ns, *image, &fds);
      queued = body.ok() ? peer->conn->SendWithFds(type, 0, *body, std::move(fds)) : body.status();
    } else {
      auto it = inline_bodies.find(codec);
      if (it == inline_bodies.end()) {
        auto body = UpdateBody(codec, ns, *image, nullptr);
        if (!body.ok()) {
          output::Error("server", "job update of %s: cannot pack (%s)", ns.name.c_str(),
                        PMIx_Error_string(body.status().code()));
          continue;
        }
        it = inline_bodies.emplace(codec, std::move(*body)).first;
      }
      queued = peer->conn->Send(type, 0, it->second);
    }
    if (queued.ok()) ++sent;
  }
  output::Verbose("server", 2, "job update of %s (generation %llu) sent to %zu clients",
                  ns.name.c_str(), static_cast<unsigned long long>(image->meta().generation),
                  sent);
  return sent;
}

}  // namespace pmix::server
