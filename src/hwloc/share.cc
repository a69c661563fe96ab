#include "src/hwloc/share.h"

#include <fcntl.h>
#include <hwloc/shmem.h>
#include <strings.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "mca/base/var.h"
#include "src/common/output.h"

namespace pmix::hwloc {
namespace {

constexpr uint64_t kAlign = 2ull << 20;
// The end of the user part of a 47-bit x86-64 / aarch64 address space.
constexpr uint64_t kUserTop = 0x7ffffffff000ull;

bool ShmemWanted() {
  auto var = mca::RegisterVar({"hwloc_hole_kind", PMIX_MCA_PARAM_STRING, "biggest",
                               "Where to place the shared topology segment in the address "
                               "space: biggest (middle of the largest unmapped range) or none "
                               "(do not share it through shared memory, XML only)",
                               ""});
  if (!var.ok() || !var->text) return true;
  if (strcasecmp(var->text->c_str(), "none") == 0) return false;
  if (strcasecmp(var->text->c_str(), "biggest") != 0)
    output::Error("hwloc", "hwloc_hole_kind=%s: unknown, using 'biggest'", var->text->c_str());
  return true;
}

std::string ReadMaps() {
  std::ifstream in("/proc/self/maps");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Status AddXml(wire::Infos& infos, hwloc_topology_t topology, unsigned long flags,
              std::initializer_list<const char*> keys) {
  char* xml = nullptr;
  int len = 0;
  if (hwloc_topology_export_xmlbuffer(topology, &xml, &len, flags) != 0)
    return PMIX_ERR_NOT_SUPPORTED;
  Status status;
  for (const char* key : keys) {
    status = infos.Add(key, xml, PMIX_STRING);
    if (!status.ok()) break;
  }
  hwloc_free_xmlbuffer(topology, xml);
  return status;
}

}  // namespace

std::optional<uint64_t> FindHole(const std::string& maps, uint64_t size) {
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  std::istringstream in(maps);
  std::string line;
  while (std::getline(in, line)) {
    uint64_t lo = 0;
    uint64_t hi = 0;
    if (std::sscanf(line.c_str(), "%" SCNx64 "-%" SCNx64, &lo, &hi) == 2 && lo < hi)
      ranges.emplace_back(lo, hi);
  }
  if (ranges.empty() || size == 0) return std::nullopt;
  uint64_t best_lo = 0;
  uint64_t best_len = 0;
  uint64_t prev_end = ranges.front().second;
  for (size_t i = 1; i < ranges.size(); ++i) {
    uint64_t lo = ranges[i].first;
    if (lo > kUserTop) break;  // [vsyscall] and the like
    if (lo > prev_end && lo - prev_end > best_len) {
      best_lo = prev_end;
      best_len = lo - prev_end;
    }
    prev_end = std::max(prev_end, ranges[i].second);
  }
  uint64_t need = (size + kAlign - 1) / kAlign * kAlign;
  if (best_len < need + 2 * kAlign) return std::nullopt;
  uint64_t addr = (best_lo + (best_len - need) / 2) / kAlign * kAlign;
  if (addr < best_lo) addr += kAlign;
  return addr;
}

Result<SharedTopology> SharedTopology::Create(hwloc_topology_t topology, const std::string& dir) {
  SharedTopology out;
  PMIX_RETURN_IF_ERROR(AddXml(out.infos_, topology, 0, {PMIX_HWLOC_XML_V2, PMIX_LOCAL_TOPO}));
  // hwloc exports a v1 XML of every v2 topology; keep going without it if not.
  AddXml(out.infos_, topology, HWLOC_TOPOLOGY_EXPORT_XML_FLAG_V1, {PMIX_HWLOC_XML_V1}).ok();
  if (ShmemWanted()) {
    Status shm = out.WriteSegment(topology, dir);
    if (!shm.ok()) output::Verbose("hwloc", 1, "topology not shared in memory (%d)", shm.code());
  }
  return out;
}

Status SharedTopology::WriteSegment(hwloc_topology_t topology, const std::string& dir) {
  size_t length = 0;
  if (hwloc_shmem_topology_get_length(topology, &length, 0) != 0) return PMIX_ERR_NOT_SUPPORTED;
  auto addr = FindHole(ReadMaps(), length);
  if (!addr) return PMIX_ERR_OUT_OF_RESOURCE;
  std::string file = dir + "/pmixx-hwloc.sm";  // not hwloc.sm: Open MPI's rtc writes that one
  ::unlink(file.c_str());
  // Readable by everyone: clients of another uid (a root slurmstepd serving
  // a user's tasks) adopt it; a topology is no secret.
  int fd = ::open(file.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0644);
  if (fd < 0) return PMIX_ERR_NO_PERMISSIONS;
  int rc = hwloc_shmem_topology_write(topology, fd, 0, reinterpret_cast<void*>(*addr), length, 0);
  ::close(fd);  // the file keeps the content; our mapping was dropped by hwloc
  if (rc != 0) {
    ::unlink(file.c_str());
    return PMIX_ERR_OUT_OF_RESOURCE;
  }
  file_ = file;
  size_t address = static_cast<size_t>(*addr);
  PMIX_RETURN_IF_ERROR(infos_.Add(PMIX_HWLOC_SHMEM_FILE, file.c_str(), PMIX_STRING));
  PMIX_RETURN_IF_ERROR(infos_.Add(PMIX_HWLOC_SHMEM_ADDR, &address, PMIX_SIZE));
  PMIX_RETURN_IF_ERROR(infos_.Add(PMIX_HWLOC_SHMEM_SIZE, &length, PMIX_SIZE));
  output::Verbose("hwloc", 1, "topology shared in %s at 0x%zx (%zu bytes)", file.c_str(), address,
                  length);
  return Status();
}

SharedTopology::SharedTopology(SharedTopology&& other) noexcept
    : infos_(std::move(other.infos_)), file_(std::move(other.file_)) {
  other.file_.clear();
}

SharedTopology::~SharedTopology() {
  if (!file_.empty()) ::unlink(file_.c_str());
}

}  // namespace pmix::hwloc
