// Element operations for OpenPMIx's statistics structs (PMIX_PROC_STATS,
// PMIX_DISK_STATS, PMIX_NET_STATS, PMIX_NODE_STATS). They are plain data
// plus a few owned strings and, for node stats, two owned arrays: copy the
// plain part wholesale, then replace every owned pointer by a copy.
// OpenPMIx offers no ordering for them, so they have no compare.
#include <cstdlib>
#include <cstring>

#include "src/common/data_types.h"
#include "src/common/type_ops.h"

namespace pmix::type_ops {
namespace {

template <class T>
const T& As(const void* p) {
  return *static_cast<const T*>(p);
}

template <class T>
T& As(void* p) {
  return *static_cast<T*>(p);
}

// `*field` aliases the source after a wholesale copy; replace it by a copy
// of its own (or NULL when that fails, so a release never frees the
// source's memory).
Status Rehome(char** field) {
  const char* shared = *field;
  *field = nullptr;
  return DupString(shared, field) ? Status() : Status(PMIX_ERR_NOMEM);
}

}  // namespace

void ConstructProcStats(void* element) {
  auto& s = As<pmix_proc_stats_t>(element);
  std::memset(&s, 0, sizeof s);
  s.proc.rank = PMIX_RANK_UNDEF;
}

Status CopyProcStats(void* dst, const void* src) {
  auto& d = As<pmix_proc_stats_t>(dst);
  std::memcpy(&d, src, sizeof d);
  Status node = Rehome(&d.node);
  Status cmd = Rehome(&d.cmd);
  return node.ok() ? cmd : node;
}

void ReleaseProcStats(void* element) {
  auto& s = As<pmix_proc_stats_t>(element);
  std::free(s.node);
  std::free(s.cmd);
}

Status CopyDiskStats(void* dst, const void* src) {
  auto& d = As<pmix_disk_stats_t>(dst);
  std::memcpy(&d, src, sizeof d);
  return Rehome(&d.disk);
}

void ReleaseDiskStats(void* element) {
  std::free(As<pmix_disk_stats_t>(element).disk);
}

Status CopyNetStats(void* dst, const void* src) {
  auto& d = As<pmix_net_stats_t>(dst);
  std::memcpy(&d, src, sizeof d);
  return Rehome(&d.net_interface);
}

void ReleaseNetStats(void* element) {
  std::free(As<pmix_net_stats_t>(element).net_interface);
}

Status CopyNodeStats(void* dst, const void* src) {
  const auto& s = As<pmix_node_stats_t>(src);
  auto& d = As<pmix_node_stats_t>(dst);
  std::memcpy(&d, &s, sizeof d);
  d.diskstats = nullptr;
  d.ndiskstats = 0;
  d.netstats = nullptr;
  d.nnetstats = 0;
  PMIX_RETURN_IF_ERROR(Rehome(&d.node));
  void* disks = nullptr;
  PMIX_RETURN_IF_ERROR(
      CopyArray(PMIX_DISK_STATS, s.diskstats, s.ndiskstats, &disks));
  d.diskstats = static_cast<pmix_disk_stats_t*>(disks);
  d.ndiskstats = s.ndiskstats;
  void* nets = nullptr;
  PMIX_RETURN_IF_ERROR(
      CopyArray(PMIX_NET_STATS, s.netstats, s.nnetstats, &nets));
  d.netstats = static_cast<pmix_net_stats_t*>(nets);
  d.nnetstats = s.nnetstats;
  return Status();
}

void ReleaseNodeStats(void* element) {
  auto& s = As<pmix_node_stats_t>(element);
  std::free(s.node);
  FreeArray(PMIX_DISK_STATS, s.diskstats, s.ndiskstats);
  FreeArray(PMIX_NET_STATS, s.netstats, s.nnetstats);
}

}  // namespace pmix::type_ops
