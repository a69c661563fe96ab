// Buffer-level pack and unpack of one group (see native_module.h).
#include "plugins/bfrops/native/native_module.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "plugins/bfrops/native/codec.h"

namespace pmix::bfrops::native {
namespace {

// Appends `bytes` to the buffer, growing it geometrically.
pmix_status_t Append(pmix_data_buffer_t* buffer, const std::string& bytes) {
  if (buffer->base_ptr == nullptr && buffer->bytes_used > 0) return PMIX_ERR_BAD_PARAM;
  size_t used = buffer->bytes_used;
  size_t unpack_off =
      buffer->unpack_ptr == nullptr ? 0 : static_cast<size_t>(buffer->unpack_ptr - buffer->base_ptr);
  size_t need = used + bytes.size();
  if (need > buffer->bytes_allocated || buffer->base_ptr == nullptr) {
    size_t grown = buffer->bytes_allocated * 2;
    size_t capacity = grown > need ? grown : need;
    char* base = static_cast<char*>(std::realloc(buffer->base_ptr, capacity));
    if (base == nullptr) return PMIX_ERR_NOMEM;
    buffer->base_ptr = base;
    buffer->bytes_allocated = capacity;
  }
  std::memcpy(buffer->base_ptr + used, bytes.data(), bytes.size());
  buffer->bytes_used = need;
  buffer->pack_ptr = buffer->base_ptr + need;
  buffer->unpack_ptr = buffer->base_ptr + unpack_off;
  return PMIX_SUCCESS;
}

pmix_status_t PackGroup(pmix_data_buffer_t* buffer, const void* src, int32_t num_vals,
                        pmix_data_type_t type) {
  if (buffer == nullptr || num_vals < 0 || (src == nullptr && num_vals > 0)) {
    return PMIX_ERR_BAD_PARAM;
  }
  const TypeCodec* codec = FindCodec(type);
  if (codec == nullptr) return RefusalFor(type);
  if (num_vals == 0) return PMIX_SUCCESS;
  Writer w;
  w.U16(type);
  w.U32(static_cast<uint32_t>(num_vals));
  NATIVE_TRY(PackElements(w, *codec, src, static_cast<size_t>(num_vals)));
  return Append(buffer, w.bytes());
}

// The readable part of the buffer, or an error when its pointers are
// inconsistent.
pmix_status_t Readable(const pmix_data_buffer_t* buffer, const char** begin,
                       const char** end) {
  if (buffer->base_ptr == nullptr) {
    *begin = *end = nullptr;
    return PMIX_SUCCESS;
  }
  *begin = buffer->unpack_ptr == nullptr ? buffer->base_ptr : buffer->unpack_ptr;
  *end = buffer->base_ptr + buffer->bytes_used;
  return *begin < buffer->base_ptr || *begin > *end ? PMIX_ERR_BAD_PARAM : PMIX_SUCCESS;
}

// budget: nullptr for an unbounded unpack; lowered only on success.
pmix_status_t UnpackGroup(pmix_data_buffer_t* buffer, void* dest, int32_t* num_vals,
                          pmix_data_type_t type, size_t* budget) {
  if (buffer == nullptr || dest == nullptr || num_vals == nullptr) return PMIX_ERR_BAD_PARAM;
  const TypeCodec* codec = FindCodec(type);
  if (codec == nullptr) return RefusalFor(type);
  if (*num_vals <= 0) return PMIX_ERR_UNPACK_INADEQUATE_SPACE;
  const char* begin = nullptr;
  const char* end = nullptr;
  NATIVE_TRY(Readable(buffer, &begin, &end));
  size_t left = budget == nullptr ? 0 : *budget;
  Reader r(begin, end, budget == nullptr ? nullptr : &left);
  pmix_data_type_t tag = PMIX_UNDEF;
  NATIVE_TRY(r.U16(&tag));
  if (tag != type) return PMIX_ERR_PACK_MISMATCH;
  size_t n = 0;
  NATIVE_TRY(r.Count(codec->min_wire, &n));
  if (n == 0) return PMIX_ERR_UNPACK_FAILURE;  // pack never writes empty groups
  if (n > static_cast<size_t>(*num_vals)) return PMIX_ERR_UNPACK_INADEQUATE_SPACE;
  if (n == 1 && codec->plain && codec->element_size <= sizeof(pmix_proc_t)) {
    // One element owning nothing (most message fields): no array to make.
    alignas(pmix_proc_t) unsigned char one[sizeof(pmix_proc_t)] = {};
    NATIVE_TRY(r.ChargeArray(1, codec->element_size));
    NATIVE_TRY(codec->unpack(r, one));
    std::memcpy(dest, one, codec->element_size);
  } else {
    void* array = nullptr;
    NATIVE_TRY(UnpackElements(r, *codec, n, &array));
    std::memcpy(dest, array, n * codec->element_size);  // ownership moves to dest
    std::free(array);
  }
  *num_vals = static_cast<int32_t>(n);
  buffer->unpack_ptr = const_cast<char*>(r.position());
  if (budget != nullptr) *budget = left;
  return PMIX_SUCCESS;
}

pmix_status_t Pack(pmix_data_buffer_t* buffer, const void* src, int32_t num_vals,
                   pmix_data_type_t type) {
  try {
    return PackGroup(buffer, src, num_vals, type);
  } catch (const std::bad_alloc&) {
    return PMIX_ERR_NOMEM;
  } catch (...) {
    return PMIX_ERROR;
  }
}

pmix_status_t UnpackBounded(pmix_data_buffer_t* buffer, void* dest, int32_t* num_vals,
                            pmix_data_type_t type, size_t* budget) {
  try {
    return UnpackGroup(buffer, dest, num_vals, type, budget);
  } catch (const std::bad_alloc&) {
    return PMIX_ERR_NOMEM;
  } catch (...) {
    return PMIX_ERROR;
  }
}

pmix_status_t Unpack(pmix_data_buffer_t* buffer, void* dest, int32_t* num_vals,
                     pmix_data_type_t type) {
  return UnpackBounded(buffer, dest, num_vals, type, nullptr);
}

}  // namespace

const pmix_bfrops_module_t kModule = {kCodecName, &Pack, &Unpack, &UnpackBounded};

}  // namespace pmix::bfrops::native
