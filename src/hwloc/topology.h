// The node topology this process uses: one hwloc topology per process,
// loaded once and shared by every API that needs it (PMIx_Load_topology,
// locality strings, distances, pnet).
//
// Where it comes from is decided by the role: a server adopts the one its
// host passes (PMIX_TOPOLOGY2 / PMIX_TOPOLOGY) or discovers it; a client
// adopts the copy its server shares (hwloc shmem, then XML v2, then XML v1)
// and discovers it only when none is shared. Discovery honours the MCA
// variable hwloc_topo_file (an XML file to load instead, mostly for tests).
//
// Threads: every function may be called from any thread; the process
// topology is set once and never changes until Reset (tests, finalize of
// the last role); readers get a pointer that stays valid until then.
// hwloc topologies are safe for concurrent read-only use.
#ifndef PMIXX_SRC_HWLOC_TOPOLOGY_H
#define PMIXX_SRC_HWLOC_TOPOLOGY_H

#include <hwloc.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "pmix_common.h"
#include "src/common/status.h"

namespace pmix::hwloc {

enum class Origin { kNone, kHost, kShmem, kXmlV2, kXmlV1, kFile, kDiscovered };

// "host", "shmem", "xml-v2", "xml-v1", "file", "discovered", "none".
const char* OriginName(Origin origin);

// "hwloc:<version of the hwloc we run on>", as OpenPMIx reports it.
std::string SourceString();

struct TopologyDeleter {
  void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
};
using OwnedTopology = std::unique_ptr<hwloc_topology, TopologyDeleter>;

// Loaders (each returns a new topology, owned by the caller).
// Discovery (or hwloc_topo_file when set): the node as hwloc sees it, I/O
// devices filtered to the important ones.
Result<OwnedTopology> Discover();
// From an XML export (v1 or v2). PMIX_ERR_BAD_PARAM when hwloc refuses it.
Result<OwnedTopology> FromXml(std::string_view xml);
// Adopts a shared-memory topology written by a server
// (hwloc_shmem_topology_adopt: mapped read-only at the same address).
// PMIX_ERR_NOT_AVAILABLE when the file is not there or the address range
// is taken in this process.
Result<OwnedTopology> FromShmem(const std::string& file, uint64_t addr, uint64_t size);

// The process topology, or nullptr when none was set.
hwloc_topology_t Current();
Origin CurrentOrigin();
// Sets the process topology when none is set yet (the first one wins and
// is returned; an `owned` loser is destroyed). An external (not owned)
// topology is never destroyed by us.
hwloc_topology_t Install(OwnedTopology topology, Origin origin);
hwloc_topology_t InstallExternal(hwloc_topology_t topology, Origin origin);
// Forgets the process topology (destroying it when owned). Only when no
// pointer to it is in use any more.
void Reset();

// The process topology, discovering it now when none is set.
Result<hwloc_topology_t> CurrentOrDiscover();

// The process topology (as PMIx_Load_topology loads it) as a new PMIX_TOPO
// value, the answer to a process's PMIx_Get of its own PMIX_TOPOLOGY2 (an
// OpenPMIx 4.2.2 process records the topology it loaded under its own id).
// The value's topology is the process topology: releasing the value keeps it.
Result<pmix_value_t*> ProcessTopologyValue();

}  // namespace pmix::hwloc

#endif  // PMIXX_SRC_HWLOC_TOPOLOGY_H
