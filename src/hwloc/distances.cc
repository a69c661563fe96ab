#include "src/hwloc/distances.h"

#include <strings.h>

#include <algorithm>
#include <climits>
#include <optional>

namespace pmix::hwloc {
namespace {

std::optional<pmix_device_type_t> PmixType(hwloc_obj_osdev_type_t t) {
  switch (t) {
    case HWLOC_OBJ_OSDEV_NETWORK: return PMIX_DEVTYPE_NETWORK;
    case HWLOC_OBJ_OSDEV_OPENFABRICS: return PMIX_DEVTYPE_OPENFABRICS;
    case HWLOC_OBJ_OSDEV_GPU: return PMIX_DEVTYPE_GPU;
    case HWLOC_OBJ_OSDEV_COPROC: return PMIX_DEVTYPE_COPROC;
    default: return std::nullopt;
  }
}

const char* Info(hwloc_obj_t obj, const char* name) {
  for (unsigned i = 0; i < obj->infos_count; ++i) {
    if (strcasecmp(obj->infos[i].name, name) == 0) return obj->infos[i].value;
  }
  return nullptr;
}

std::string Uuid(hwloc_obj_t dev, pmix_device_type_t type, const std::string& host) {
  std::string name = dev->name != nullptr ? dev->name : "";
  if (type == PMIX_DEVTYPE_NETWORK) {
    const char* addr = Info(dev, "Address");
    if (addr != nullptr) {
      auto colons = std::count(addr, addr + std::char_traits<char>::length(addr), ':');
      if (colons == 5) return std::string("ipv4://") + addr;
      if (colons == 19) return std::string("ipv6://") + addr;
    }
    return "net://" + host + "::" + name;
  }
  if (type == PMIX_DEVTYPE_OPENFABRICS) {
    const char* node = Info(dev, "NodeGUID");
    const char* image = Info(dev, "SysImageGUID");
    if (node != nullptr && image != nullptr) return std::string("fab://") + node + "::" + image;
    return "fab://" + host + "::" + name;
  }
  if (type == PMIX_DEVTYPE_GPU) return "gpu://" + host + "::" + name;
  return "coproc://" + host + "::" + name;
}

// OpenPMIx lists devices by kind in this order.
constexpr pmix_device_type_t kTypeOrder[] = {PMIX_DEVTYPE_GPU, PMIX_DEVTYPE_NETWORK,
                                             PMIX_DEVTYPE_OPENFABRICS, PMIX_DEVTYPE_COPROC};

bool Wanted(const DeviceFilter& f, pmix_device_type_t type, const std::string& uuid,
            const char* osname) {
  if (f.types != 0 && (f.types & type) == 0) return false;
  if (f.ids.empty()) return true;
  for (const auto& id : f.ids) {
    if (strcasecmp(id.c_str(), uuid.c_str()) == 0) return true;
    if (osname != nullptr && strcasecmp(id.c_str(), osname) == 0) return true;
  }
  return false;
}

// The device itself, or its nearest ancestor with a cpuset (OS devices
// hang below PCI objects, which have none).
hwloc_obj_t Anchor(hwloc_obj_t dev) {
  hwloc_obj_t o = dev;
  while (o != nullptr && o->cpuset == nullptr) o = o->parent;
  return o;
}

// The deepest object whose cpuset holds all of `cpuset` (the root when
// nothing smaller does).
hwloc_obj_t Location(hwloc_topology_t t, hwloc_const_bitmap_t cpuset) {
  hwloc_obj_t loc = hwloc_get_root_obj(t);
  for (bool deeper = true; deeper;) {
    deeper = false;
    for (hwloc_obj_t child = loc->first_child; child != nullptr; child = child->next_sibling) {
      if (child->cpuset != nullptr && hwloc_bitmap_isincluded(cpuset, child->cpuset)) {
        loc = child;
        deeper = true;
        break;
      }
    }
  }
  return loc;
}

unsigned Distance(hwloc_topology_t t, int depth, hwloc_obj_t from, hwloc_obj_t anchor) {
  hwloc_obj_t common = hwloc_get_common_ancestor_obj(t, from, anchor);
  if (common == nullptr || common->depth == 0) return static_cast<unsigned>(from->depth + depth);
  return static_cast<unsigned>(depth - common->depth);
}

}  // namespace

Result<std::vector<DeviceDistance>> ComputeDistances(hwloc_topology_t topology,
                                                      hwloc_const_bitmap_t cpuset,
                                                      const DeviceFilter& filter,
                                                      const std::string& hostname) {
  int depth = hwloc_topology_get_depth(topology);
  std::vector<hwloc_obj_t> pus;
  for (hwloc_obj_t pu = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_PU, nullptr); pu != nullptr;
       pu = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_PU, pu)) {
    if (hwloc_bitmap_intersects(pu->cpuset, cpuset)) pus.push_back(pu);
  }
  if (pus.empty()) return Status(PMIX_ERR_BAD_PARAM);
  // A location inside the machine is measured as a whole (OpenPMIx's
  // numbers); one that spans packages PU by PU, so min and max differ.
  hwloc_obj_t location = Location(topology, cpuset);
  std::vector<hwloc_obj_t> from = location->depth == 0 ? pus : std::vector<hwloc_obj_t>{location};
  std::vector<DeviceDistance> out;
  for (pmix_device_type_t wanted : kTypeOrder) {
    for (hwloc_obj_t dev = hwloc_get_next_osdev(topology, nullptr); dev != nullptr;
         dev = hwloc_get_next_osdev(topology, dev)) {
      auto type = PmixType(dev->attr->osdev.type);
      if (!type || *type != wanted) continue;
      if (*type == PMIX_DEVTYPE_GPU && dev->name != nullptr && strncasecmp(dev->name, "card", 4) == 0)
        continue;
      std::string uuid = Uuid(dev, *type, hostname);
      if (!Wanted(filter, *type, uuid, dev->name)) continue;
      hwloc_obj_t anchor = Anchor(dev);
      if (anchor == nullptr) continue;
      unsigned lo = UINT_MAX;
      unsigned hi = 0;
      for (hwloc_obj_t f : from) {
        unsigned d = Distance(topology, depth, f, anchor);
        lo = std::min(lo, d);
        hi = std::max(hi, d);
      }
      out.push_back({uuid, dev->name != nullptr ? dev->name : "", *type,
                     static_cast<uint16_t>(lo), static_cast<uint16_t>(hi)});
    }
  }
  return out;
}

}  // namespace pmix::hwloc
