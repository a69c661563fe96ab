// PMIx_Fabric_register / _update / _deregister (standard §15.2), blocking
// and non-blocking.
//
// Register and update ask the server (wire::Msg::kFabric; in a process
// that is itself a server, its own server library: server_fabric.h) for
// the fabric's description and load it into the caller's pmix_fabric_t:
// info/ninfo (malloc'd, freed by deregister), name (PMIX_FABRIC_PLANE of
// the answer when the caller gave none), index (per process, from 0), and
// `module`, the library's mark that the struct is registered. Update asks
// for the same plane again (PMIX_FABRIC_PLANE = fabric->name) and replaces
// info. Deregister frees what register loaded and clears the mark; it needs
// no server. The callback of an _nb call runs on the progress thread after
// the call returned; the caller must not touch the struct until then.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "pmix.h"
#include "src/client/client_request.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/runtime/context.h"
#include "src/server/server_fabric.h"

namespace pmix::client {
namespace {

// fabric->module of a registered fabric points here.
char g_registered_mark;
std::atomic<size_t> g_next_index{0};

bool Registered(const pmix_fabric_t* f) { return f->module == &g_registered_mark; }

void FreeInfo(pmix_fabric_t* f) {
  if (f->info != nullptr) PMIx_Info_free(f->info, f->ninfo);
  f->info = nullptr;
  f->ninfo = 0;
}

// Loads the answer into *f (progress thread, when the request completed).
pmix_status_t Load(pmix_fabric_t* f, const InfoReply& reply, bool first) {
  if (reply.status != PMIX_SUCCESS) return reply.status;
  pmix_info_t* info = nullptr;
  size_t n = 0;
  pmix_status_t rc = CopyInfoReplyOut(reply, &info, &n);
  if (rc != PMIX_SUCCESS) return rc;
  if (first && f->name == nullptr) {
    auto plane = InfoString(reply.info.view(), PMIX_FABRIC_PLANE);
    if (plane) f->name = strdup(plane->c_str());
  }
  FreeInfo(f);
  f->info = info;
  f->ninfo = n;
  if (first) {
    f->index = g_next_index++;
    f->module = &g_registered_mark;
  }
  return PMIX_SUCCESS;
}

pmix_status_t Start(pmix_fabric_t* f, pmix_fabric_operation_t op,
                    std::span<const pmix_info_t> directives, std::function<void(pmix_status_t)> done) {
  auto dirs = std::make_shared<wire::Infos>();
  for (const auto& d : directives) {
    if (PMIX_CHECK_KEY(&d, PMIX_FABRIC_PLANE)) continue;
    Status st = dirs->Append(d);
    if (!st.ok()) return st.code();
  }
  auto plane = InfoString(directives, PMIX_FABRIC_PLANE);
  if (!plane && f->name != nullptr) plane = f->name;
  if (plane) {
    Status st = dirs->Add(PMIX_FABRIC_PLANE, plane->c_str(), PMIX_STRING);
    if (!st.ok()) return st.code();
  }
  const bool first = op == PMIX_FABRIC_REQUEST_INFO;
  return StartInfoRequest(
      wire::Msg::kFabric,
      [dirs, op](wire::Writer& w) {
        w.U32(static_cast<uint32_t>(op)).InfoArray(dirs->view());
      },
      [dirs, op](server::Server& s, InfoDone reply) {
        server::Fabric(s, server::SelfRequester(s), op, dirs->view(), AsInfosDone(std::move(reply)));
      },
      [f, first, done](InfoReply&& r) { done(Load(f, r, first)); });
}

pmix_status_t Blocking(pmix_fabric_t* f, pmix_fabric_operation_t op,
                       std::span<const pmix_info_t> directives) {
  auto r = WaitInfoReply([&](InfoDone done) {
    return Start(f, op, directives, [done](pmix_status_t status) {
      InfoReply reply;
      reply.status = status;
      done(std::move(reply));
    });
  });
  return r.ok() ? r->status : r.status().code();
}

void Deregister(pmix_fabric_t* f) {
  FreeInfo(f);
  std::free(f->name);
  f->name = nullptr;
  f->module = nullptr;
}

// Calls an op callback on the progress thread (after the API returned).
pmix_status_t Complete(pmix_op_cbfunc_t cbfunc, void* cbdata, pmix_status_t status) {
  if (cbfunc == nullptr) return PMIX_SUCCESS;
  runtime::ProgressEngine* engine = runtime::Engine();
  if (engine == nullptr || !engine->Post([=] { cbfunc(status, cbdata); }).ok())
    cbfunc(status, cbdata);
  return PMIX_SUCCESS;
}

}  // namespace
}  // namespace pmix::client

