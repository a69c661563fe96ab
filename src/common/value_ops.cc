#include "src/common/value_ops.h"

#include <sys/types.h>

#include <cstdlib>
#include <cstring>

#include "src/common/data_types.h"

namespace pmix {
namespace {

// Where the element of a value lives: inside the union or behind its
// pointer (which may be NULL).
const void* ElementOf(const DataTypeOps& ops, const pmix_value_t& v) {
  return ops.storage == ValueStorage::kInline ? &v.data : v.data.ptr;
}

// Copies one element of `ops` from `src` into `v`, boxing it if needed.
Status StoreElement(const DataTypeOps& ops, const void* src, pmix_value_t* v) {
  if (ops.storage == ValueStorage::kInline) {
    return CopyElement(ops, &v->data, src);
  }
  void* box = std::malloc(ops.element_size);
  if (box == nullptr) return PMIX_ERR_NOMEM;
  Status status = CopyElement(ops, box, src);
  if (!status.ok()) {
    std::free(box);
    return status;
  }
  v->data.ptr = box;
  return Status();
}

Status CheckStorable(const DataTypeOps* ops) {
  if (ops == nullptr) return PMIX_ERR_UNKNOWN_DATA_TYPE;
  if (ops->storage == ValueStorage::kNotStorable) {
    return PMIX_ERR_NOT_SUPPORTED;
  }
  return Status();
}

// Copies the element into the caller's buffer, or a new one when the
// caller passed none (OpenPMIx requires a buffer; the standard says the
// library allocates: we accept both).
Status UnloadIntoBuffer(const DataTypeOps& ops, const void* element,
                        void** data) {
  void* target = *data;
  if (target == nullptr) {
    target = std::malloc(ops.element_size);
    if (target == nullptr) return PMIX_ERR_NOMEM;
  }
  std::memcpy(target, element, ops.element_size);
  *data = target;
  return Status();
}

Status UnloadBytes(const pmix_byte_object_t& bo, void** data, size_t* size) {
  if (bo.size == 0) {
    *data = nullptr;
    *size = 0;
    return Status();
  }
  if (bo.bytes == nullptr) return PMIX_ERR_BAD_PARAM;
  void* copy = std::malloc(bo.size);
  if (copy == nullptr) return PMIX_ERR_NOMEM;
  std::memcpy(copy, bo.bytes, bo.size);
  *data = copy;
  *size = bo.size;
  return Status();
}

Status UnloadElement(const DataTypeOps& ops, const void* element, void** data,
                     size_t* size) {
  if (element == nullptr) {  // a boxed type holding NULL
    *data = nullptr;
    *size = 0;
    return Status();
  }
  if (ops.unload == UnloadMode::kNewCopy) {
    void* box = std::malloc(ops.element_size);
    if (box == nullptr) return PMIX_ERR_NOMEM;
    Status status = CopyElement(ops, box, element);
    if (!status.ok()) {
      std::free(box);
      return status;
    }
    *data = box;
    *size = ops.element_size;
    return Status();
  }
  void* target = *data;
  PMIX_RETURN_IF_ERROR(UnloadIntoBuffer(ops, element, &target));
  *data = target;
  *size = ops.unload == UnloadMode::kNspace
              ? strnlen(static_cast<const char*>(element), PMIX_MAX_NSLEN)
              : ops.element_size;
  return Status();
}

}  // namespace

Status LoadValue(pmix_value_t* dst, const void* data,
                 pmix_data_type_t type) noexcept {
  const DataTypeOps* ops = FindValueType(type);
  PMIX_RETURN_IF_ERROR(CheckStorable(ops));
  pmix_value_t v;
  std::memset(&v, 0, sizeof v);
  v.type = type;
  if (data == nullptr) {
    if (type == PMIX_BOOL) v.data.flag = true;
  } else if (ops->storage != ValueStorage::kEmpty) {
    switch (ops->load_input) {
      case LoadInput::kItself:
        PMIX_RETURN_IF_ERROR(StoreElement(*ops, &data, &v));
        break;
      case LoadInput::kRegexText: {
        const char* text = static_cast<const char*>(data);
        pmix_byte_object_t bo{const_cast<char*>(text), std::strlen(text) + 1};
        PMIX_RETURN_IF_ERROR(StoreElement(*ops, &bo, &v));
        break;
      }
      case LoadInput::kElement:
        PMIX_RETURN_IF_ERROR(StoreElement(*ops, data, &v));
        break;
    }
  }
  *dst = v;
  return Status();
}

Status CopyValue(pmix_value_t* dst, const pmix_value_t& src) noexcept {
  const DataTypeOps* ops = FindValueType(src.type);
  PMIX_RETURN_IF_ERROR(CheckStorable(ops));
  pmix_value_t v;
  std::memset(&v, 0, sizeof v);
  v.type = src.type;
  const void* element = ElementOf(*ops, src);
  if (ops->storage != ValueStorage::kEmpty && element != nullptr) {
    PMIX_RETURN_IF_ERROR(StoreElement(*ops, element, &v));
  }
  *dst = v;
  return Status();
}

void DestructValue(pmix_value_t* value) noexcept {
  const DataTypeOps* ops = FindValueType(value->type);
  if (ops != nullptr && ops->release != nullptr) {
    if (ops->storage == ValueStorage::kInline) {
      ops->release(&value->data);
    } else if (ops->storage == ValueStorage::kBoxed &&
               value->data.ptr != nullptr) {
      ops->release(value->data.ptr);
    }
  }
  if (ops != nullptr && ops->storage == ValueStorage::kBoxed) {
    std::free(value->data.ptr);
  }
  std::memset(value, 0, sizeof *value);
  value->type = PMIX_UNDEF;
}

Status UnloadValue(const pmix_value_t& value, void** data,
                   size_t* size) noexcept {
  const DataTypeOps* ops = FindValueType(value.type);
  if (ops == nullptr) return PMIX_ERR_UNKNOWN_DATA_TYPE;
  switch (ops->unload) {
    case UnloadMode::kNone:
      return ops->storage == ValueStorage::kEmpty ? PMIX_ERR_UNKNOWN_DATA_TYPE
                                                  : PMIX_ERR_NOT_SUPPORTED;
    case UnloadMode::kString: {
      char* copy = nullptr;
      if (!DupString(value.data.string, &copy)) return PMIX_ERR_NOMEM;
      *data = copy;
      *size = copy == nullptr ? 0 : std::strlen(copy);
      return Status();
    }
    case UnloadMode::kBytes:
      return UnloadBytes(value.data.bo, data, size);
    case UnloadMode::kPointer:
      *data = value.data.ptr;
      *size = sizeof(void*);
      return Status();
    default:
      return UnloadElement(*ops, ElementOf(*ops, value), data, size);
  }
}

pmix_value_cmp_t CompareValues(const pmix_value_t& a,
                               const pmix_value_t& b) noexcept {
  if (a.type != b.type) return PMIX_VALUE_TYPE_DIFFERENT;
  const DataTypeOps* ops = FindValueType(a.type);
  if (ops == nullptr) return PMIX_VALUE_COMPARISON_NOT_AVAIL;
  switch (ops->storage) {
    case ValueStorage::kEmpty:
      return PMIX_EQUAL;
    case ValueStorage::kNotStorable:
      return PMIX_VALUE_COMPARISON_NOT_AVAIL;
    case ValueStorage::kInline:
      return CompareElements(*ops, &a.data, &b.data);
    case ValueStorage::kBoxed:
      break;
  }
  if (a.data.ptr == nullptr || b.data.ptr == nullptr) {
    if (a.data.ptr == b.data.ptr) return PMIX_EQUAL;
    return a.data.ptr == nullptr ? PMIX_VALUE2_GREATER : PMIX_VALUE1_GREATER;
  }
  return CompareElements(*ops, a.data.ptr, b.data.ptr);
}

}  // namespace pmix
