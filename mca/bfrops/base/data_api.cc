// The PMIx_Data_* functions of the standard (pack, unpack, copy and the
// payload moves). Pack and unpack go through the bfrops framework; copy
// uses the core type registry; payload moves are plain buffer surgery.
#include <cstdlib>
#include <cstring>

#include "mca/bfrops/base/bfrops_base.h"
#include "pmix.h"
#include "src/common/api_guard.h"
#include "src/common/data_types.h"

namespace pmix::bfrops {
namespace {

// The codec for data exchanged with `peer`. Issue 4 will pick the codec
// the connection to `peer` agreed on in its handshake; until then every
// peer speaks the default.
Result<const pmix_bfrops_module_t*> CodecFor(const pmix_proc_t* peer) {
  (void)peer;
  return DefaultCodec();
}

// The unread bytes of `b`: [*begin, *begin + *size).
Status Unread(const pmix_data_buffer_t& b, const char** begin, size_t* size) {
  *begin = nullptr;
  *size = 0;
  if (b.base_ptr == nullptr) return b.bytes_used == 0 ? Status() : Status(PMIX_ERR_BAD_PARAM);
  const char* from = b.unpack_ptr == nullptr ? b.base_ptr : b.unpack_ptr;
  const char* end = b.base_ptr + b.bytes_used;
  if (from < b.base_ptr || from > end) return PMIX_ERR_BAD_PARAM;
  *begin = from;
  *size = static_cast<size_t>(end - from);
  return Status();
}

// Appends n bytes to `b`, keeping its unpack position.
Status Append(pmix_data_buffer_t* b, const char* bytes, size_t n) {
  if (n == 0) return Status();
  if (b->base_ptr == nullptr && b->bytes_used > 0) return PMIX_ERR_BAD_PARAM;
  size_t unpack = b->unpack_ptr == nullptr ? 0 : static_cast<size_t>(b->unpack_ptr - b->base_ptr);
  size_t need = b->bytes_used + n;
  if (b->base_ptr == nullptr || need > b->bytes_allocated) {
    char* grown = static_cast<char*>(std::realloc(b->base_ptr, need));
    if (grown == nullptr) return PMIX_ERR_NOMEM;
    b->base_ptr = grown;
    b->bytes_allocated = need;
  }
  std::memmove(b->base_ptr + b->bytes_used, bytes, n);
  b->bytes_used = need;
  b->pack_ptr = b->base_ptr + need;
  b->unpack_ptr = b->base_ptr + unpack;
  return Status();
}

Status Copy(void** dest, void* src, pmix_data_type_t type) {
  if (dest == nullptr || src == nullptr) return PMIX_ERR_BAD_PARAM;
  const DataTypeOps* ops = FindDataType(type);
  if (ops == nullptr || type == PMIX_UNDEF) return PMIX_ERR_UNKNOWN_DATA_TYPE;
  if (ops->element_size == 0) return PMIX_ERR_NOT_SUPPORTED;
  if (type == PMIX_STRING || type == PMIX_REGEX) {  // src is the text itself (OpenPMIx 4.2)
    char* copy = strdup(static_cast<const char*>(src));
    if (copy == nullptr) return PMIX_ERR_NOMEM;
    *dest = copy;
    return Status();
  }
  void* element = std::calloc(1, ops->element_size);
  if (element == nullptr) return PMIX_ERR_NOMEM;
  Status status = CopyElement(*ops, element, src);
  if (!status.ok()) {
    std::free(element);
    return status;
  }
  *dest = element;
  return Status();
}

}  // namespace
}  // namespace pmix::bfrops

using pmix::ApiGuard;
using pmix::Status;