namespace client = pmix::client;

extern "C" pmix_status_t PMIx_Fabric_register(pmix_fabric_t* fabric, const pmix_info_t directives[],
                                              size_t ndirs) {
  return pmix::ApiGuard("PMIx_Fabric_register", [&]() -> pmix_status_t {
    if (fabric == nullptr || (directives == nullptr && ndirs > 0)) return PMIX_ERR_BAD_PARAM;
    if (client::Registered(fabric)) return PMIX_ERR_BAD_PARAM;
    return client::Blocking(fabric, PMIX_FABRIC_REQUEST_INFO, pmix::InfoSpan(directives, ndirs));
  });
}

extern "C" pmix_status_t PMIx_Fabric_register_nb(pmix_fabric_t* fabric,
                                                 const pmix_info_t directives[], size_t ndirs,
                                                 pmix_op_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_Fabric_register_nb", [&]() -> pmix_status_t {
    if (fabric == nullptr || (directives == nullptr && ndirs > 0)) return PMIX_ERR_BAD_PARAM;
    if (client::Registered(fabric)) return PMIX_ERR_BAD_PARAM;
    return client::Start(fabric, PMIX_FABRIC_REQUEST_INFO, pmix::InfoSpan(directives, ndirs),
                         [cbfunc, cbdata](pmix_status_t status) {
                           if (cbfunc != nullptr) cbfunc(status, cbdata);
                         });
  });
}

extern "C" pmix_status_t PMIx_Fabric_update(pmix_fabric_t* fabric) {
  return pmix::ApiGuard("PMIx_Fabric_update", [&]() -> pmix_status_t {
    if (fabric == nullptr || !client::Registered(fabric)) return PMIX_ERR_BAD_PARAM;
    return client::Blocking(fabric, PMIX_FABRIC_UPDATE_INFO, {});
  });
}

extern "C" pmix_status_t PMIx_Fabric_update_nb(pmix_fabric_t* fabric, pmix_op_cbfunc_t cbfunc,
                                               void* cbdata) {
  return pmix::ApiGuard("PMIx_Fabric_update_nb", [&]() -> pmix_status_t {
    if (fabric == nullptr || !client::Registered(fabric)) return PMIX_ERR_BAD_PARAM;
    return client::Start(fabric, PMIX_FABRIC_UPDATE_INFO, {}, [cbfunc, cbdata](pmix_status_t status) {
      if (cbfunc != nullptr) cbfunc(status, cbdata);
    });
  });
}

extern "C" pmix_status_t PMIx_Fabric_deregister(pmix_fabric_t* fabric) {
  return pmix::ApiGuard("PMIx_Fabric_deregister", [&]() -> pmix_status_t {
    if (fabric == nullptr || !client::Registered(fabric)) return PMIX_ERR_BAD_PARAM;
    client::Deregister(fabric);
    return PMIX_SUCCESS;
  });
}

extern "C" pmix_status_t PMIx_Fabric_deregister_nb(pmix_fabric_t* fabric, pmix_op_cbfunc_t cbfunc,
                                                   void* cbdata) {
  return pmix::ApiGuard("PMIx_Fabric_deregister_nb", [&]() -> pmix_status_t {
    if (fabric == nullptr || !client::Registered(fabric)) return PMIX_ERR_BAD_PARAM;
    client::Deregister(fabric);
    return client::Complete(cbfunc, cbdata, PMIX_SUCCESS);
  });
}
