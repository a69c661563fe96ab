// Cpusets as text, in the format OpenPMIx uses on both sides of the API:
// "hwloc:<list>" where <list> is hwloc's list syntax ("0-3,8,10-11"). A
// string made here is read by OpenPMIx's PMIx_Parse_cpuset_string and the
// reverse (measured against Debian's OpenPMIx 4.2.2: a bitmap {1} gives
// "hwloc:1", {0,1} gives "hwloc:0-1").
//
// Parsing is bounded: indexes above kMaxCpuIndex and lists longer than
// kMaxCpusetText are refused, so a crafted string cannot make hwloc
// allocate a huge bitmap. Pure functions, any thread.
#ifndef PMIXX_SRC_HWLOC_CPUSET_TEXT_H
#define PMIXX_SRC_HWLOC_CPUSET_TEXT_H

#include <hwloc.h>

#include <memory>
#include <string>
#include <string_view>

#include "src/common/status.h"

namespace pmix::hwloc {

inline constexpr unsigned kMaxCpuIndex = 1u << 16;
inline constexpr size_t kMaxCpusetText = 1u << 16;

// The source name that marks hwloc objects ("hwloc", any case, optionally
// followed by ":<version>").
bool IsHwlocSource(const char* source);

// A malloc'd-free RAII bitmap.
struct BitmapDeleter {
  void operator()(hwloc_bitmap_s* b) const { hwloc_bitmap_free(b); }
};
using Bitmap = std::unique_ptr<hwloc_bitmap_s, BitmapDeleter>;

// "0-3,8" for {0,1,2,3,8}; "" for an empty bitmap.
std::string ListText(hwloc_const_bitmap_t bitmap);

// Parses hwloc's list syntax ("0-3,8"; empty = empty set). Errors:
// PMIX_ERR_BAD_PARAM for anything else (a stray character, a range whose
// end is below its start, an index above kMaxCpuIndex, a text too long).
Result<Bitmap> ParseList(std::string_view text);

// "hwloc:<list>" (PMIx_server_generate_cpuset_string).
std::string CpusetString(hwloc_const_bitmap_t bitmap);

// Parses "<source>:<list>"; the source must be hwloc's (any case, e.g.
// "hwloc" or "HWLOC"). PMIX_ERR_BAD_PARAM for a string without ':' or a bad
// list; PMIX_ERR_NOT_SUPPORTED for another source.
Result<Bitmap> ParseCpusetString(std::string_view text);

}  // namespace pmix::hwloc

#endif  // PMIXX_SRC_HWLOC_CPUSET_TEXT_H
