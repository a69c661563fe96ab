#include "plugins/pnet/nic/nic_module.h"

#include <hwloc.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "pmix.h"

namespace pmix::pnet::nic {
namespace {

// A growable info array built with the public API (what the framework
// frees with PMIx_Info_free).
class InfoBuilder {
 public:
  ~InfoBuilder() {
    for (auto& i : items_) PMIx_Info_destruct(&i);
  }
  void Add(const char* key, const void* data, pmix_data_type_t type) {
    items_.emplace_back();
    PMIx_Info_construct(&items_.back());
    if (PMIx_Info_load(&items_.back(), key, data, type) != PMIX_SUCCESS) ok_ = false;
  }
  void Str(const char* key, const std::string& s) {
    if (!s.empty()) Add(key, s.c_str(), PMIX_STRING);
  }
  // A data array of the infos so far (copied).
  void AddArrayOf(const char* key, const InfoBuilder& inner) {
    pmix_data_array_t array{PMIX_INFO, inner.items_.size(),
                            const_cast<pmix_info_t*>(inner.items_.data())};
    Add(key, &array, PMIX_DATA_ARRAY);
  }
  bool ok() const { return ok_; }
  // A PMIx_Info_create array of copies.
  pmix_status_t Release(pmix_info_t** out, size_t* n) const {
    if (!ok_) return PMIX_ERR_NOMEM;
    pmix_info_t* array = items_.empty() ? nullptr : PMIx_Info_create(items_.size());
    if (!items_.empty() && array == nullptr) return PMIX_ERR_NOMEM;
    for (size_t i = 0; i < items_.size(); ++i) {
      if (PMIx_Info_xfer(&array[i], &items_[i]) != PMIX_SUCCESS) {
        PMIx_Info_free(array, items_.size());
        return PMIX_ERR_NOMEM;
      }
    }
    *out = array;
    *n = items_.size();
    return PMIX_SUCCESS;
  }

 private:
  std::vector<pmix_info_t> items_;
  bool ok_ = true;
};

std::string Info(hwloc_obj_t o, const char* name) {
  const char* v = hwloc_obj_get_info_by_name(o, name);
  return v != nullptr ? v : "";
}

std::string ReadLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string LinkBase(const std::string& path) {
  char buf[PATH_MAX];
  ssize_t n = readlink(path.c_str(), buf, sizeof buf - 1);
  if (n <= 0) return "";
  buf[n] = '\0';
  std::string s(buf);
  size_t slash = s.rfind('/');
  return slash == std::string::npos ? s : s.substr(slash + 1);
}

hwloc_obj_t PciParent(hwloc_obj_t o) {
  for (hwloc_obj_t p = o->parent; p != nullptr; p = p->parent) {
    if (p->type == HWLOC_OBJ_PCI_DEVICE) return p;
  }
  return nullptr;
}

std::string Hex4(unsigned v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%04x", v);
  return buf;
}

// One device's PMIX_FABRIC_DEVICE_* infos; `vendor` gets its vendor name.
void Describe(hwloc_obj_t dev, uint32_t index, InfoBuilder& d, std::string* vendor) {
  const bool net = dev->attr->osdev.type == HWLOC_OBJ_OSDEV_NETWORK;
  std::string name = dev->name != nullptr ? dev->name : "";
  d.Add(PMIX_FABRIC_DEVICE_INDEX, &index, PMIX_UINT32);
  d.Str(PMIX_FABRIC_DEVICE_NAME, name);
  d.Str(PMIX_FABRIC_DEVICE_TYPE, net ? "network" : "openfabrics");
  if (hwloc_obj_t pci = PciParent(dev)) {
    d.Str(PMIX_FABRIC_DEVICE_BUS_TYPE, "pci");
    d.Str(PMIX_FABRIC_DEVICE_VENDORID, Hex4(pci->attr->pcidev.vendor_id));
    d.Str(PMIX_FABRIC_DEVICE_PCI_DEVID, Hex4(pci->attr->pcidev.device_id));
    *vendor = Info(pci, "PCIVendor");
    d.Str(PMIX_FABRIC_DEVICE_VENDOR, *vendor);
  }
  d.Str(PMIX_FABRIC_DEVICE_ADDRESS, Info(dev, net ? "Address" : "NodeGUID"));
  std::string sys = std::string(net ? "/sys/class/net/" : "/sys/class/infiniband/") + name;
  if (name.empty() || access(sys.c_str(), F_OK) != 0) return;
  d.Str(PMIX_FABRIC_DEVICE_DRIVER, LinkBase(sys + "/device/driver"));
  if (!net) return;
  char* end = nullptr;
  std::string mtu = ReadLine(sys + "/mtu");
  size_t value = std::strtoul(mtu.c_str(), &end, 10);
  if (!mtu.empty() && end != nullptr && *end == '\0') d.Add(PMIX_FABRIC_DEVICE_MTU, &value, PMIX_SIZE);
  std::string speed = ReadLine(sys + "/speed");  // Mb/s; -1 or unreadable when unknown
  long mbps = std::strtol(speed.c_str(), &end, 10);
  if (!speed.empty() && end != nullptr && *end == '\0' && mbps > 0) {
    value = static_cast<size_t>(mbps);
    d.Add(PMIX_FABRIC_DEVICE_SPEED, &value, PMIX_SIZE);
  }
  std::string state = ReadLine(sys + "/operstate");
  pmix_link_state_t link = state == "up"     ? PMIX_LINK_UP
                           : state == "down" ? PMIX_LINK_DOWN
                                             : PMIX_LINK_STATE_UNKNOWN;
  d.Add(PMIX_FABRIC_DEVICE_STATE, &link, PMIX_LINK_STATE);
}

pmix_status_t FabricInfo(const pmix_info_t[], size_t, pmix_info_t** out, size_t* nout) {
  pmix_topology_t topo;
  PMIx_Topology_construct(&topo);
  if (PMIx_Load_topology(&topo) != PMIX_SUCCESS || topo.topology == nullptr)
    return PMIX_ERR_NOT_SUPPORTED;
  auto t = static_cast<hwloc_topology_t>(topo.topology);
  InfoBuilder devices;
  std::string vendor;
  uint32_t n = 0;
  for (hwloc_obj_t o = hwloc_get_next_osdev(t, nullptr); o != nullptr; o = hwloc_get_next_osdev(t, o)) {
    if (o->attr->osdev.type != HWLOC_OBJ_OSDEV_NETWORK &&
        o->attr->osdev.type != HWLOC_OBJ_OSDEV_OPENFABRICS)
      continue;
    InfoBuilder d;
    std::string v;
    Describe(o, n, d, &v);
    if (vendor.empty()) vendor = v;
    devices.AddArrayOf(PMIX_FABRIC_DEVICE, d);
    ++n;
  }
  std::free(topo.source);  // the topology stays the library's
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  InfoBuilder answer;
  answer.Str(PMIX_FABRIC_VENDOR, vendor.empty() ? "unknown" : vendor);
  answer.Str(PMIX_FABRIC_IDENTIFIER, std::string("nic:") + host);
  size_t count = n;
  answer.Add(PMIX_FABRIC_NUM_DEVICES, &count, PMIX_SIZE);
  answer.AddArrayOf(PMIX_FABRIC_DEVICES, devices);
  return answer.Release(out, nout);
}

}  // namespace

const pmix_pnet_module_t kModule = {"nic", FabricInfo, nullptr, nullptr, nullptr};

}  // namespace pmix::pnet::nic
