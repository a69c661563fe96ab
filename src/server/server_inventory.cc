// PMIx_server_collect_inventory / PMIx_server_deliver_inventory
// (server_inventory.h).
#include "src/server/server_inventory.h"

#include <hwloc.h>

#include <memory>
#include <string>

#include "pmix_server.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/runtime/context.h"
#include "src/server/server_internal.h"

namespace pmix::server {
namespace {

// Topology and memory size from hwloc; nothing added when hwloc fails.
Status AddHwlocInventory(wire::Infos& out) {
  hwloc_topology_t topo = nullptr;
  if (hwloc_topology_init(&topo) != 0) return Status();
  Status added;
  if (hwloc_topology_load(topo) == 0) {
    char source[] = "hwloc";
    pmix_topology_t t{source, topo};
    added = out.Add(PMIX_TOPOLOGY2, &t, PMIX_TOPO);  // a duplicate: ours is destroyed below
    uint64_t memory = hwloc_get_root_obj(topo)->total_memory;
    if (added.ok() && memory > 0) added = out.Add(PMIX_AVAIL_PHYS_MEMORY, &memory, PMIX_UINT64);
  }
  hwloc_topology_destroy(topo);
  return added;
}

Result<wire::Infos> Collect(const Server& s) {
  wire::Infos out;
  PMIX_RETURN_IF_ERROR(out.Add(PMIX_HOSTNAME, s.hostname.c_str(), PMIX_STRING));
  PMIX_RETURN_IF_ERROR(AddHwlocInventory(out));
  return out;
}

void ReleaseInfos(void* cbdata) { delete static_cast<wire::Infos*>(cbdata); }

void Store(Server& s, wire::Infos&& inventory) {
  std::string node = InfoString(inventory.view(), PMIX_HOSTNAME).value_or("");
  s.inventory.insert_or_assign(std::move(node), std::move(inventory));
}

}  // namespace

const wire::Infos* Inventory(const Server& s, std::string_view node) {
  auto it = s.inventory.find(node);
  return it == s.inventory.end() ? nullptr : &it->second;
}

}  // namespace pmix::server

namespace server = pmix::server;

extern "C" pmix_status_t PMIx_server_collect_inventory(pmix_info_t directives[], size_t ndirs,
                                                       pmix_info_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_server_collect_inventory", [&]() -> pmix_status_t {
    if (!server::ServerInitialized()) return PMIX_ERR_INIT;
    if (cbfunc == nullptr || (directives == nullptr && ndirs > 0)) return PMIX_ERR_BAD_PARAM;
    pmix::runtime::ProgressEngine* engine = pmix::runtime::Engine();
    if (engine == nullptr) return PMIX_ERR_INIT;
    return engine
        ->Post([cbfunc, cbdata] {
          server::Server* s = server::CurrentServer();
          if (s == nullptr) return cbfunc(PMIX_ERR_INIT, nullptr, 0, cbdata, nullptr, nullptr);
          auto collected = server::Collect(*s);
          if (!collected.ok())
            return cbfunc(collected.status().code(), nullptr, 0, cbdata, nullptr, nullptr);
          auto* out = new pmix::wire::Infos(std::move(*collected));
          cbfunc(PMIX_SUCCESS, out->data(), out->size(), cbdata, server::ReleaseInfos, out);
        })
        .code();
  });
}

extern "C" pmix_status_t PMIx_server_deliver_inventory(pmix_info_t info[], size_t ninfo,
                                                       pmix_info_t directives[], size_t ndirs,
                                                       pmix_op_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_server_deliver_inventory", [&]() -> pmix_status_t {
    if (!server::ServerInitialized()) return PMIX_ERR_INIT;
    if ((info == nullptr && ninfo > 0) || (directives == nullptr && ndirs > 0))
      return PMIX_ERR_BAD_PARAM;
    auto copy = pmix::wire::Infos::CopyOf(pmix::InfoSpan(info, ninfo));
    if (!copy.ok()) return copy.status().code();
    auto held = std::make_shared<pmix::wire::Infos>(std::move(*copy));
    return server::RunOp(
        [held](server::Server& s) {
          server::Store(s, std::move(*held));
          return pmix::Status();
        },
        cbfunc, cbdata);
  });
}
