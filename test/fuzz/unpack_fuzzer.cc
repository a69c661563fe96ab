// Fuzz target: the native codec's unpack of every type from hostile bytes.
//
// Input: byte 0 is the type code (a code that is no packable type ends the
// input), byte 1 the number of elements asked for (1..8), the rest is the
// buffer (test/fuzz/README.md; seeds are readable that way). What
// unpacks is then printed, copied, packed again and unpacked again (the
// second pack must unpack to the same bytes), and released -- so a value
// that unpacks but makes a later step loop, allocate without bound or
// crash is found too. Unpacking is bounded (unpack_bounded, 64 MiB) as a
// server's is.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "pmix.h"
#include "plugins/bfrops/native/native_module.h"
#include "src/common/data_types.h"

namespace {

bool Packable(pmix_data_type_t t) {
  return t != PMIX_UNDEF && t != PMIX_KVAL && t != PMIX_POINTER && pmix::ElementSize(t) > 0;
}

constexpr size_t kBudget = size_t{64} << 20;

// A data buffer over a malloc'd copy of bytes.
struct Buffer {
  Buffer(const uint8_t* bytes, size_t n) {
    PMIx_Data_buffer_construct(&b);
    if (n > 0) {
      char* copy = static_cast<char*>(std::malloc(n));
      std::memcpy(copy, bytes, n);
      PMIx_Data_buffer_load(&b, copy, n);
    }
  }
  Buffer() { PMIx_Data_buffer_construct(&b); }
  ~Buffer() { PMIx_Data_buffer_destruct(&b); }
  std::string bytes() const { return std::string(b.base_ptr ? b.base_ptr : "", b.bytes_used); }
  pmix_data_buffer_t b;
};

// Packs n elements of array; the bytes, or "" when pack refused.
std::string Repack(pmix_data_type_t type, void* array, int32_t n) {
  Buffer out;
  if (pmix::bfrops::native::kModule.pack(&out.b, array, n, type) != PMIX_SUCCESS) return {};
  return out.bytes();
}

void Exercise(pmix_data_type_t type, void* array, int32_t n) {
  size_t size = pmix::ElementSize(type);
  for (int32_t i = 0; i < n; ++i) {
    void* element = static_cast<char*>(array) + static_cast<size_t>(i) * size;
    // Print and copy take a string's text itself, and a copy of one is
    // that text (OpenPMIx's convention); every other type by address.
    bool by_text = type == PMIX_STRING || type == PMIX_REGEX;
    void* src = by_text ? *static_cast<char**>(element) : element;
    if (src == nullptr) continue;  // a NULL string: nothing to print or copy
    char* text = nullptr;
    if (PMIx_Data_print(&text, const_cast<char*>(""), src, type) == PMIX_SUCCESS) std::free(text);
    void* copy = nullptr;
    if (PMIx_Data_copy(&copy, src, type) == PMIX_SUCCESS) {
      if (by_text) {
        std::free(copy);
      } else {
        pmix_data_array_t one{type, 1, copy};
        PMIx_Data_array_destruct(&one);
      }
    }
  }
  std::string first = Repack(type, array, n);
  if (first.empty()) return;
  Buffer again(reinterpret_cast<const uint8_t*>(first.data()), first.size());
  pmix_data_array_t second;
  PMIx_Data_array_construct(&second, static_cast<size_t>(n), type);
  int32_t m = n;
  size_t budget = kBudget;
  pmix_status_t rc = pmix::bfrops::native::kModule.unpack_bounded(&again.b, second.array, &m, type,
                                                                 &budget);
  // What packed must unpack, to the same bytes.
  if (rc != PMIX_SUCCESS || m != n || Repack(type, second.array, m) != first) std::abort();
  PMIx_Data_array_destruct(&second);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  pmix_data_type_t type = data[0];
  if (!Packable(type)) return 0;
  int32_t want = 1 + data[1] % 8;
  Buffer in(data + 2, size - 2);
  size_t budget = kBudget;
  while (true) {
    pmix_data_array_t got;
    PMIx_Data_array_construct(&got, static_cast<size_t>(want), type);
    int32_t n = want;
    pmix_status_t rc =
        pmix::bfrops::native::kModule.unpack_bounded(&in.b, got.array, &n, type, &budget);
    if (rc == PMIX_SUCCESS) Exercise(type, got.array, n);
    PMIx_Data_array_destruct(&got);
    if (rc != PMIX_SUCCESS) break;
  }
  return 0;
}
