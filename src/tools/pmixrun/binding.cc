#include "src/tools/pmixrun/binding.h"

#include <hwloc.h>

#include <cstdlib>

#include "pmix.h"

namespace pmixrun {
namespace {

// The objects of `type` that hold CPUs pmixrun may use, in logical order.
std::string NthObjectCpus(hwloc_obj_type_t type, int n) {
  pmix_topology_t topo;
  PMIx_Topology_construct(&topo);
  if (PMIx_Load_topology(&topo) != PMIX_SUCCESS || topo.topology == nullptr) return "";
  auto t = static_cast<hwloc_topology_t>(topo.topology);
  hwloc_bitmap_t mine = hwloc_bitmap_alloc();
  cpu_set_t own;
  if (mine != nullptr && sched_getaffinity(0, sizeof own, &own) == 0) {
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (CPU_ISSET(c, &own)) hwloc_bitmap_set(mine, static_cast<unsigned>(c));
    }
  }
  std::string out;
  int usable = 0;
  for (hwloc_obj_t o = hwloc_get_next_obj_by_type(t, type, nullptr); o != nullptr;
       o = hwloc_get_next_obj_by_type(t, type, o)) {
    if (mine != nullptr && hwloc_bitmap_intersects(o->cpuset, mine)) ++usable;
  }
  int index = 0;
  for (hwloc_obj_t o = hwloc_get_next_obj_by_type(t, type, nullptr); usable > 0 && o != nullptr;
       o = hwloc_get_next_obj_by_type(t, type, o)) {
    if (!hwloc_bitmap_intersects(o->cpuset, mine)) continue;
    if (index++ != n % usable) continue;
    hwloc_bitmap_t cpus = hwloc_bitmap_dup(o->cpuset);
    hwloc_bitmap_and(cpus, cpus, mine);
    char* text = nullptr;
    if (hwloc_bitmap_list_asprintf(&text, cpus) >= 0 && text != nullptr) out = text;
    std::free(text);
    hwloc_bitmap_free(cpus);
    break;
  }
  hwloc_bitmap_free(mine);
  std::free(topo.source);  // the topology itself stays the library's
  return out;
}

}  // namespace

bool ParseBindTo(std::string_view text, BindTo* out) {
  if (text == "none") return *out = BindTo::kNone, true;
  if (text == "core") return *out = BindTo::kCore, true;
  if (text == "package" || text == "socket") return *out = BindTo::kPackage, true;
  return false;
}

const char* BindToName(BindTo how) {
  switch (how) {
    case BindTo::kCore: return "core";
    case BindTo::kPackage: return "package";
    case BindTo::kNone: break;
  }
  return "none";
}

std::string BindingFor(BindTo how, int node_rank) {
  if (how == BindTo::kNone) return "";
  return NthObjectCpus(how == BindTo::kCore ? HWLOC_OBJ_CORE : HWLOC_OBJ_PACKAGE, node_rank);
}

ScopedAffinity::ScopedAffinity(const std::string& cpus) {
  if (cpus.empty()) return;
  hwloc_bitmap_t bits = hwloc_bitmap_alloc();
  if (bits == nullptr || hwloc_bitmap_list_sscanf(bits, cpus.c_str()) != 0) {
    hwloc_bitmap_free(bits);
    return;
  }
  cpu_set_t want;
  CPU_ZERO(&want);
  for (int c = hwloc_bitmap_first(bits); c >= 0 && c < CPU_SETSIZE; c = hwloc_bitmap_next(bits, c))
    CPU_SET(c, &want);
  hwloc_bitmap_free(bits);
  if (sched_getaffinity(0, sizeof saved_, &saved_) != 0) return;
  changed_ = sched_setaffinity(0, sizeof want, &want) == 0;
}

ScopedAffinity::~ScopedAffinity() {
  if (changed_) (void)sched_setaffinity(0, sizeof saved_, &saved_);
}

}  // namespace pmixrun
