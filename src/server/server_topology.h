// The server's node topology (standard §17.2.x PMIx_server_init attributes):
//
// - PMIX_TOPOLOGY2 (pmix_topology_t*) or PMIX_TOPOLOGY (hwloc_topology_t)
//   from the host become the process topology (never destroyed by us;
//   forgotten at PMIx_server_finalize);
// - with PMIX_SERVER_SHARE_TOPOLOGY (or, when the host says nothing, the MCA
//   variable hwloc_share_topology) the server loads it once (the host's, or
//   discovery) and shares it: the keys of src/hwloc/share.h join every
//   job's job-level data, like resources the host registered.
// - PMIX_LOCALITY_STRING: a local proc whose PMIX_PROC_DATA carries a
//   PMIX_CPUSET ("hwloc:<list>" or a bare list) and no locality string
//   gets one (PMIx_server_generate_locality_string's) in its data.
//
// Progress thread only (Server state).
#ifndef PMIXX_SRC_SERVER_SERVER_TOPOLOGY_H
#define PMIXX_SRC_SERVER_SERVER_TOPOLOGY_H

#include <span>
#include <utility>
#include <vector>

#include "src/server/server_state.h"

namespace pmix::server {

// At init, before any namespace is registered.
Status SetupTopology(Server& s, std::span<const pmix_info_t> info);
// At finalize, before the tmpdir is removed.
void TopologyShutdown(Server& s);

// The PMIX_PROC_DATA arrays of `info` (a namespace registration) that
// gain a PMIX_LOCALITY_STRING: those of local procs with a cpuset and
// none. Pairs (index into info, the array with the string added), by
// ascending index; none when no proc has a cpuset.
Result<std::vector<std::pair<size_t, wire::Infos>>> LocalityStrings(
    const Server& s, std::span<const pmix_info_t> info);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_TOPOLOGY_H
