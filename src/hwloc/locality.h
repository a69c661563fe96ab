// Locality strings (PMIx_server_generate_locality_string,
// PMIx_Get_relative_locality) in OpenPMIx's format, so that a string made
// by either library is understood by the other:
//
//   "SK0:L30:L21:L11:CR1:HT1:NM0"
//
// one token per level of the topology the cpuset touches, from the top
// down -- SK package, L3/L2/L1 caches, CR core, HT hardware thread -- then
// NM (NUMA nodes, which hwloc 2 keeps beside the tree), each followed by
// the hwloc list of the logical indexes of that level's objects that
// intersect the cpuset. (Measured: OpenPMIx 4.2.2 on a one-package node
// gives exactly this for a process bound to PU 1.) A reader also accepts
// the string with an "hwloc:" prefix.
//
// Pure functions over a topology the caller keeps alive; any thread.
#ifndef PMIXX_SRC_HWLOC_LOCALITY_H
#define PMIXX_SRC_HWLOC_LOCALITY_H

#include <hwloc.h>

#include <optional>
#include <string>
#include <string_view>

#include "pmix_common.h"
#include "src/common/status.h"

namespace pmix::hwloc {

// The locality string of `cpuset` in `topology`; nullopt when the cpuset
// says "not bound" (empty or infinitely full), as OpenPMIx does.
std::optional<std::string> LocalityString(hwloc_topology_t topology, hwloc_const_bitmap_t cpuset);

// What two processes with these locality strings share: always
// PMIX_LOCALITY_SHARE_NODE, plus a bit per level whose objects intersect.
// PMIX_ERR_BAD_PARAM for a malformed string (unknown level, bad list);
// PMIX_ERR_NOT_SUPPORTED for a string that is not in this format at all.
Result<pmix_locality_t> RelativeLocality(std::string_view a, std::string_view b);

}  // namespace pmix::hwloc

#endif  // PMIXX_SRC_HWLOC_LOCALITY_H