extern "C" {

pmix_status_t PMIx_Data_pack(const pmix_proc_t* target, pmix_data_buffer_t* buffer,
                             void* src, int32_t num_vals, pmix_data_type_t type) {
  return ApiGuard("PMIx_Data_pack", [&]() -> Status {
    if (buffer == nullptr || num_vals < 0 || (src == nullptr && num_vals > 0)) {
      return PMIX_ERR_BAD_PARAM;
    }
    auto codec = pmix::bfrops::CodecFor(target);
    PMIX_RETURN_IF_ERROR(codec.status());
    return (*codec)->pack(buffer, src, num_vals, type);
  });
}

pmix_status_t PMIx_Data_unpack(const pmix_proc_t* source, pmix_data_buffer_t* buffer,
                               void* dest, int32_t* max_num_values, pmix_data_type_t type) {
  return ApiGuard("PMIx_Data_unpack", [&]() -> Status {
    if (buffer == nullptr || dest == nullptr || max_num_values == nullptr) {
      return PMIX_ERR_BAD_PARAM;
    }
    auto codec = pmix::bfrops::CodecFor(source);
    PMIX_RETURN_IF_ERROR(codec.status());
    return (*codec)->unpack(buffer, dest, max_num_values, type);
  });
}

pmix_status_t PMIx_Data_copy(void** dest, void* src, pmix_data_type_t type) {
  return ApiGuard("PMIx_Data_copy", [&] { return pmix::bfrops::Copy(dest, src, type); });
}

pmix_status_t PMIx_Data_copy_payload(pmix_data_buffer_t* dest, pmix_data_buffer_t* src) {
  return ApiGuard("PMIx_Data_copy_payload", [&]() -> Status {
    if (dest == nullptr || src == nullptr) return PMIX_ERR_BAD_PARAM;
    if (dest == src) return PMIX_ERR_BAD_PARAM;
    const char* begin = nullptr;
    size_t size = 0;
    PMIX_RETURN_IF_ERROR(pmix::bfrops::Unread(*src, &begin, &size));
    return pmix::bfrops::Append(dest, begin, size);
  });
}

pmix_status_t PMIx_Data_unload(pmix_data_buffer_t* buffer, pmix_byte_object_t* payload) {
  return ApiGuard("PMIx_Data_unload", [&]() -> Status {
    if (buffer == nullptr || payload == nullptr) return PMIX_ERR_BAD_PARAM;
    const char* begin = nullptr;
    size_t size = 0;
    PMIX_RETURN_IF_ERROR(pmix::bfrops::Unread(*buffer, &begin, &size));
    char* bytes = nullptr;
    size_t got = 0;
    PMIx_Data_buffer_unload(buffer, &bytes, &got);
    if (bytes == nullptr && size > 0) return PMIX_ERR_NOMEM;  // buffer kept
    payload->bytes = bytes;
    payload->size = got;
    return Status();
  });
}

pmix_status_t PMIx_Data_load(pmix_data_buffer_t* buffer, pmix_byte_object_t* payload) {
  return ApiGuard("PMIx_Data_load", [&]() -> Status {
    if (buffer == nullptr) return PMIX_ERR_BAD_PARAM;
    if (payload == nullptr || payload->bytes == nullptr || payload->size == 0) {
      PMIx_Data_buffer_destruct(buffer);
      if (payload != nullptr) PMIx_Byte_object_destruct(payload);
      return Status();
    }
    PMIx_Data_buffer_load(buffer, payload->bytes, payload->size);
    payload->bytes = nullptr;
    payload->size = 0;
    return Status();
  });
}

pmix_status_t PMIx_Data_embed(pmix_data_buffer_t* buffer, const pmix_byte_object_t* payload) {
  return ApiGuard("PMIx_Data_embed", [&]() -> Status {
    if (buffer == nullptr) return PMIX_ERR_BAD_PARAM;
    if (payload == nullptr || payload->bytes == nullptr || payload->size == 0) {
      PMIx_Data_buffer_destruct(buffer);
      return Status();
    }
    char* copy = static_cast<char*>(std::malloc(payload->size));
    if (copy == nullptr) return PMIX_ERR_NOMEM;
    std::memcpy(copy, payload->bytes, payload->size);
    PMIx_Data_buffer_load(buffer, copy, payload->size);
    return Status();
  });
}

}  // extern "C"
