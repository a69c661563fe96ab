// OpenPMIx 4.2's text of an hwloc topology (print_topology.h).
#include "src/common/print_topology.h"

namespace pmix {
namespace {

// OpenPMIx formats each text into a 1024-byte buffer.
constexpr size_t kTextMax = 1024;

const char* TrueFalse(unsigned char flag) { return flag != 0 ? "TRUE" : "FALSE"; }

void AppendObject(std::string* out, const std::string& indent, hwloc_topology_t topology,
                  hwloc_obj_t obj) {
  char text[kTextMax];
  const std::string pfx = "\n" + indent + "\t";
  (void)hwloc_obj_type_snprintf(text, sizeof text, obj, 1);
  std::string group = indent + "Type: " + text +
                      " Number of child objects: " + std::to_string(obj->arity) + pfx +
                      "Name=" + (obj->name != nullptr ? obj->name : "NULL");
  if (hwloc_obj_attr_snprintf(text, sizeof text, obj, pfx.c_str(), 1) > 0) group += pfx + text;
  if (obj->cpuset != nullptr) {
    (void)hwloc_bitmap_snprintf(text, sizeof text, obj->cpuset);
    group += pfx + "Cpuset:  " + text;
  }
  if (obj->type == HWLOC_OBJ_MACHINE) {
    const struct hwloc_topology_support* support = hwloc_topology_get_support(topology);
    group += pfx + "Bind CPU proc:   " + TrueFalse(support->cpubind->set_thisproc_cpubind) +
             pfx + "Bind CPU thread: " + TrueFalse(support->cpubind->set_thisthread_cpubind);
    group += pfx + "Bind MEM proc:   " + TrueFalse(support->membind->set_thisproc_membind) +
             pfx + "Bind MEM thread: " + TrueFalse(support->membind->set_thisthread_membind);
  }
  *out += group + "\n";
  for (unsigned i = 0; i < obj->arity; ++i) {
    AppendObject(out, indent + "\t", topology, obj->children[i]);
  }
}

}  // namespace

std::string TopologyTree(hwloc_topology_t topology) {
  std::string out;
  AppendObject(&out, "", topology, hwloc_get_root_obj(topology));
  return out;
}

}  // namespace pmix
