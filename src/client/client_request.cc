// Client requests answered with a status and an info array (client_request.h).
#include "src/client/client_request.h"

#include <memory>
#include <utility>

#include "src/client/client_state.h"
#include "src/runtime/context.h"

namespace pmix::client {
namespace {

void AskServer(Client& c, wire::Msg msg, const BodyWriter& write, const InfoDone& done) {
  if (c.codec() == nullptr) return done(InfoReply{PMIX_ERR_UNREACH, {}});
  wire::Writer w(c.codec());
  if (write) write(w);
  auto body = w.Take();
  if (!body.ok()) return done(InfoReply{body.status().code(), {}});
  c.Request(msg, *body, [done](Status st, wire::Reader& r) {
    InfoReply out;
    out.status = st.ok() ? r.Status() : st.code();
    // A server that does not know the request answers with a status only.
    if (st.ok() && r.status().ok() && !r.AtEnd()) out.info = r.InfoArray();
    if (st.ok() && !r.status().ok() && out.status == PMIX_SUCCESS) out.status = r.status().code();
    done(std::move(out));
  });
}

void ReleaseInfos(void* cbdata) { delete static_cast<wire::Infos*>(cbdata); }

}  // namespace

pmix_status_t StartInfoRequest(wire::Msg msg, BodyWriter write, ServerRunner as_server,
                               InfoDone done) {
  runtime::ProgressEngine* engine = runtime::Engine();
  if (engine == nullptr) return PMIX_ERR_INIT;
  Status posted = engine->Post([msg, write = std::move(write), as_server = std::move(as_server),
                                done = std::move(done)] {
    // A process connected to a server asks it (a launcher tool is a server
    // too, but its requests go up); one that only serves asks its host.
    Client* c = CurrentClient();
    if (c != nullptr && c->conn != nullptr && !c->conn->closed())
      return AskServer(*c, msg, write, done);
    if (server::Server* s = server::CurrentServer(); s != nullptr) {
      if (!as_server) return done(InfoReply{PMIX_ERR_NOT_SUPPORTED, {}});
      return as_server(*s, done);
    }
    if (c != nullptr) return AskServer(*c, msg, write, done);
    done(InfoReply{PMIX_ERR_INIT, {}});
  });
  return posted.code();
}

server::InfosDone AsInfosDone(InfoDone done) {
  return [done = std::move(done)](pmix_status_t status, wire::Infos&& infos) {
    done(InfoReply{status, std::move(infos)});
  };
}

server::StatusDone AsStatusDone(InfoDone done) {
  return [done = std::move(done)](pmix_status_t status) { done(InfoReply{status, {}}); };
}

Result<InfoReply> WaitInfoReply(const std::function<pmix_status_t(InfoDone)>& start) {
  return runtime::WaitForCallback<InfoReply>(
      [&](std::function<void(InfoReply&&)> done) { return start(std::move(done)); });
}

void DeliverInfoReply(pmix_info_cbfunc_t cbfunc, void* cbdata, InfoReply&& reply) {
  if (cbfunc == nullptr) return;
  auto* held = new wire::Infos(std::move(reply.info));
  cbfunc(reply.status, held->size() > 0 ? held->data() : nullptr, held->size(), cbdata,
         ReleaseInfos, held);
}

pmix_status_t CopyInfoReplyOut(const InfoReply& reply, pmix_info_t** info, size_t* ninfo) {
  if (info != nullptr) *info = nullptr;
  if (ninfo != nullptr) *ninfo = 0;
  if (info == nullptr || ninfo == nullptr || reply.info.size() == 0) return reply.status;
  auto out = reply.info.ToMalloced();
  if (!out.ok()) return out.status().code();
  *info = *out;
  *ninfo = reply.info.size();
  return reply.status;
}

}  // namespace pmix::client
