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
// peer may name so that a few bytes cannot demand megabytes.
constexpr unsigned long kMaxCpuIndex = 1ul << 20;

bool ReasonableCpuList(const char* text) {
  for (const char* p = text; *p != '\0';) {
    if (*p < '0' || *p > '9') {
      ++p;
      continue;
    }
    unsigned long v = 0;
    for (; *p >= '0' && *p <= '9'; ++p) {
      v = v * 10 + static_cast<unsigned long>(*p - '0');
      if (v > kMaxCpuIndex) return false;
    }
  }
  return true;
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
  char* text = nullptr;
  if (hwloc_bitmap_list_asprintf(&text, static_cast<hwloc_const_bitmap_t>(v.bitmap)) < 0) {
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
  } else if (!ReasonableCpuList(text) || hwloc_bitmap_list_sscanf(bitmap, text) != 0) {
    hwloc_bitmap_free(bitmap);
    rc = PMIX_ERR_UNPACK_FAILURE;
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

// A topology loaded from `xml`, or NULL.
hwloc_topology_t LoadXml(const char* xml) {
  hwloc_topology_t topo = nullptr;
  if (hwloc_topology_init(&topo) != 0) return nullptr;
  int len = static_cast<int>(strlen(xml)) + 1;
  if (hwloc_topology_set_xmlbuffer(topo, xml, len) != 0 ||
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
  if (strlen(xml) > static_cast<size_t>(INT32_MAX) - 1) {
    rc = PMIX_ERR_UNPACK_FAILURE;
  } else {
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
