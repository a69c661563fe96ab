#include "src/hwloc/cpuset_text.h"

#include <strings.h>

#include <cstdlib>

namespace pmix::hwloc {
namespace {

// Reads a decimal index at text[*pos]; false when there is none or it is
// above kMaxCpuIndex.
bool ReadIndex(std::string_view text, size_t* pos, unsigned* out) {
  size_t p = *pos;
  unsigned v = 0;
  while (p < text.size() && text[p] >= '0' && text[p] <= '9') {
    v = v * 10 + static_cast<unsigned>(text[p] - '0');
    if (v > kMaxCpuIndex) return false;
    ++p;
  }
  if (p == *pos) return false;
  *pos = p;
  *out = v;
  return true;
}

}  // namespace

bool IsHwlocSource(const char* source) {
  return source != nullptr && strncasecmp(source, "hwloc", 5) == 0 &&
         (source[5] == '\0' || source[5] == ':');
}

std::string ListText(hwloc_const_bitmap_t bitmap) {
  char* text = nullptr;
  if (hwloc_bitmap_list_asprintf(&text, bitmap) < 0 || text == nullptr) throw std::bad_alloc();
  std::string out(text);
  std::free(text);
  return out;
}

Result<Bitmap> ParseList(std::string_view text) {
  if (text.size() > kMaxCpusetText) return Status(PMIX_ERR_BAD_PARAM);
  Bitmap bitmap(hwloc_bitmap_alloc());
  if (!bitmap) return Status(PMIX_ERR_NOMEM);
  size_t pos = 0;
  while (pos < text.size()) {
    unsigned first = 0;
    unsigned last = 0;
    if (!ReadIndex(text, &pos, &first)) return Status(PMIX_ERR_BAD_PARAM);
    last = first;
    if (pos < text.size() && text[pos] == '-') {
      ++pos;
      if (!ReadIndex(text, &pos, &last) || last < first) return Status(PMIX_ERR_BAD_PARAM);
    }
    if (hwloc_bitmap_set_range(bitmap.get(), first, static_cast<int>(last)) != 0)
      return Status(PMIX_ERR_NOMEM);
    if (pos == text.size()) break;
    if (text[pos] != ',' || pos + 1 == text.size()) return Status(PMIX_ERR_BAD_PARAM);
    ++pos;
  }
  return bitmap;
}

std::string CpusetString(hwloc_const_bitmap_t bitmap) { return "hwloc:" + ListText(bitmap); }

Result<Bitmap> ParseCpusetString(std::string_view text) {
  size_t colon = text.find(':');
  if (colon == std::string_view::npos) return Status(PMIX_ERR_BAD_PARAM);
  std::string source(text.substr(0, colon));
  if (!IsHwlocSource(source.c_str())) return Status(PMIX_ERR_NOT_SUPPORTED);
  return ParseList(text.substr(colon + 1));
}

}  // namespace pmix::hwloc
