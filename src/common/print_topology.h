// The text PMIx_Data_print and PMIx_Value_string give an hwloc topology:
// OpenPMIx 4.2's object tree (measured on Debian's libpmix 4.2.2), so that
// a tool or log parser reading one library's output reads the other's.
#ifndef PMIXX_SRC_COMMON_PRINT_TOPOLOGY_H
#define PMIXX_SRC_COMMON_PRINT_TOPOLOGY_H

#include <hwloc.h>

#include <string>

namespace pmix {

// The tree of `topology`'s normal objects from the root, one object per
// line group:
//   <indent>Type: <hwloc verbose type> Number of child objects: <arity>
//   <indent>\tName=<name or NULL>
//   <indent>\t<hwloc's verbose attributes, one per line>   (when it has some)
//   <indent>\tCpuset:  <hwloc bitmap string>               (when it has one)
//   <indent>\tBind CPU proc: ... / Bind MEM thread: ...     (the machine only)
// each group ending in "\n", a child indented one tab deeper than its
// parent. Memory, I/O and misc children are not listed (OpenPMIx lists
// obj->children only). Type and attribute texts are cut at 1023 bytes, as
// OpenPMIx cuts them.
std::string TopologyTree(hwloc_topology_t topology);

}  // namespace pmix

#endif  // PMIXX_SRC_COMMON_PRINT_TOPOLOGY_H
