// PMIx_Log on the server: the host's log upcall, else the channels the
// server serves itself (server_log.h).
#include "src/server/server_log.h"

#include <utility>

#include "src/common/info_lookup.h"
#include "src/server/log_channels.h"
#include "src/server/server_upcall.h"

namespace pmix::server {
namespace {

// The host's directives: the caller's plus who is asking.
Result<wire::Infos> HostDirectives(const Requester& who, const wire::Infos& directives) {
  auto out = wire::Infos::CopyOf(directives.view());
  if (!out.ok()) return out.status();
  if (FindInfo(directives.view(), PMIX_LOG_SOURCE) == nullptr)
    PMIX_RETURN_IF_ERROR(out->Add(PMIX_LOG_SOURCE, &who.proc, PMIX_PROC));
  PMIX_RETURN_IF_ERROR(AddRequesterIds(&*out, who));
  return out;
}

pmix_status_t ServeHere(const Requester& who, const wire::Infos& data,
                        const wire::Infos& directives) {
  return logging::LogLocally(who.proc, data.view(), directives.view(), logging::SystemSinks());
}

}  // namespace

void Log(Server& s, const Requester& who, std::shared_ptr<const wire::Infos> data,
         std::shared_ptr<const wire::Infos> directives, LogDone done) {
  if (data->size() == 0) return done(PMIX_ERR_BAD_PARAM);
  if (s.module.log == nullptr) return done(ServeHere(who, *data, *directives));
  auto dirs = HostDirectives(who, *directives);
  if (!dirs.ok()) return done(dirs.status().code());
  // Everything the host is handed stays valid until its callback.
  auto host_dirs = std::make_shared<wire::Infos>(std::move(*dirs));
  auto requester = std::make_shared<Requester>(who);
  auto log = s.module.log;
  CallHostForStatus(
      [&](pmix_op_cbfunc_t cbfunc, void* cbdata) {
        // A void upcall: the host always calls back (§17.3.20).
        log(&requester->proc, data->view().data(), data->size(), host_dirs->data(),
            host_dirs->size(), cbfunc, cbdata);
        return PMIX_SUCCESS;
      },
      [requester, data, directives, host_dirs, done](pmix_status_t status) {
        if (status == PMIX_ERR_NOT_SUPPORTED) status = ServeHere(*requester, *data, *directives);
        done(status);
      });
}

void HandleLog(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  wire::Reader r(peer->conn->codec(), frame.payload);
  auto data = std::make_shared<wire::Infos>(r.InfoArray());
  auto directives = std::make_shared<wire::Infos>(r.InfoArray());
  StatusDone reply = StatusReplier(peer, frame);
  if (!r.status().ok()) return reply(r.status().code());
  Log(s, RequesterOf(*peer), std::move(data), std::move(directives), std::move(reply));
}

}  // namespace pmix::server
