// OpenPMIx's statistics structs (process, disk, network, node).
#include <sys/time.h>

#include <cstdint>

#include "plugins/bfrops/native/codec.h"

namespace pmix::bfrops::native {
namespace {

// The u64 counters of the disk and network stats, in field order.
template <class S, size_t N>
struct Counters {
  uint64_t S::*fields[N];
};

constexpr Counters<pmix_disk_stats_t, 11> kDisk = {{
    &pmix_disk_stats_t::num_reads_completed, &pmix_disk_stats_t::num_reads_merged,
    &pmix_disk_stats_t::num_sectors_read, &pmix_disk_stats_t::milliseconds_reading,
    &pmix_disk_stats_t::num_writes_completed, &pmix_disk_stats_t::num_writes_merged,
    &pmix_disk_stats_t::num_sectors_written, &pmix_disk_stats_t::milliseconds_writing,
    &pmix_disk_stats_t::num_ios_in_progress, &pmix_disk_stats_t::milliseconds_io,
    &pmix_disk_stats_t::weighted_milliseconds_io}};

constexpr Counters<pmix_net_stats_t, 6> kNet = {{
    &pmix_net_stats_t::num_bytes_recvd, &pmix_net_stats_t::num_packets_recvd,
    &pmix_net_stats_t::num_recv_errs, &pmix_net_stats_t::num_bytes_sent,
    &pmix_net_stats_t::num_packets_sent, &pmix_net_stats_t::num_send_errs}};

constexpr float pmix_node_stats_t::*kNodeFloats[] = {
    &pmix_node_stats_t::la,          &pmix_node_stats_t::la5,
    &pmix_node_stats_t::la15,        &pmix_node_stats_t::total_mem,
    &pmix_node_stats_t::free_mem,    &pmix_node_stats_t::buffers,
    &pmix_node_stats_t::cached,      &pmix_node_stats_t::swap_cached,
    &pmix_node_stats_t::swap_total,  &pmix_node_stats_t::swap_free,
    &pmix_node_stats_t::mapped};

constexpr float pmix_proc_stats_t::*kProcFloats[] = {
    &pmix_proc_stats_t::pss, &pmix_proc_stats_t::vsize, &pmix_proc_stats_t::rss,
    &pmix_proc_stats_t::peak_vsize};

template <class S, size_t N>
pmix_status_t PackCounted(Writer& w, const S& s, char* S::*name,
                          const Counters<S, N>& c) {
  NATIVE_TRY(w.Str(s.*name));
  for (auto field : c.fields) w.U64(s.*field);
  return PMIX_SUCCESS;
}

template <class S, size_t N>
pmix_status_t UnpackCounted(Reader& r, S* s, char* S::*name, const Counters<S, N>& c) {
  NATIVE_TRY(r.Str(&(s->*name)));
  for (auto field : c.fields) NATIVE_TRY(r.U64(&(s->*field)));
  return PMIX_SUCCESS;
}

pmix_status_t PackDisk(Writer& w, const void* e) {
  return PackCounted(w, As<pmix_disk_stats_t>(e), &pmix_disk_stats_t::disk, kDisk);
}
pmix_status_t UnpackDisk(Reader& r, void* e) {
  return UnpackCounted(r, &As<pmix_disk_stats_t>(e), &pmix_disk_stats_t::disk, kDisk);
}
pmix_status_t PackNet(Writer& w, const void* e) {
  return PackCounted(w, As<pmix_net_stats_t>(e), &pmix_net_stats_t::net_interface, kNet);
}
pmix_status_t UnpackNet(Reader& r, void* e) {
  return UnpackCounted(r, &As<pmix_net_stats_t>(e), &pmix_net_stats_t::net_interface,
                       kNet);
}

pmix_status_t PackProcStats(Writer& w, const void* e) {
  const auto& v = As<pmix_proc_stats_t>(e);
  NATIVE_TRY(w.Str(v.node));
  NATIVE_TRY(PackProc(w, v.proc));
  w.U32(static_cast<uint32_t>(v.pid));
  NATIVE_TRY(w.Str(v.cmd));
  w.U8(static_cast<uint8_t>(v.state));
  NATIVE_TRY(PackTimeval(w, v.time));
  NATIVE_TRY(PackFloat(w, v.percent_cpu));
  w.U32(static_cast<uint32_t>(v.priority));
  w.U16(v.num_threads);
  for (auto field : kProcFloats) NATIVE_TRY(PackFloat(w, v.*field));
  w.U16(v.processor);
  return PackTimeval(w, v.sample_time);
}

pmix_status_t UnpackProcStats(Reader& r, void* e) {
  auto& v = As<pmix_proc_stats_t>(e);
  uint32_t pid = 0;
  uint32_t priority = 0;
  uint8_t state = 0;
  NATIVE_TRY(r.Str(&v.node));
  NATIVE_TRY(UnpackProc(r, &v.proc));
  NATIVE_TRY(r.U32(&pid));
  NATIVE_TRY(r.Str(&v.cmd));
  NATIVE_TRY(r.U8(&state));
  NATIVE_TRY(UnpackTimeval(r, &v.time));
  NATIVE_TRY(UnpackFloat(r, &v.percent_cpu));
  NATIVE_TRY(r.U32(&priority));
  NATIVE_TRY(r.U16(&v.num_threads));
  for (auto field : kProcFloats) NATIVE_TRY(UnpackFloat(r, &(v.*field)));
  NATIVE_TRY(r.U16(&v.processor));
  NATIVE_TRY(UnpackTimeval(r, &v.sample_time));
  v.pid = static_cast<pid_t>(pid);
  v.priority = static_cast<int32_t>(priority);
  v.state = static_cast<char>(state);
  return PMIX_SUCCESS;
}

pmix_status_t PackNode(Writer& w, const void* e) {
  const auto& v = As<pmix_node_stats_t>(e);
  NATIVE_TRY(w.Str(v.node));
  for (auto field : kNodeFloats) NATIVE_TRY(PackFloat(w, v.*field));
  NATIVE_TRY(PackTimeval(w, v.sample_time));
  NATIVE_TRY(PackArrayField(w, PMIX_DISK_STATS, v.diskstats, v.ndiskstats));
  return PackArrayField(w, PMIX_NET_STATS, v.netstats, v.nnetstats);
}

pmix_status_t UnpackNode(Reader& r, void* e) {
  auto& v = As<pmix_node_stats_t>(e);
  NATIVE_TRY(r.Str(&v.node));
  for (auto field : kNodeFloats) NATIVE_TRY(UnpackFloat(r, &(v.*field)));
  NATIVE_TRY(UnpackTimeval(r, &v.sample_time));
  void* disks = nullptr;
  NATIVE_TRY(UnpackArrayField(r, PMIX_DISK_STATS, &disks, &v.ndiskstats));
  v.diskstats = static_cast<pmix_disk_stats_t*>(disks);
  void* nets = nullptr;
  NATIVE_TRY(UnpackArrayField(r, PMIX_NET_STATS, &nets, &v.nnetstats));
  v.netstats = static_cast<pmix_net_stats_t*>(nets);
  return PMIX_SUCCESS;
}

constexpr TypeCodec kRows[] = {
    {PMIX_PROC_STATS, sizeof(pmix_proc_stats_t), 81, &PackProcStats, &UnpackProcStats},
    {PMIX_DISK_STATS, sizeof(pmix_disk_stats_t), 92, &PackDisk, &UnpackDisk},
    {PMIX_NET_STATS, sizeof(pmix_net_stats_t), 52, &PackNet, &UnpackNet},
    {PMIX_NODE_STATS, sizeof(pmix_node_stats_t), 72, &PackNode, &UnpackNode},
};

}  // namespace

const TypeCodec* StatsCodecs(size_t* n) {
  *n = sizeof(kRows) / sizeof(kRows[0]);
  return kRows;
}

}  // namespace pmix::bfrops::native
