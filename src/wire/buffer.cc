#include "src/wire/buffer.h"

#include <cstdlib>
#include <cstring>
#include <functional>

#include "pmix.h"

namespace pmix::wire {

Infos::Infos(size_t n) : items_(n) {
  for (auto& info : items_) PMIx_Info_construct(&info);
}

Infos& Infos::operator=(Infos&& other) noexcept {
  if (this != &other) {
    for (auto& info : items_) PMIx_Info_destruct(&info);
    items_ = std::move(other.items_);
  }
  return *this;
}

Infos::~Infos() {
  for (auto& info : items_) PMIx_Info_destruct(&info);
}

Result<Infos> Infos::CopyOf(std::span<const pmix_info_t> src) {
  Infos out;
  for (const auto& info : src) PMIX_RETURN_IF_ERROR(out.Append(info));
  return out;
}

Status Infos::Append(const pmix_info_t& info) {
  items_.emplace_back();
  PMIx_Info_construct(&items_.back());
  pmix_status_t rc = PMIx_Info_xfer(&items_.back(), &info);
  if (rc != PMIX_SUCCESS) {
    PMIx_Info_destruct(&items_.back());
    items_.pop_back();
  }
  return rc;
}

Status Infos::Add(const char* key, const void* data, pmix_data_type_t type) {
  items_.emplace_back();
  PMIx_Info_construct(&items_.back());
  pmix_status_t rc = PMIx_Info_load(&items_.back(), key, data, type);
  if (rc != PMIX_SUCCESS) {
    PMIx_Info_destruct(&items_.back());
    items_.pop_back();
  }
  return rc;
}

Result<pmix_info_t*> Infos::ToMalloced() const {
  if (items_.empty()) return static_cast<pmix_info_t*>(nullptr);
  pmix_info_t* out = PMIx_Info_create(items_.size());
  if (out == nullptr) return Status(PMIX_ERR_NOMEM);
  for (size_t i = 0; i < items_.size(); ++i) {
    pmix_status_t rc = PMIx_Info_xfer(&out[i], &items_[i]);
    if (rc != PMIX_SUCCESS) {
      PMIx_Info_free(out, items_.size());
      return Status(rc);
    }
  }
  return out;
}

// --- Writer -------------------------------------------------------------------

Writer::Writer(const pmix_bfrops_module_t* codec) : codec_(codec) {
  PMIx_Data_buffer_construct(&buf_);
  if (codec_ == nullptr) status_ = PMIX_ERR_INIT;
}

Writer::~Writer() { PMIx_Data_buffer_destruct(&buf_); }

Writer& Writer::Pack(const void* src, int32_t num, pmix_data_type_t type) {
  if (status_.ok()) status_ = codec_->pack(&buf_, src, num, type);
  return *this;
}

Writer& Writer::String(const char* s) {
  char* p = const_cast<char*>(s);
  return Pack(&p, 1, PMIX_STRING);
}

Writer& Writer::Procs(std::span<const pmix_proc_t> procs) {
  U32(static_cast<uint32_t>(procs.size()));
  if (!procs.empty()) Pack(procs.data(), static_cast<int32_t>(procs.size()), PMIX_PROC);
  return *this;
}

Writer& Writer::InfoArray(std::span<const pmix_info_t> infos) {
  U32(static_cast<uint32_t>(infos.size()));
  if (!infos.empty()) Pack(infos.data(), static_cast<int32_t>(infos.size()), PMIX_INFO);
  return *this;
}

Writer& Writer::Blob(std::span<const uint8_t> bytes) {
  pmix_byte_object_t bo;
  bo.bytes = reinterpret_cast<char*>(const_cast<uint8_t*>(bytes.data()));
  bo.size = bytes.size();
  return Pack(&bo, 1, PMIX_BYTE_OBJECT);
}

Writer& Writer::Blob(std::span<const char> bytes) {
  return Blob(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
}

Result<Bytes> Writer::Take() {
  if (!status_.ok()) return status_;
  Bytes out(reinterpret_cast<uint8_t*>(buf_.base_ptr),
            reinterpret_cast<uint8_t*>(buf_.base_ptr) + buf_.bytes_used);
  return out;
}

// --- DecodeBudget ---------------------------------------------------------------

namespace {
thread_local DecodeBudget* t_budget = nullptr;
// What one allocation costs beyond its size (as the codec charges it).
constexpr size_t kAllocOverhead = 16;
}  // namespace

DecodeBudget::DecodeBudget(size_t bytes, std::span<const uint8_t> message)
    : left_(bytes), message_(message), previous_(t_budget) {
  t_budget = this;
}

DecodeBudget::~DecodeBudget() { t_budget = previous_; }

size_t* DecodeBudget::For(std::span<const uint8_t> bytes) {
  DecodeBudget* scope = t_budget;
  if (scope == nullptr || scope->message_.empty() || bytes.empty()) return nullptr;
  const uint8_t* begin = scope->message_.data();
  const uint8_t* end = begin + scope->message_.size();
  std::less_equal<const uint8_t*> le;  // a total order even across objects
  bool inside = le(begin, bytes.data()) && le(bytes.data() + bytes.size(), end);
  return inside ? &scope->left_ : nullptr;
}

// --- Reader -------------------------------------------------------------------

Reader::Reader(const pmix_bfrops_module_t* codec, std::span<const uint8_t> bytes)
    : codec_(codec),
      own_budget_(bytes.size() * kUnscopedRatio + kUnscopedFloor),
      budget_(DecodeBudget::For(bytes) != nullptr ? DecodeBudget::For(bytes) : &own_budget_) {
  PMIx_Data_buffer_construct(&buf_);
  // The buffer aliases the caller's bytes; the destructor detaches them.
  buf_.base_ptr = reinterpret_cast<char*>(const_cast<uint8_t*>(bytes.data()));
  buf_.unpack_ptr = buf_.base_ptr;
  buf_.pack_ptr = buf_.base_ptr + bytes.size();
  buf_.bytes_allocated = bytes.size();
  buf_.bytes_used = bytes.size();
  if (codec_ == nullptr) status_ = PMIX_ERR_INIT;
}

Reader::~Reader() {
  buf_.base_ptr = nullptr;
  PMIx_Data_buffer_construct(&buf_);
}

Reader& Reader::Unpack(void* dest, int32_t num, pmix_data_type_t type) {
  if (!status_.ok()) return *this;
  int32_t n = num;
  if (codec_->unpack_bounded == nullptr) {
    status_ = PMIX_ERR_NOT_SUPPORTED;  // a codec must bound what a peer sends
  } else {
    status_ = codec_->unpack_bounded(&buf_, dest, &n, type, budget_);
  }
  if (status_.ok() && n != num) status_ = PMIX_ERR_UNPACK_FAILURE;
  return *this;
}

bool Reader::AtEnd() const { return buf_.unpack_ptr == buf_.base_ptr + buf_.bytes_used; }

size_t Reader::consumed() const { return static_cast<size_t>(buf_.unpack_ptr - buf_.base_ptr); }

// A count read from the wire must be plausible: every element takes at least
// one byte, so more elements than bytes left is a corrupt message. (The
// codec then checks the count against its own per-type minimum.)
bool Reader::Check(uint32_t n, size_t elem_size) {
  if (!status_.ok()) return false;
  size_t left = static_cast<size_t>(buf_.base_ptr + buf_.bytes_used - buf_.unpack_ptr);
  if (n > left || n > static_cast<uint32_t>(INT32_MAX)) {
    status_ = PMIX_ERR_UNPACK_FAILURE;
    return false;
  }
  size_t bytes = static_cast<size_t>(n) * elem_size + kAllocOverhead;
  if (bytes > *budget_) {
    status_ = PMIX_ERR_OUT_OF_RESOURCE;
    return false;
  }
  *budget_ -= bytes;
  return true;
}

uint32_t Reader::U32() {
  uint32_t v = 0;
  Unpack(&v, 1, PMIX_UINT32);
  return status_.ok() ? v : 0;
}

int32_t Reader::I32() {
  int32_t v = 0;
  Unpack(&v, 1, PMIX_INT32);
  return status_.ok() ? v : 0;
}

uint64_t Reader::U64() {
  uint64_t v = 0;
  Unpack(&v, 1, PMIX_UINT64);
  return status_.ok() ? v : 0;
}

bool Reader::Bool() {
  bool v = false;
  Unpack(&v, 1, PMIX_BOOL);
  return status_.ok() && v;
}

std::string Reader::String() {
  char* s = nullptr;
  Unpack(&s, 1, PMIX_STRING);
  std::string out = (status_.ok() && s != nullptr) ? s : "";
  std::free(s);
  return out;
}

pmix_status_t Reader::Status() {
  pmix_status_t v = PMIX_ERROR;
  Unpack(&v, 1, PMIX_STATUS);
  return status_.ok() ? v : status_.code();
}

pmix_proc_t Reader::Proc() {
  pmix_proc_t p;
  PMIx_Proc_construct(&p);
  Unpack(&p, 1, PMIX_PROC);
  return p;
}

std::vector<pmix_proc_t> Reader::Procs() {
  uint32_t n = U32();
  if (n == 0 || !Check(n, sizeof(pmix_proc_t))) return {};
  std::vector<pmix_proc_t> procs(n);
  Unpack(procs.data(), static_cast<int32_t>(n), PMIX_PROC);
  if (!status_.ok()) return {};
  return procs;
}

Infos Reader::InfoArray() {
  uint32_t n = U32();
  if (n == 0 || !Check(n, sizeof(pmix_info_t))) return Infos();
  Infos infos(n);
  Unpack(infos.data(), static_cast<int32_t>(n), PMIX_INFO);
  if (!status_.ok()) return Infos();
  return infos;
}

pmix_value_t* Reader::Value() {
  pmix_value_t* v = PMIx_Value_create(1);
  if (v == nullptr) {
    status_ = PMIX_ERR_NOMEM;
    return nullptr;
  }
  Unpack(v, 1, PMIX_VALUE);
  if (!status_.ok()) {
    PMIx_Value_free(v, 1);
    return nullptr;
  }
  return v;
}

Bytes Reader::Blob() {
  pmix_byte_object_t bo;
  PMIx_Byte_object_construct(&bo);
  Unpack(&bo, 1, PMIX_BYTE_OBJECT);
  if (!status_.ok()) return {};
  Bytes out(reinterpret_cast<uint8_t*>(bo.bytes), reinterpret_cast<uint8_t*>(bo.bytes) + bo.size);
  PMIx_Byte_object_destruct(&bo);
  return out;
}

}  // namespace pmix::wire
