#include "mca/gds/base/image_values.h"

#include <sys/types.h>

#include <cstdlib>
#include <cstring>

namespace pmix::gds::image {
namespace {

struct Head {
  uint16_t type;
  uint16_t encoding;
  uint32_t length;
};
static_assert(sizeof(Head) == 8);

// The C size of a type stored raw, 0 for the others (strings aside).
size_t RawSize(pmix_data_type_t type) {
  switch (type) {
    case PMIX_BOOL: return sizeof(bool);
    case PMIX_BYTE:
    case PMIX_INT8:
    case PMIX_UINT8: return 1;
    case PMIX_INT16:
    case PMIX_UINT16: return 2;
    case PMIX_INT32:
    case PMIX_UINT32: return 4;
    case PMIX_INT64:
    case PMIX_UINT64: return 8;
    case PMIX_INT: return sizeof(int);
    case PMIX_UINT: return sizeof(unsigned);
    case PMIX_SIZE: return sizeof(size_t);
    case PMIX_PID: return sizeof(pid_t);
    case PMIX_FLOAT: return sizeof(float);
    case PMIX_DOUBLE: return sizeof(double);
    case PMIX_PROC_RANK: return sizeof(pmix_rank_t);
    case PMIX_STATUS: return sizeof(pmix_status_t);
    case PMIX_DATA_TYPE: return sizeof(pmix_data_type_t);
    case PMIX_SCOPE: return sizeof(pmix_scope_t);
    case PMIX_DATA_RANGE: return sizeof(pmix_data_range_t);
    case PMIX_PERSIST: return sizeof(pmix_persistence_t);
    case PMIX_PROC_STATE: return sizeof(pmix_proc_state_t);
    case PMIX_POINTER: return 0;  // never meaningful in another process
    default: return 0;
  }
}

void Append(std::string& out, const void* data, size_t n) {
  out.append(static_cast<const char*>(data), n);
}

void Pad(std::string& out) {
  while (out.size() % 4 != 0) out.push_back('\0');
}

Status EncodeCodec(const pmix_value_t& value, const pmix_bfrops_module_t* codec, std::string& out) {
  if (codec == nullptr) return PMIX_ERR_BAD_PARAM;
  pmix_data_buffer_t buf;
  PMIx_Data_buffer_construct(&buf);
  pmix_status_t rc = codec->pack(&buf, &value, 1, PMIX_VALUE);
  if (rc == PMIX_SUCCESS && buf.bytes_used > UINT32_MAX) rc = PMIX_ERR_BAD_PARAM;
  if (rc == PMIX_SUCCESS) {
    Head head{static_cast<uint16_t>(value.type), kCodec, static_cast<uint32_t>(buf.bytes_used)};
    Append(out, &head, sizeof head);
    Append(out, buf.base_ptr, buf.bytes_used);
  }
  PMIx_Data_buffer_destruct(&buf);
  if (rc != PMIX_SUCCESS) return rc == PMIX_ERR_NOMEM ? Status(rc) : Status(PMIX_ERR_BAD_PARAM);
  return Status();
}

Status DecodeCodec(std::span<const uint8_t> payload, const pmix_bfrops_module_t* codec,
                   pmix_value_t* out) {
  if (codec == nullptr) return PMIX_ERR_UNPACK_FAILURE;
  pmix_data_buffer_t buf;
  PMIx_Data_buffer_construct(&buf);
  // Aliases the image's bytes for the call; detached before the buffer goes.
  buf.base_ptr = reinterpret_cast<char*>(const_cast<uint8_t*>(payload.data()));
  buf.unpack_ptr = buf.base_ptr;
  buf.pack_ptr = buf.base_ptr + payload.size();
  buf.bytes_allocated = payload.size();
  buf.bytes_used = payload.size();
  pmix_value_t value;
  std::memset(&value, 0, sizeof value);
  int32_t n = 1;
  pmix_status_t rc = codec->unpack(&buf, &value, &n, PMIX_VALUE);
  bool consumed = buf.unpack_ptr == buf.pack_ptr;
  buf.base_ptr = nullptr;
  PMIx_Data_buffer_construct(&buf);
  if (rc != PMIX_SUCCESS || n != 1 || !consumed) {
    if (rc == PMIX_SUCCESS) PMIx_Value_destruct(&value);
    return PMIX_ERR_UNPACK_FAILURE;
  }
  *out = value;
  return Status();
}

}  // namespace

Status EncodeValue(const pmix_value_t& value, const pmix_bfrops_module_t* codec, std::string& out) {
  size_t start = out.size();
  Status status;
  if (value.type == PMIX_STRING) {
    // A NULL string (length 0) stays NULL: callers tell it from "" (Open MPI
    // 4.1 takes a host's NULL PMIX_LOCALITY_STRING for "not bound").
    const char* s = value.data.string;
    size_t n = s != nullptr ? std::strlen(s) + 1 : 0;
    if (n >= UINT32_MAX) return PMIX_ERR_BAD_PARAM;
    Head head{PMIX_STRING, kRaw, static_cast<uint32_t>(n)};
    Append(out, &head, sizeof head);
    if (n != 0) Append(out, s, n);
  } else if (size_t size = RawSize(value.type); size != 0) {
    Head head{static_cast<uint16_t>(value.type), kRaw, static_cast<uint32_t>(size)};
    Append(out, &head, sizeof head);
    Append(out, &value.data, size);  // every raw type sits at the union's start
  } else {
    status = EncodeCodec(value, codec, out);
  }
  if (!status.ok()) {
    out.resize(start);
    return status;
  }
  Pad(out);
  return status;
}

Status DecodeValue(std::span<const uint8_t> values, uint32_t ref,
                   const pmix_bfrops_module_t* codec, pmix_value_t* out) {
  Head head;
  if (ref > values.size() || values.size() - ref < sizeof head) return PMIX_ERR_UNPACK_FAILURE;
  std::memcpy(&head, values.data() + ref, sizeof head);
  size_t at = ref + sizeof head;
  if (head.length > values.size() - at) return PMIX_ERR_UNPACK_FAILURE;
  std::span<const uint8_t> payload = values.subspan(at, head.length);
  if (head.encoding == kCodec) {
    PMIX_RETURN_IF_ERROR(DecodeCodec(payload, codec, out));
    if (out->type != head.type) {
      PMIx_Value_destruct(out);
      return PMIX_ERR_UNPACK_FAILURE;
    }
    return Status();
  }
  if (head.encoding != kRaw) return PMIX_ERR_UNPACK_FAILURE;
  if (head.type == PMIX_STRING) {
    std::memset(out, 0, sizeof *out);
    out->type = PMIX_STRING;
    if (head.length == 0) return Status();  // a NULL string
    if (payload[head.length - 1] != 0) return PMIX_ERR_UNPACK_FAILURE;
    char* s = static_cast<char*>(std::malloc(head.length));
    if (s == nullptr) return PMIX_ERR_NOMEM;
    std::memcpy(s, payload.data(), head.length);
    out->data.string = s;
    return Status();
  }
  size_t size = RawSize(head.type);
  if (size == 0 || size != head.length) return PMIX_ERR_UNPACK_FAILURE;
  std::memset(out, 0, sizeof *out);
  out->type = head.type;
  std::memcpy(&out->data, payload.data(), size);
  if (head.type == PMIX_BOOL) out->data.flag = payload[0] != 0;  // any byte but 0 is true
  return Status();
}

}  // namespace pmix::gds::image
