// Distances from a set of PUs to the node's devices (PMIx_Compute_distances).
//
// Devices are hwloc's OS devices of the kinds PMIx names: network
// (PMIX_DEVTYPE_NETWORK), OpenFabrics HCAs (PMIX_DEVTYPE_OPENFABRICS), GPUs
// (PMIX_DEVTYPE_GPU; the "card*" DRM aliases are not separate devices) and
// co-processors (PMIX_DEVTYPE_COPROC). Each gets OpenPMIx's identifier:
// "ipv4://<address>" / "ipv6://<address>" for network devices (by the
// colons of hwloc's Address info: 5 or 19), "fab://<NodeGUID>::<SysImageGUID>"
// for HCAs, "gpu://<host>::<osname>" and "coproc://<host>::<osname>"; a
// network device without an address is "net://<host>::<osname>".
//
// Distances are measured in the hwloc tree from the cpuset's location (the
// deepest object that holds it): the topology depth minus the depth of the
// common ancestor of location and device (smaller is closer); when they
// only share the machine, the location's depth plus the topology depth.
// These are OpenPMIx's numbers (measured: Debian's 4.2.2 on the same fake
// topology), and then mindist == maxdist. A cpuset that spans packages
// (where OpenPMIx gives up) is measured PU by PU: mindist and maxdist are
// its closest and farthest PU. Devices are listed GPUs first, then
// network devices, HCAs, co-processors, each kind in hwloc's order.
//
// Pure function over a topology the caller keeps alive; any thread.
#ifndef PMIXX_SRC_HWLOC_DISTANCES_H
#define PMIXX_SRC_HWLOC_DISTANCES_H

#include <hwloc.h>

#include <string>
#include <vector>

#include "pmix_common.h"
#include "src/common/status.h"

namespace pmix::hwloc {

struct DeviceDistance {
  std::string uuid;
  std::string osname;
  pmix_device_type_t type = PMIX_DEVTYPE_UNKNOWN;
  uint16_t mindist = 0;
  uint16_t maxdist = 0;
};

struct DeviceFilter {
  pmix_device_type_t types = 0;  // 0: every supported type
  std::vector<std::string> ids;  // empty: all; else uuid or osname (any case)
};

// The devices that pass `filter`, in hwloc's order, with the distances
// from `cpuset`. An empty list when there are none. PMIX_ERR_BAD_PARAM
// when the cpuset contains no PU of the topology.
Result<std::vector<DeviceDistance>> ComputeDistances(hwloc_topology_t topology,
                                                      hwloc_const_bitmap_t cpuset,
                                                      const DeviceFilter& filter,
                                                      const std::string& hostname);

}  // namespace pmix::hwloc

#endif  // PMIXX_SRC_HWLOC_DISTANCES_H
