// Node inventory (standard §17.2.15 PMIx_server_collect_inventory,
// §17.2.16 PMIx_server_deliver_inventory).
//
// collect_inventory describes this node, from hwloc (already a dependency):
//   PMIX_HOSTNAME          (string)          the server's node name
//   PMIX_TOPOLOGY2         (pmix_topology_t) the node's hwloc topology
//                                            (packs as hwloc XML for the wire)
//   PMIX_AVAIL_PHYS_MEMORY (uint64)          bytes of memory hwloc reports
// Directives are accepted and ignored (we have no fabric inventory). The
// answer goes to cbfunc (required: PMIX_ERR_BAD_PARAM without one) on the
// progress thread after the call returned; the infos stay valid until the
// host calls the release function. The topology is loaded on the progress
// thread (about 10 ms; the standard expects collection to be rare). If
// hwloc fails, the answer holds the hostname only.
//
// deliver_inventory stores what the host collected on some node, keyed by
// the PMIX_HOSTNAME among the infos ("" when absent): a later delivery for
// the same node replaces it. The store (Server::inventory) lives until
// PMIx_server_finalize; cbfunc runs after the call returned, a NULL cbfunc
// makes the call blocking. PMIX_ERR_INIT before PMIx_server_init,
// PMIX_ERR_BAD_PARAM for a NULL array with a nonzero count.
//
// Threads: the APIs may be called on any thread; Inventory() is for the
// progress thread.
#ifndef PMIXX_SRC_SERVER_SERVER_INVENTORY_H
#define PMIXX_SRC_SERVER_SERVER_INVENTORY_H

#include <string_view>

#include "src/server/server_state.h"

namespace pmix::server {

// The inventory delivered for `node`, or nullptr.
const wire::Infos* Inventory(const Server& s, std::string_view node);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_INVENTORY_H
