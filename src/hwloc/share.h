// A server's node topology as its clients receive it (PMIX_SERVER_SHARE_TOPOLOGY):
//
//   PMIX_HWLOC_XML_V2 (and the deprecated PMIX_LOCAL_TOPO)  hwloc v2 XML
//   PMIX_HWLOC_XML_V1                                        hwloc v1 XML
//   PMIX_HWLOC_SHMEM_FILE / _ADDR / _SIZE (PMIX_SIZE)        an hwloc shmem
//       topology (hwloc_shmem_topology_write) that clients map read-only at
//       the same address with hwloc_shmem_topology_adopt
//
// These are the keys and types Open MPI 4.1 (opal_hwloc_base_get_topology)
// and OpenPMIx clients read, in this order of preference. The segment's
// address is chosen in the middle of the largest unmapped range of the
// server's address space, which in a client of the same node is unmapped
// too in all but unusual layouts; a client that cannot map it there falls
// back to the XML. The MCA variable hwloc_hole_kind ("biggest", the
// default, or "none": no shared memory; OpenPMIx's name) controls it.
//
// Threads: the object belongs to its creator (the server's progress thread).
#ifndef PMIXX_SRC_HWLOC_SHARE_H
#define PMIXX_SRC_HWLOC_SHARE_H

#include <hwloc.h>

#include <cstdint>
#include <optional>
#include <string>

#include "src/common/status.h"
#include "src/wire/buffer.h"

namespace pmix::hwloc {

// An address range of `size` bytes inside the largest gap of the mappings
// listed in `maps` (the text of /proc/<pid>/maps), centred and aligned to
// 2 MiB; nullopt when no gap is large enough.
std::optional<uint64_t> FindHole(const std::string& maps, uint64_t size);

class SharedTopology {
 public:
  // Exports `topology` (which must outlive nothing here: everything is
  // copied or written out). The segment file, when made, is
  // `dir`/pmixx-hwloc.sm (ORTE writes its own hwloc.sm in the same kind of
  // directory).
  // Failure to make the segment is not an error (the XML keys remain);
  // failure to export the XML is.
  static Result<SharedTopology> Create(hwloc_topology_t topology, const std::string& dir);
  SharedTopology(SharedTopology&& other) noexcept;
  SharedTopology& operator=(SharedTopology&& other) = delete;
  SharedTopology(const SharedTopology&) = delete;
  ~SharedTopology();  // removes the segment file

  // The keys above, to add to every job's job-level data.
  const wire::Infos& infos() const { return infos_; }
  const std::string& segment_file() const { return file_; }

 private:
  SharedTopology() = default;
  Status WriteSegment(hwloc_topology_t topology, const std::string& dir);

  wire::Infos infos_;
  std::string file_;  // empty: no segment
};

}  // namespace pmix::hwloc

#endif  // PMIXX_SRC_HWLOC_SHARE_H
