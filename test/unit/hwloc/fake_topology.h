// The fake node of the hwloc tests (fake_node.xml): 2 packages, each with
// 2 NUMA nodes (one L3 each), 2 cores per NUMA node (own L2 and L1) and 2
// PUs per core -- PUs 0-15, cores 0-7, NUMA nodes 0-3 -- plus I/O: an
// InfiniBand HCA (mlx5_0) below package 0, a NIC (eth1) and a GPU
// (renderD128, with its card1 alias) below package 1. The answers the
// tests expect were measured on Debian's OpenPMIx 4.2.2 with this file as
// its topology (PMIX_MCA_pmix_hwloc_topo_file).
#ifndef PMIXX_TEST_UNIT_HWLOC_FAKE_TOPOLOGY_H
#define PMIXX_TEST_UNIT_HWLOC_FAKE_TOPOLOGY_H

#include <hwloc.h>

#include <string>

#include "src/hwloc/cpuset_text.h"

namespace pmix::hwloc::testing {

inline const char* FakeNodeXml() { return FAKE_NODE_XML; }

// Loads the fake node (or a synthetic description when `synthetic` is set);
// nullptr on failure.
inline hwloc_topology_t LoadFake(const char* synthetic = nullptr) {
  hwloc_topology_t t = nullptr;
  if (hwloc_topology_init(&t) != 0) return nullptr;
  hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
  int rc = synthetic != nullptr ? hwloc_topology_set_synthetic(t, synthetic)
                                : hwloc_topology_set_xml(t, FakeNodeXml());
  if (rc != 0 || hwloc_topology_load(t) != 0) {
    hwloc_topology_destroy(t);
    return nullptr;
  }
  return t;
}

inline Bitmap Cpus(const char* list) {
  auto b = ParseList(list);
  return b.ok() ? std::move(*b) : Bitmap();
}

}  // namespace pmix::hwloc::testing

#endif  // PMIXX_TEST_UNIT_HWLOC_FAKE_TOPOLOGY_H
