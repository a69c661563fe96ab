// Message bodies: a Writer packs typed values into a frame payload through
// the codec a connection agreed on in its handshake (bfrops), a Reader
// unpacks them in the same order. Every unpack is bounds-checked by the
// codec; a Reader's first error is sticky (later reads return it too), so
// a handler can read all fields and check once.
//
// Memory bound: a Reader charges everything it allocates -- its own arrays
// and what the codec allocates (bfrops unpack_bounded) -- to a budget
// before allocating, and fails with PMIX_ERR_OUT_OF_RESOURCE once it is
// spent. A Reader over the bytes of a message whose DecodeBudget is in
// scope on its thread (a server's Connection opens one around each
// message's handler) shares that budget with the message's other Readers;
// any other Reader has one of its own: kUnscopedRatio times its bytes plus
// kUnscopedFloor, more than any honest message needs (the C structs are up
// to ~60 times their wire size, and the codec holds a transient copy), so
// that a crafted count never makes it allocate more.
//
// Ownership: values and infos read are owned by the caller through the
// RAII types below. Not thread-safe; one message, one thread.
#ifndef PMIXX_SRC_WIRE_BUFFER_H
#define PMIXX_SRC_WIRE_BUFFER_H

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "pmix/mca/bfrops.h"
#include "src/common/status.h"

namespace pmix::wire {

using Bytes = std::vector<uint8_t>;

// An owned array of infos (each destructed with the vector).
class Infos {
 public:
  Infos() = default;
  explicit Infos(size_t n);
  Infos(Infos&& other) noexcept : items_(std::move(other.items_)) {}
  Infos& operator=(Infos&& other) noexcept;
  Infos(const Infos&) = delete;
  Infos& operator=(const Infos&) = delete;
  ~Infos();
  // Deep copies (PMIX_ERR_NOMEM etc. on failure; *this unchanged then).
  static Result<Infos> CopyOf(std::span<const pmix_info_t> src);
  Status Append(const pmix_info_t& info);  // deep copy
  Status Add(const char* key, const void* data, pmix_data_type_t type);
  std::span<const pmix_info_t> view() const { return {items_.data(), items_.size()}; }
  pmix_info_t* data() { return items_.data(); }
  size_t size() const { return items_.size(); }
  // A malloc'd PMIx_Info_create array of copies (NULL when empty).
  Result<pmix_info_t*> ToMalloced() const;

 private:
  std::vector<pmix_info_t> items_;
};

class Writer {
 public:
  explicit Writer(const pmix_bfrops_module_t* codec);
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // num values of type from src (the codec's contract); the first error
  // is sticky and returned by Take().
  Writer& Pack(const void* src, int32_t num, pmix_data_type_t type);
  Writer& U32(uint32_t v) { return Pack(&v, 1, PMIX_UINT32); }
  Writer& I32(int32_t v) { return Pack(&v, 1, PMIX_INT32); }
  Writer& U64(uint64_t v) { return Pack(&v, 1, PMIX_UINT64); }
  Writer& Bool(bool v) { return Pack(&v, 1, PMIX_BOOL); }
  Writer& String(const char* s);  // NULL allowed
  Writer& Str(const std::string& s) { return String(s.c_str()); }
  Writer& Status(pmix_status_t v) { return Pack(&v, 1, PMIX_STATUS); }
  Writer& Proc(const pmix_proc_t& p) { return Pack(&p, 1, PMIX_PROC); }
  Writer& Procs(std::span<const pmix_proc_t> procs);        // count + elements
  Writer& InfoArray(std::span<const pmix_info_t> infos);    // count + elements
  Writer& Value(const pmix_value_t& v) { return Pack(&v, 1, PMIX_VALUE); }
  Writer& Blob(std::span<const uint8_t> bytes);             // count + raw bytes
  Writer& Blob(std::span<const char> bytes);

  pmix::Status status() const { return status_; }
  // The packed bytes, or the first error.
  Result<Bytes> Take();

 private:
  const pmix_bfrops_module_t* codec_;
  pmix_data_buffer_t buf_;
  pmix::Status status_;
};

// Scope of a decode budget on this thread: Readers over (part of) message
// made while it lives may allocate `bytes` in all. Scopes nest (the
// innermost applies).
class DecodeBudget {
 public:
  DecodeBudget(size_t bytes, std::span<const uint8_t> message);
  ~DecodeBudget();
  DecodeBudget(const DecodeBudget&) = delete;
  DecodeBudget& operator=(const DecodeBudget&) = delete;
  // The remaining bytes of the innermost scope when `bytes` lie within its
  // message, else nullptr.
  static size_t* For(std::span<const uint8_t> bytes);
  size_t left() const { return left_; }

 private:
  size_t left_;
  std::span<const uint8_t> message_;
  DecodeBudget* previous_;
};

inline constexpr size_t kUnscopedRatio = 128;
inline constexpr size_t kUnscopedFloor = size_t{1} << 20;

class Reader {
 public:
  Reader(const pmix_bfrops_module_t* codec, std::span<const uint8_t> bytes);
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // Exactly num values of type into dest (caller storage).
  Reader& Unpack(void* dest, int32_t num, pmix_data_type_t type);
  uint32_t U32();
  int32_t I32();
  uint64_t U64();
  bool Bool();
  std::string String();  // NULL reads as ""
  pmix_status_t Status();
  pmix_proc_t Proc();
  std::vector<pmix_proc_t> Procs();
  Infos InfoArray();
  // Owned value (PMIx_Value_free); nullptr after an error.
  pmix_value_t* Value();
  Bytes Blob();

  bool AtEnd() const;
  // The bytes read so far (where the next read starts).
  size_t consumed() const;
  pmix::Status status() const { return status_; }

 private:
  // n elements of elem_size bytes may be allocated: n fits the bytes left
  // (each element takes at least one) and the budget covers them.
  bool Check(uint32_t n, size_t elem_size);
  const pmix_bfrops_module_t* codec_;
  size_t own_budget_;  // used when no DecodeBudget is in scope
  size_t* budget_;     // DecodeBudget::For(bytes) at construction, or &own_budget_
  pmix_data_buffer_t buf_;
  pmix::Status status_;
};

}  // namespace pmix::wire

#endif  // PMIXX_SRC_WIRE_BUFFER_H
