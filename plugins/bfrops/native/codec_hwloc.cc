// pmix_cpuset_t and pmix_topology_t: {source string, hwloc object}. The
// object travels as text: a cpuset as hwloc's bitmap list string ("0-3,8"),
// a topology as hwloc's XML export. Objects from another source cannot be
// encoded (PMIX_ERR_NOT_SUPPORTED).
#include <hwloc.h>
#include <strings.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "plugins/bfrops/native/codec.h"

namespace pmix::bfrops::native {
namespace {

// The object marker after the source string.
constexpr uint8_t kNoObject = 0;
constexpr uint8_t kHwlocText = 1;

// hwloc allocates a bitmap as large as its highest index: cap the indexes a
// peer may name so that a few bytes cannot demand megabytes (2^20 CPUs:
// a 128 KiB bitmap at most).
constexpr unsigned long kMaxCpuIndex = 1ul << 20;

// One decimal index of at most 7 digits, <= kMaxCpuIndex, at *p.
bool ParseIndex(const char** p, unsigned long* v) {
  const char* s = *p;
  unsigned long acc = 0;
  int digits = 0;
  for (; *s >= '0' && *s <= '9'; ++s) {
    if (++digits > 7) return false;
    acc = acc * 10 + static_cast<unsigned long>(*s - '0');
  }
  if (digits == 0 || acc > kMaxCpuIndex) return false;
  *p = s;
  *v = acc;
  return true;
}

// Parses the list form that PackCpuset writes ("0-3,8,10-11": decimal
// indexes and ranges, ascending, disjoint) into bitmap. Anything else is
// refused -- hwloc's own parser also takes hex, signs and infinite ranges
// ("0-"), which would let a few bytes name 2^32 bits or a set no loop
// over its members ends -- and so are overlapping or descending items,
// which bound the work to one pass over at most kMaxCpuIndex bits.
// The bitmap's growth (one bit per index up to the highest) is charged to
// r's budget as it happens.
pmix_status_t ParseCpuList(Reader& r, const char* text, hwloc_bitmap_t bitmap) {
  hwloc_bitmap_zero(bitmap);
  const char* p = text;
  bool first = true;
  unsigned long next_free = 0;  // the lowest index a next item may start at
  while (*p != '\0') {
    if (!first && *p++ != ',') return PMIX_ERR_UNPACK_FAILURE;
    first = false;
    unsigned long lo = 0, hi = 0;
    if (!ParseIndex(&p, &lo)) return PMIX_ERR_UNPACK_FAILURE;
    hi = lo;
    if (*p == '-') {
      ++p;
      if (!ParseIndex(&p, &hi) || hi < lo) return PMIX_ERR_UNPACK_FAILURE;
    }
    if (lo < next_free) return PMIX_ERR_UNPACK_FAILURE;
    NATIVE_TRY(r.Charge(hi / 8 + 1 - next_free / 8));
    if (hwloc_bitmap_set_range(bitmap, static_cast<unsigned>(lo), static_cast<int>(hi)) != 0) {
      return PMIX_ERR_NOMEM;
    }
    next_free = hi + 1;
  }
  return PMIX_SUCCESS;
}

// Whether a bitmap can travel: finite, and no index above kMaxCpuIndex.
bool Packable(hwloc_const_bitmap_t bitmap) {
  if (hwloc_bitmap_iszero(bitmap)) return true;
  int last = hwloc_bitmap_last(bitmap);  // -1 for an infinite set
  return last >= 0 && static_cast<unsigned long>(last) <= kMaxCpuIndex;
}

bool IsHwloc(const char* source) {
  return source != nullptr && strncasecmp(source, "hwloc", 5) == 0;
}

// Writes the source and, when there is an object, the marker and the text.
pmix_status_t PackSourced(Writer& w, const char* source, const char* text,
                          bool has_object) {
  NATIVE_TRY(w.Str(source));
  if (!has_object) {
    w.U8(kNoObject);
    return PMIX_SUCCESS;
  }
  w.U8(kHwlocText);
  return w.Str(text);
}

// Reads source, marker and (when present) the text, which must not be NULL.
pmix_status_t UnpackSourced(Reader& r, char** source, char** text) {
  NATIVE_TRY(r.Str(source));
  uint8_t marker = kNoObject;
  NATIVE_TRY(r.U8(&marker));
  if (marker == kNoObject) return PMIX_SUCCESS;
  if (marker != kHwlocText || !IsHwloc(*source)) return PMIX_ERR_UNPACK_FAILURE;
  NATIVE_TRY(r.Str(text));
  return *text == nullptr ? PMIX_ERR_UNPACK_FAILURE : PMIX_SUCCESS;
}

pmix_status_t PackCpuset(Writer& w, const void* e) {
  const auto& v = As<pmix_cpuset_t>(e);
  if (v.bitmap == nullptr) return PackSourced(w, v.source, nullptr, false);
  if (!IsHwloc(v.source)) return PMIX_ERR_NOT_SUPPORTED;
  auto bitmap = static_cast<hwloc_const_bitmap_t>(v.bitmap);
  if (!Packable(bitmap)) return PMIX_ERR_BAD_PARAM;  // what unpack would refuse
  char* text = nullptr;
  if (hwloc_bitmap_list_asprintf(&text, bitmap) < 0) {
    return PMIX_ERR_NOMEM;
  }
  pmix_status_t rc = PackSourced(w, v.source, text, true);
  std::free(text);
  return rc;
}

pmix_status_t UnpackCpuset(Reader& r, void* e) {
  auto& v = As<pmix_cpuset_t>(e);
  char* text = nullptr;
  pmix_status_t rc = UnpackSourced(r, &v.source, &text);
  if (rc != PMIX_SUCCESS || text == nullptr) return rc;
  hwloc_bitmap_t bitmap = hwloc_bitmap_alloc();
  if (bitmap == nullptr) {
    rc = PMIX_ERR_NOMEM;
  } else if (rc = ParseCpuList(r, text, bitmap); rc != PMIX_SUCCESS) {
    hwloc_bitmap_free(bitmap);
  } else {
    v.bitmap = bitmap;
  }
  std::free(text);
  return rc;
}

pmix_status_t PackTopology(Writer& w, const void* e) {
  const auto& v = As<pmix_topology_t>(e);
  if (v.topology == nullptr) return PackSourced(w, v.source, nullptr, false);
  if (!IsHwloc(v.source)) return PMIX_ERR_NOT_SUPPORTED;
  char* xml = nullptr;
  int len = 0;
  auto topo = static_cast<hwloc_topology_t>(v.topology);
  if (hwloc_topology_export_xmlbuffer(topo, &xml, &len, 0) != 0) {
    return PMIX_ERR_NOT_SUPPORTED;  // hwloc built without XML export
  }
  pmix_status_t rc = PackSourced(w, v.source, xml, true);
  hwloc_free_xmlbuffer(topo, xml);
  return rc;
}

// What a loaded topology is charged per byte of its XML: hwloc's objects
// (with their cpusets and info arrays) take a few times the text's size.
constexpr size_t kTopologyBytesPerXmlByte = 4;

// A topology loaded from `xml`, or NULL. As OpenPMIx 4.2 loads a topology
// it unpacks: the important I/O objects kept (PCI devices with their
// bridges and OS devices: the NICs, HCAs and GPUs that distances and
// fabric queries need; hwloc's default would drop them all), disallowed
// PUs kept, and treated as this system's (binding through it works).
hwloc_topology_t LoadXml(const char* xml) {
  hwloc_topology_t topo = nullptr;
  if (hwloc_topology_init(&topo) != 0) return nullptr;
  int len = static_cast<int>(strlen(xml)) + 1;
  if (hwloc_topology_set_xmlbuffer(topo, xml, len) != 0 ||
      hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT) != 0 ||
      hwloc_topology_set_flags(topo, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED |
                                         HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM) != 0 ||
      hwloc_topology_load(topo) != 0) {
    hwloc_topology_destroy(topo);
    return nullptr;
  }
  return topo;
}

pmix_status_t UnpackTopology(Reader& r, void* e) {
  auto& v = As<pmix_topology_t>(e);
  char* xml = nullptr;
  pmix_status_t rc = UnpackSourced(r, &v.source, &xml);
  if (rc != PMIX_SUCCESS || xml == nullptr) return rc;
  size_t len = strlen(xml);
  if (len > static_cast<size_t>(INT32_MAX) - 1) rc = PMIX_ERR_UNPACK_FAILURE;
  if (rc == PMIX_SUCCESS) rc = r.ChargeArray(len, kTopologyBytesPerXmlByte);
  if (rc == PMIX_SUCCESS) {
    v.topology = LoadXml(xml);
    if (v.topology == nullptr) rc = PMIX_ERR_UNPACK_FAILURE;
  }
  std::free(xml);
  return rc;
}

constexpr TypeCodec kRows[] = {
    {PMIX_PROC_CPUSET, sizeof(pmix_cpuset_t), 5, &PackCpuset, &UnpackCpuset},
    {PMIX_TOPO, sizeof(pmix_topology_t), 5, &PackTopology, &UnpackTopology},
};

}  // namespace

const TypeCodec* HwlocCodecs(size_t* n) {
  *n = sizeof(kRows) / sizeof(kRows[0]);
  return kRows;
}

}  // namespace pmix::bfrops::native
