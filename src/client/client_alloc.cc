// PMIx_Allocation_request and PMIx_Allocation_request_nb (standard §13.1).
//
// A client sends the request to its server (wire::Msg::kAllocate; the
// body and what the server does with it: src/server/server_alloc.h). A
// process that is itself a server hands it to its own host. The callback
// runs on the progress thread after the _nb call returned; its results
// stay valid until the caller invokes the release function it is handed.
// Directives other than PMIX_ALLOC_NEW .. PMIX_ALLOC_REAQUIRE and the
// implementer range from PMIX_ALLOC_EXTERNAL up are PMIX_ERR_BAD_PARAM.
#include <memory>

#include "pmix.h"
#include "src/client/client_request.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/server/server_alloc.h"

namespace pmix::client {
namespace {

bool ArgsValid(pmix_alloc_directive_t directive, const pmix_info_t* info, size_t ninfo) {
  bool known = (directive >= PMIX_ALLOC_NEW && directive <= PMIX_ALLOC_REAQUIRE) ||
               directive >= PMIX_ALLOC_EXTERNAL;
  return known && (info != nullptr || ninfo == 0);
}

pmix_status_t Start(pmix_alloc_directive_t directive, std::span<const pmix_info_t> info,
                    InfoDone done) {
  auto copy = wire::Infos::CopyOf(info);
  if (!copy.ok()) return copy.status().code();
  auto infos = std::make_shared<wire::Infos>(std::move(*copy));
  return StartInfoRequest(
      wire::Msg::kAllocate,
      [directive, infos](wire::Writer& w) {
        w.Pack(&directive, 1, PMIX_ALLOC_DIRECTIVE).InfoArray(infos->view());
      },
      [directive, infos](server::Server& s, InfoDone done) {
        server::Allocate(s, server::SelfRequester(s), directive, infos->view(),
                         AsInfosDone(std::move(done)));
      },
      std::move(done));
}

}  // namespace
}  // namespace pmix::client

namespace client = pmix::client;

extern "C" pmix_status_t PMIx_Allocation_request_nb(pmix_alloc_directive_t directive,
                                                    pmix_info_t* info, size_t ninfo,
                                                    pmix_info_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_Allocation_request_nb", [&]() -> pmix_status_t {
    if (!client::ArgsValid(directive, info, ninfo)) return PMIX_ERR_BAD_PARAM;
    return client::Start(directive, pmix::InfoSpan(info, ninfo),
                         [cbfunc, cbdata](client::InfoReply&& r) {
                           client::DeliverInfoReply(cbfunc, cbdata, std::move(r));
                         });
  });
}

extern "C" pmix_status_t PMIx_Allocation_request(pmix_alloc_directive_t directive,
                                                 pmix_info_t* info, size_t ninfo,
                                                 pmix_info_t** results, size_t* nresults) {
  return pmix::ApiGuard("PMIx_Allocation_request", [&]() -> pmix_status_t {
    if (!client::ArgsValid(directive, info, ninfo)) return PMIX_ERR_BAD_PARAM;
    auto r = client::WaitInfoReply([&](client::InfoDone done) {
      return client::Start(directive, pmix::InfoSpan(info, ninfo), std::move(done));
    });
    if (!r.ok()) return r.status().code();
    return client::CopyInfoReplyOut(*r, results, nresults);
  });
}
