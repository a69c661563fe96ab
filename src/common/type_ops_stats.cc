// Element operations for OpenPMIx's statistics structs (PMIX_PROC_STATS,
// PMIX_DISK_STATS, PMIX_NET_STATS, PMIX_NODE_STATS). They are plain data
// plus a few owned strings and, for node stats, two owned arrays: copy the
// plain part wholesale, then replace every owned pointer by a copy.
// Compare orders them field by field in declaration order, as OpenPMIx
// 4.2.2 does for the proc, disk and net stats (it skips percent_cpu and
// finds two equal node stats unequal; we compare every field).
#include <sys/time.h>

#include <cstdlib>
#include <cstring>

#include "src/common/data_types.h"
#include "src/common/type_ops.h"

namespace pmix::type_ops {
namespace {

// `*field` aliases the source after a wholesale copy; replace it by a copy
// of its own (or NULL when that fails, so a release never frees the
// source's memory).
Status Rehome(char** field) {
  const char* shared = *field;
  *field = nullptr;
  return DupString(shared, field) ? Status() : Status(PMIX_ERR_NOMEM);
}

pmix_value_cmp_t CompareTimes(const struct timeval& a,
                              const struct timeval& b) {
  return CompareTimeval(&a, &b);
}

// Arrays of stats: by count first, then element by element.
template <class T>
pmix_value_cmp_t CompareStatsArrays(const T* a, size_t na, const T* b,
                                    size_t nb,
                                    pmix_value_cmp_t (*compare)(const void*,
                                                                const void*)) {
  if (na != nb) return CompareNumbers(na, nb);
  if (a == b) return PMIX_EQUAL;
  if (a == nullptr || b == nullptr) {
    return a == nullptr ? PMIX_VALUE2_GREATER : PMIX_VALUE1_GREATER;
  }
  for (size_t i = 0; i < na; ++i) {
    pmix_value_cmp_t r = compare(&a[i], &b[i]);
    if (r != PMIX_EQUAL) return r;
  }
  return PMIX_EQUAL;
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

pmix_value_cmp_t CompareProcStats(const void* a, const void* b) {
  const auto& x = As<pmix_proc_stats_t>(a);
  const auto& y = As<pmix_proc_stats_t>(b);
  return FirstDifference(
      {CompareStrings(x.node, y.node), CompareProc(&x.proc, &y.proc),
       CompareNumbers(x.pid, y.pid), CompareStrings(x.cmd, y.cmd),
       CompareNumbers(x.state, y.state), CompareTimes(x.time, y.time),
       CompareNumbers(x.percent_cpu, y.percent_cpu),
       CompareNumbers(x.priority, y.priority),
       CompareNumbers(x.num_threads, y.num_threads),
       CompareNumbers(x.pss, y.pss), CompareNumbers(x.vsize, y.vsize),
       CompareNumbers(x.rss, y.rss), CompareNumbers(x.peak_vsize, y.peak_vsize),
       CompareNumbers(x.processor, y.processor),
       CompareTimes(x.sample_time, y.sample_time)});
}

Status CopyDiskStats(void* dst, const void* src) {
  auto& d = As<pmix_disk_stats_t>(dst);
  std::memcpy(&d, src, sizeof d);
  return Rehome(&d.disk);
}

void ReleaseDiskStats(void* element) {
  std::free(As<pmix_disk_stats_t>(element).disk);
}

pmix_value_cmp_t CompareDiskStats(const void* a, const void* b) {
  const auto& x = As<pmix_disk_stats_t>(a);
  const auto& y = As<pmix_disk_stats_t>(b);
  return FirstDifference(
      {CompareStrings(x.disk, y.disk),
       CompareNumbers(x.num_reads_completed, y.num_reads_completed),
       CompareNumbers(x.num_reads_merged, y.num_reads_merged),
       CompareNumbers(x.num_sectors_read, y.num_sectors_read),
       CompareNumbers(x.milliseconds_reading, y.milliseconds_reading),
       CompareNumbers(x.num_writes_completed, y.num_writes_completed),
       CompareNumbers(x.num_writes_merged, y.num_writes_merged),
       CompareNumbers(x.num_sectors_written, y.num_sectors_written),
       CompareNumbers(x.milliseconds_writing, y.milliseconds_writing),
       CompareNumbers(x.num_ios_in_progress, y.num_ios_in_progress),
       CompareNumbers(x.milliseconds_io, y.milliseconds_io),
       CompareNumbers(x.weighted_milliseconds_io, y.weighted_milliseconds_io)});
}

Status CopyNetStats(void* dst, const void* src) {
  auto& d = As<pmix_net_stats_t>(dst);
  std::memcpy(&d, src, sizeof d);
  return Rehome(&d.net_interface);
}

void ReleaseNetStats(void* element) {
  std::free(As<pmix_net_stats_t>(element).net_interface);
}

pmix_value_cmp_t CompareNetStats(const void* a, const void* b) {
  const auto& x = As<pmix_net_stats_t>(a);
  const auto& y = As<pmix_net_stats_t>(b);
  return FirstDifference(
      {CompareStrings(x.net_interface, y.net_interface),
       CompareNumbers(x.num_bytes_recvd, y.num_bytes_recvd),
       CompareNumbers(x.num_packets_recvd, y.num_packets_recvd),
       CompareNumbers(x.num_recv_errs, y.num_recv_errs),
       CompareNumbers(x.num_bytes_sent, y.num_bytes_sent),
       CompareNumbers(x.num_packets_sent, y.num_packets_sent),
       CompareNumbers(x.num_send_errs, y.num_send_errs)});
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

pmix_value_cmp_t CompareNodeStats(const void* a, const void* b) {
  const auto& x = As<pmix_node_stats_t>(a);
  const auto& y = As<pmix_node_stats_t>(b);
  return FirstDifference(
      {CompareStrings(x.node, y.node), CompareNumbers(x.la, y.la),
       CompareNumbers(x.la5, y.la5), CompareNumbers(x.la15, y.la15),
       CompareNumbers(x.total_mem, y.total_mem),
       CompareNumbers(x.free_mem, y.free_mem),
       CompareNumbers(x.buffers, y.buffers), CompareNumbers(x.cached, y.cached),
       CompareNumbers(x.swap_cached, y.swap_cached),
       CompareNumbers(x.swap_total, y.swap_total),
       CompareNumbers(x.swap_free, y.swap_free),
       CompareNumbers(x.mapped, y.mapped),
       CompareTimes(x.sample_time, y.sample_time),
       CompareStatsArrays(x.diskstats, x.ndiskstats, y.diskstats, y.ndiskstats,
                          &CompareDiskStats),
       CompareStatsArrays(x.netstats, x.nnetstats, y.netstats, y.nnetstats,
                          &CompareNetStats)});
}

}  // namespace pmix::type_ops
