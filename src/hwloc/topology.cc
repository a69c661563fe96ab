#include "src/hwloc/topology.h"

#include <fcntl.h>
#include <hwloc/shmem.h>
#include <unistd.h>

#include <mutex>

#include "mca/base/var.h"
#include "src/common/output.h"
#include "src/common/type_ops.h"

namespace pmix::hwloc {
namespace {

struct ProcessTopology {
  std::mutex mu;
  hwloc_topology_t topology = nullptr;
  bool owned = false;
  Origin origin = Origin::kNone;
};

ProcessTopology& Process() {
  static ProcessTopology p;
  return p;
}

// I/O devices are kept (distances and pnet need them) but only the
// important ones, as Open MPI and OpenPMIx configure it; "gl" is left out
// (it may open an X display).
Status Configure(hwloc_topology_t t, unsigned long flags) {
  if (hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT) != 0 ||
      hwloc_topology_set_flags(t, flags) != 0)
    return PMIX_ERR_INIT;
  hwloc_topology_set_components(t, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "gl");
  return Status();
}

Result<OwnedTopology> NewTopology() {
  hwloc_topology_t t = nullptr;
  if (hwloc_topology_init(&t) != 0) return Status(PMIX_ERR_NOMEM);
  return OwnedTopology(t);
}

std::string TopoFile() {
  auto var = mca::RegisterVar({"hwloc_topo_file", PMIX_MCA_PARAM_STRING, nullptr,
                               "An hwloc XML file to use as this node's topology instead of "
                               "discovering it (tests, or nodes whose discovery is slow)",
                               ""});
  return var.ok() && var->text ? *var->text : std::string();
}

}  // namespace

const char* OriginName(Origin origin) {
  switch (origin) {
    case Origin::kHost: return "host";
    case Origin::kShmem: return "shmem";
    case Origin::kXmlV2: return "xml-v2";
    case Origin::kXmlV1: return "xml-v1";
    case Origin::kFile: return "file";
    case Origin::kDiscovered: return "discovered";
    case Origin::kNone: break;
  }
  return "none";
}

std::string SourceString() {
  unsigned v = hwloc_get_api_version();
  return "hwloc:" + std::to_string(v >> 16) + "." + std::to_string((v >> 8) & 0xff) + "." +
         std::to_string(v & 0xff);
}

Result<OwnedTopology> Discover() {
  auto t = NewTopology();
  if (!t.ok()) return t.status();
  std::string file = TopoFile();
  unsigned long flags = file.empty() ? 0 : HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM;
  PMIX_RETURN_IF_ERROR(Configure(t->get(), flags));
  if (!file.empty() && hwloc_topology_set_xml(t->get(), file.c_str()) != 0) {
    output::Error("hwloc", "hwloc_topo_file %s: not a usable hwloc XML file", file.c_str());
    return Status(PMIX_ERR_BAD_PARAM);
  }
  if (hwloc_topology_load(t->get()) != 0) return Status(PMIX_ERR_NOT_SUPPORTED);
  return std::move(*t);
}

Result<OwnedTopology> FromXml(std::string_view xml) {
  if (xml.empty() || xml.size() > static_cast<size_t>(INT32_MAX) - 1)
    return Status(PMIX_ERR_BAD_PARAM);
  auto t = NewTopology();
  if (!t.ok()) return t.status();
  // The XML describes this node (it came from our server): binding works.
  PMIX_RETURN_IF_ERROR(Configure(t->get(), HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM));
  std::string text(xml);
  if (hwloc_topology_set_xmlbuffer(t->get(), text.c_str(), static_cast<int>(text.size()) + 1) != 0 ||
      hwloc_topology_load(t->get()) != 0)
    return Status(PMIX_ERR_BAD_PARAM);
  return std::move(*t);
}

Result<OwnedTopology> FromShmem(const std::string& file, uint64_t addr, uint64_t size) {
  if (addr == 0 || size == 0) return Status(PMIX_ERR_BAD_PARAM);
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status(PMIX_ERR_NOT_AVAILABLE);
  hwloc_topology_t t = nullptr;
  int rc = hwloc_shmem_topology_adopt(&t, fd, 0, reinterpret_cast<void*>(addr),
                                      static_cast<size_t>(size), 0);
  ::close(fd);  // the mapping stays
  if (rc != 0) {
    output::Verbose("hwloc", 2, "shared topology %s at 0x%llx not adoptable here", file.c_str(),
                    static_cast<unsigned long long>(addr));
    return Status(PMIX_ERR_NOT_AVAILABLE);
  }
  return OwnedTopology(t);
}

hwloc_topology_t Current() {
  auto& p = Process();
  std::lock_guard<std::mutex> lock(p.mu);
  return p.topology;
}

Origin CurrentOrigin() {
  auto& p = Process();
  std::lock_guard<std::mutex> lock(p.mu);
  return p.origin;
}

hwloc_topology_t Install(OwnedTopology topology, Origin origin) {
  auto& p = Process();
  std::lock_guard<std::mutex> lock(p.mu);
  if (p.topology != nullptr) return p.topology;  // `topology` is destroyed on return
  p.topology = topology.release();
  p.owned = true;
  p.origin = origin;
  type_ops::SetProcessTopology(p.topology);
  output::Verbose("hwloc", 1, "node topology from %s", OriginName(origin));
  return p.topology;
}

hwloc_topology_t InstallExternal(hwloc_topology_t topology, Origin origin) {
  auto& p = Process();
  std::lock_guard<std::mutex> lock(p.mu);
  if (p.topology != nullptr) return p.topology;
  p.topology = topology;
  p.owned = false;
  p.origin = origin;
  type_ops::SetProcessTopology(p.topology);
  return p.topology;
}

void Reset() {
  auto& p = Process();
  std::lock_guard<std::mutex> lock(p.mu);
  type_ops::SetProcessTopology(nullptr);
  if (p.owned && p.topology != nullptr) hwloc_topology_destroy(p.topology);
  p.topology = nullptr;
  p.owned = false;
  p.origin = Origin::kNone;
}

Result<hwloc_topology_t> CurrentOrDiscover() {
  if (hwloc_topology_t t = Current()) return t;
  auto found = Discover();
  if (!found.ok()) return found.status();
  return Install(std::move(*found), TopoFile().empty() ? Origin::kDiscovered : Origin::kFile);
}

}  // namespace pmix::hwloc
