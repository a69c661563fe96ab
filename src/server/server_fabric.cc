#include "src/server/server_fabric.h"

#include <memory>

#include "mca/pnet/base/pnet_base.h"
#include "src/server/server_internal.h"

namespace pmix::server {
namespace {

void FromPnet(std::span<const pmix_info_t> directives, const InfosDone& done) {
  auto info = pnet::FabricInfo(directives);
  if (!info.ok()) return done(info.status().code(), wire::Infos());
  done(PMIX_SUCCESS, std::move(*info));
}

}  // namespace

void Fabric(Server& s, const Requester& who, pmix_fabric_operation_t op,
            std::span<const pmix_info_t> directives, InfosDone done) {
  auto upcall = s.module.fabric;
  if (upcall == nullptr) return FromPnet(directives, done);
  auto dirs = WithRequesterIds(directives, who);
  if (!dirs.ok()) return done(dirs.status().code(), wire::Infos());
  struct Kept {
    pmix_proc_t proc;
    wire::Infos directives;  // as the requester gave them (pnet's turn)
    wire::Infos to_host;
  };
  auto copy = wire::Infos::CopyOf(directives);
  if (!copy.ok()) return done(copy.status().code(), wire::Infos());
  auto kept = std::make_shared<Kept>(Kept{who.proc, std::move(*copy), std::move(*dirs)});
  CallHostForInfos(
      [upcall, kept, op](pmix_info_cbfunc_t cbfunc, void* cbdata) {
        return upcall(&kept->proc, op, kept->to_host.size() > 0 ? kept->to_host.data() : nullptr,
                      kept->to_host.size(), cbfunc, cbdata);
      },
      [kept, done](pmix_status_t status, wire::Infos&& results) {
        if (status == PMIX_ERR_NOT_SUPPORTED) return FromPnet(kept->directives.view(), done);
        done(status, std::move(results));
      });
}

void HandleFabric(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  wire::Reader r(peer->conn->codec(), frame.payload);
  uint32_t op = 0;
  r.Unpack(&op, 1, PMIX_UINT32);
  wire::Infos directives = r.InfoArray();
  InfosDone reply = InfosReplier(peer, frame);
  if (!r.status().ok()) return reply(r.status().code(), wire::Infos());
  if (op != PMIX_FABRIC_REQUEST_INFO && op != PMIX_FABRIC_UPDATE_INFO)
    return reply(PMIX_ERR_BAD_PARAM, wire::Infos());
  Fabric(s, RequesterOf(*peer), static_cast<pmix_fabric_operation_t>(op), directives.view(),
         std::move(reply));
}

}  // namespace pmix::server
