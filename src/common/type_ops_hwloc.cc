// Element operations for pmix_cpuset_t and pmix_topology_t.
//
// Both are {source, opaque object}. When `source` names hwloc (it starts
// with "hwloc", case-insensitively, as OpenPMIx accepts) the object is an
// hwloc_bitmap_t / hwloc_topology_t: we duplicate it on copy and release it
// with hwloc. OpenPMIx 4.2.2, measured: loading either into a value gives
// an independent duplicate (hwloc_topology_dup for topologies, not a
// shared pointer) and destructing the value releases it; we do the same.
// An object from any other source cannot be duplicated: copying it fails
// with PMIX_ERR_NOT_SUPPORTED (OpenPMIx silently aliased the caller's
// struct), and releasing leaves it alone. The source string is owned.
#include <hwloc.h>
#include <hwloc/diff.h>
#include <strings.h>

#include <atomic>
#include <cstdlib>

#include "src/common/data_types.h"
#include "src/common/type_ops.h"

namespace pmix::type_ops {
namespace {

bool IsHwloc(const char* source) {
  return source != nullptr && strncasecmp(source, "hwloc", 5) == 0;
}

// Copies `source`; the object is copied by `dup` when it is non-NULL.
template <class Object, class Dup>
Status CopySourced(const char* source, Object* object_in, char** source_out,
                   Object** object_out, Dup dup) {
  if (object_in != nullptr && !IsHwloc(source)) return PMIX_ERR_NOT_SUPPORTED;
  if (!DupString(source, source_out)) return PMIX_ERR_NOMEM;
  if (object_in == nullptr) return Status();
  *object_out = dup(object_in);
  return *object_out != nullptr ? Status() : Status(PMIX_ERR_NOMEM);
}

// Orders two objects of the same source; `order` ranks two hwloc objects
// (or returns PMIX_VALUE_COMPARISON_NOT_AVAIL when they have no order).
template <class Order>
pmix_value_cmp_t CompareSourced(const char* sa, const void* oa, const char* sb,
                                const void* ob, Order order) {
  if (CompareStrings(sa, sb) != PMIX_EQUAL) {
    return PMIX_VALUE_INCOMPATIBLE_OBJECTS;
  }
  if (oa == ob) return PMIX_EQUAL;
  if (oa == nullptr || ob == nullptr) {
    return oa == nullptr ? PMIX_VALUE2_GREATER : PMIX_VALUE1_GREATER;
  }
  if (!IsHwloc(sa)) return PMIX_VALUE_COMPARISON_NOT_AVAIL;
  return order(oa, ob);
}

}  // namespace

// --- cpuset ---

Status CopyCpuset(void* dst, const void* src) {
  const auto& s = *static_cast<const pmix_cpuset_t*>(src);
  auto& d = *static_cast<pmix_cpuset_t*>(dst);
  hwloc_bitmap_t copy = nullptr;
  PMIX_RETURN_IF_ERROR(CopySourced(
      s.source, static_cast<hwloc_bitmap_s*>(s.bitmap), &d.source, &copy,
      [](hwloc_bitmap_s* b) { return hwloc_bitmap_dup(b); }));
  d.bitmap = copy;
  return Status();
}

void ReleaseCpuset(void* element) {
  auto& c = *static_cast<pmix_cpuset_t*>(element);
  if (c.bitmap != nullptr && IsHwloc(c.source)) {
    hwloc_bitmap_free(static_cast<hwloc_bitmap_t>(c.bitmap));
  }
  std::free(c.source);
}

pmix_value_cmp_t CompareCpuset(const void* a, const void* b) {
  const auto& x = *static_cast<const pmix_cpuset_t*>(a);
  const auto& y = *static_cast<const pmix_cpuset_t*>(b);
  return CompareSourced(
      x.source, x.bitmap, y.source, y.bitmap, [](const void* p, const void* q) {
        auto bp = static_cast<hwloc_const_bitmap_t>(p);
        auto bq = static_cast<hwloc_const_bitmap_t>(q);
        if (hwloc_bitmap_isequal(bp, bq)) return PMIX_EQUAL;
        // hwloc orders by the highest set bit first.
        return hwloc_bitmap_compare(bp, bq) > 0 ? PMIX_VALUE1_GREATER
                                                : PMIX_VALUE2_GREATER;
      });
}

// --- topology ---

Status CopyTopology(void* dst, const void* src) {
  const auto& s = *static_cast<const pmix_topology_t*>(src);
  auto& d = *static_cast<pmix_topology_t*>(dst);
  hwloc_topology* copy = nullptr;
  PMIX_RETURN_IF_ERROR(
      CopySourced(s.source, static_cast<hwloc_topology*>(s.topology), &d.source,
                  &copy, [](hwloc_topology* t) -> hwloc_topology* {
                    hwloc_topology_t dup = nullptr;
                    return hwloc_topology_dup(&dup, t) == 0 ? dup : nullptr;
                  }));
  d.topology = copy;
  return Status();
}

namespace {
std::atomic<const void*> g_process_topology{nullptr};
}  // namespace

void SetProcessTopology(const void* topology) { g_process_topology.store(topology); }

void ReleaseTopology(void* element) {
  auto& t = *static_cast<pmix_topology_t*>(element);
  if (t.topology != nullptr && IsHwloc(t.source) && t.topology != g_process_topology.load()) {
    hwloc_topology_destroy(static_cast<hwloc_topology_t>(t.topology));
  }
  std::free(t.source);
}

pmix_value_cmp_t CompareTopology(const void* a, const void* b) {
  // Topologies have no order: two are equal when hwloc finds no difference
  // between their trees (a copy, or the same node loaded twice); any other
  // pair is PMIX_VALUE_COMPARISON_NOT_AVAIL.
  const auto& x = *static_cast<const pmix_topology_t*>(a);
  const auto& y = *static_cast<const pmix_topology_t*>(b);
  return CompareSourced(
      x.source, x.topology, y.source, y.topology, [](const void* p, const void* q) {
        auto tp = static_cast<hwloc_topology_t>(const_cast<void*>(p));
        auto tq = static_cast<hwloc_topology_t>(const_cast<void*>(q));
        if (tp == tq) return PMIX_EQUAL;
        hwloc_topology_diff_t diff = nullptr;
        int rc = hwloc_topology_diff_build(tp, tq, 0, &diff);
        if (diff != nullptr) hwloc_topology_diff_destroy(diff);
        return rc == 0 && diff == nullptr ? PMIX_EQUAL : PMIX_VALUE_COMPARISON_NOT_AVAIL;
      });
}

}  // namespace pmix::type_ops
