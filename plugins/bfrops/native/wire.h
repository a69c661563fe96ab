// Byte-level primitives of the native codec: an append-only Writer and a
// bounds-checked Reader. See native_module.h for the wire format they
// implement. Integers are fixed-width little-endian whatever the host.
//
// Reader contract: every read checks the bytes left first and fails with
// PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER without moving; allocations are
// made only after the bytes that justify them are known to be present,
// and only after Charge() accepted their size (PMIX_ERR_OUT_OF_RESOURCE
// when a bounded unpack's budget is spent).
// Both track the nesting depth of values and data arrays (kMaxDepth).
#ifndef PMIXX_PLUGINS_BFROPS_NATIVE_WIRE_H
#define PMIXX_PLUGINS_BFROPS_NATIVE_WIRE_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "pmix_common.h"

namespace pmix::bfrops::native {

// Deepest nesting of values / data arrays accepted, packing or unpacking.
constexpr int kMaxDepth = 64;
// The length that marks a NULL string or argv.
constexpr uint32_t kNullLength = 0xFFFFFFFFu;
// What one heap allocation costs beyond its size (malloc's header and
// rounding), charged with it so that many tiny strings are not free.
constexpr size_t kAllocOverhead = 16;

class Writer {
 public:
  void U8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void U16(uint16_t v) { Le(v, 2); }
  void U32(uint32_t v) { Le(v, 4); }
  void U64(uint64_t v) { Le(v, 8); }
  void Raw(const void* p, size_t n) {
    if (n > 0) out_.append(static_cast<const char*>(p), n);
  }
  // A length: fails (BAD_PARAM) when it does not fit the 32-bit field.
  pmix_status_t Count(size_t n) {
    if (n >= kNullLength) return PMIX_ERR_BAD_PARAM;
    U32(static_cast<uint32_t>(n));
    return PMIX_SUCCESS;
  }
  // u32 length (kNullLength for NULL) + bytes without the NUL.
  pmix_status_t Str(const char* s) {
    if (s == nullptr) {
      U32(kNullLength);
      return PMIX_SUCCESS;
    }
    size_t n = std::strlen(s);
    if (pmix_status_t rc = Count(n); rc != PMIX_SUCCESS) return rc;
    Raw(s, n);
    return PMIX_SUCCESS;
  }
  // A fixed char[max + 1] field (nspace, key): as Str, length <= max.
  pmix_status_t Fixed(const char* s, size_t max) {
    size_t n = strnlen(s, max + 1);
    if (n > max) return PMIX_ERR_BAD_PARAM;  // not terminated
    U32(static_cast<uint32_t>(n));
    Raw(s, n);
    return PMIX_SUCCESS;
  }
  // Enters one nesting level; false when too deep.
  bool Enter() { return ++depth_ <= kMaxDepth; }
  void Leave() { --depth_; }
  const std::string& bytes() const { return out_; }

 private:
  void Le(uint64_t v, int width) {
    for (int i = 0; i < width; ++i) out_.push_back(static_cast<char>(v >> (8 * i)));
  }
  std::string out_;
  int depth_ = 0;
};

class Reader {
 public:
  // budget: the bytes the values may take (nullptr: unbounded); lowered
  // by every Charge().
  Reader(const char* begin, const char* end, size_t* budget = nullptr)
      : p_(reinterpret_cast<const uint8_t*>(begin)),
        end_(reinterpret_cast<const uint8_t*>(end)),
        budget_(budget) {}

  size_t left() const { return static_cast<size_t>(end_ - p_); }
  const char* position() const { return reinterpret_cast<const char*>(p_); }

  pmix_status_t U8(uint8_t* v) { return Le(v, 1); }
  pmix_status_t U16(uint16_t* v) { return Le(v, 2); }
  pmix_status_t U32(uint32_t* v) { return Le(v, 4); }
  pmix_status_t U64(uint64_t* v) { return Le(v, 8); }
  pmix_status_t Raw(void* dst, size_t n) {
    if (n > left()) return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    if (n > 0) std::memcpy(dst, p_, n);
    p_ += n;
    return PMIX_SUCCESS;
  }
  // A count of elements that take at least `min_wire` bytes each: fails
  // when the bytes left cannot hold that many (before anything is built).
  pmix_status_t Count(size_t min_wire, size_t* n) {
    uint32_t v = 0;
    if (pmix_status_t rc = U32(&v); rc != PMIX_SUCCESS) return rc;
    if (v == kNullLength) return PMIX_ERR_UNPACK_FAILURE;
    if (min_wire > 0 && v > left() / min_wire) {
      return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    *n = v;
    return PMIX_SUCCESS;
  }
  // A string written by Writer::Str into a new malloc'd one (*out is only
  // written on success; NULL for a NULL string).
  pmix_status_t Str(char** out);
  // A fixed field written by Writer::Fixed into dst[max + 1].
  pmix_status_t Fixed(char* dst, size_t max);
  // A byte run of u32 length into a malloc'd buffer (NULL when empty).
  pmix_status_t Blob(char** bytes, size_t* size);

  bool Enter() { return ++depth_ <= kMaxDepth; }
  void Leave() { --depth_; }

  // Accounts for an allocation of `bytes` about to be made; call it before
  // allocating. PMIX_ERR_OUT_OF_RESOURCE when the budget cannot cover it.
  pmix_status_t Charge(size_t bytes) {
    if (budget_ == nullptr) return PMIX_SUCCESS;
    if (bytes > *budget_ || kAllocOverhead > *budget_ - bytes) return PMIX_ERR_OUT_OF_RESOURCE;
    *budget_ -= bytes + kAllocOverhead;
    return PMIX_SUCCESS;
  }
  // n elements of `size` bytes each, as one allocation.
  pmix_status_t ChargeArray(size_t n, size_t size) {
    if (size != 0 && n > SIZE_MAX / size) return PMIX_ERR_OUT_OF_RESOURCE;
    return Charge(n * size);
  }

 private:
  template <class T>
  pmix_status_t Le(T* v, int width) {
    if (static_cast<size_t>(width) > left()) {
      return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    uint64_t acc = 0;
    for (int i = 0; i < width; ++i) acc |= static_cast<uint64_t>(p_[i]) << (8 * i);
    *v = static_cast<T>(acc);
    p_ += width;
    return PMIX_SUCCESS;
  }
  const uint8_t* p_;
  const uint8_t* end_;
  size_t* budget_;
  int depth_ = 0;
};

// Evaluates a pmix_status_t expression and returns it when it failed.
#define NATIVE_TRY(expr)                              \
  do {                                                \
    pmix_status_t native_rc_ = (expr);                \
    if (native_rc_ != PMIX_SUCCESS) return native_rc_; \
  } while (0)

}  // namespace pmix::bfrops::native

#endif  // PMIXX_PLUGINS_BFROPS_NATIVE_WIRE_H
