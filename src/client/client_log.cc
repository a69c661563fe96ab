// PMIx_Log and PMIx_Log_nb (standard §13.4).
//
// A client hands the request to its server (wire::Msg::kLog; what the
// server does with it: src/server/server_log.h); a process that is itself
// a server runs it there, with itself as the requester; a singleton (no
// server) serves the channels it can itself (src/server/log_channels.h:
// stderr, stdout, syslog) and fails the others with PMIX_ERR_NOT_SUPPORTED.
// The _nb callback runs on the progress thread after the call returned.
#include <memory>
#include <utility>

#include "pmix.h"
#include "src/client/client_request.h"
#include "src/client/client_state.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/runtime/context.h"
#include "src/server/log_channels.h"
#include "src/server/server_log.h"

namespace pmix::client {
namespace {

using InfosPtr = std::shared_ptr<const wire::Infos>;

struct LogArgs {
  InfosPtr data;
  InfosPtr directives;
};

// PMIX_ERR_BAD_PARAM for no data or a NULL array with a nonzero count.
Result<LogArgs> Prepare(const pmix_info_t data[], size_t ndata, const pmix_info_t directives[],
                        size_t ndirs) {
  if (data == nullptr || ndata == 0 || (directives == nullptr && ndirs > 0))
    return Status(PMIX_ERR_BAD_PARAM);
  auto d = wire::Infos::CopyOf(InfoSpan(data, ndata));
  if (!d.ok()) return d.status();
  auto dirs = wire::Infos::CopyOf(InfoSpan(directives, ndirs));
  if (!dirs.ok()) return dirs.status();
  return LogArgs{std::make_shared<const wire::Infos>(std::move(*d)),
                 std::make_shared<const wire::Infos>(std::move(*dirs))};
}

void ToServer(const LogArgs& args, InfoDone done) {
  pmix_status_t rc = StartInfoRequest(
      wire::Msg::kLog,
      [args](wire::Writer& w) {
        w.InfoArray(args.data->view()).InfoArray(args.directives->view());
      },
      [args](server::Server& s, InfoDone reply) {
        server::Log(s, server::SelfRequester(s), args.data, args.directives,
                    AsStatusDone(std::move(reply)));
      },
      done);
  if (rc != PMIX_SUCCESS) done(InfoReply{rc, {}});
}

pmix_status_t Start(const LogArgs& args, InfoDone done) {
  runtime::ProgressEngine* engine = runtime::Engine();
  if (engine == nullptr) return PMIX_ERR_INIT;
  return engine
      ->Post([args, done = std::move(done)] {
        Client* c = CurrentClient();
        if (c != nullptr && c->singleton && server::CurrentServer() == nullptr) {
          pmix_status_t rc = logging::LogLocally(c->myproc, args.data->view(),
                                                 args.directives->view(), logging::SystemSinks());
          return done(InfoReply{rc, {}});
        }
        ToServer(args, done);
      })
      .code();
}

}  // namespace
}  // namespace pmix::client

namespace client = pmix::client;

extern "C" pmix_status_t PMIx_Log_nb(const pmix_info_t data[], size_t ndata,
                                     const pmix_info_t directives[], size_t ndirs,
                                     pmix_op_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_Log_nb", [&]() -> pmix_status_t {
    auto args = client::Prepare(data, ndata, directives, ndirs);
    if (!args.ok()) return args.status().code();
    return client::Start(*args, [cbfunc, cbdata](client::InfoReply&& r) {
      if (cbfunc != nullptr) cbfunc(r.status, cbdata);
    });
  });
}

extern "C" pmix_status_t PMIx_Log(const pmix_info_t data[], size_t ndata,
                                  const pmix_info_t directives[], size_t ndirs) {
  return pmix::ApiGuard("PMIx_Log", [&]() -> pmix_status_t {
    auto args = client::Prepare(data, ndata, directives, ndirs);
    if (!args.ok()) return args.status().code();
    auto r = client::WaitInfoReply(
        [&](client::InfoDone done) { return client::Start(*args, std::move(done)); });
    if (!r.ok()) return r.status().code();
    return r->status;
  });
}
