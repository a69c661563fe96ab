// The type -> codec index and the array helpers every codec file uses.
#include <array>
#include <cstdlib>
#include <cstring>

#include "plugins/bfrops/native/codec.h"

namespace pmix::bfrops::native {
namespace {

constexpr size_t kIndexSize = 256;
using Index = std::array<const TypeCodec*, kIndexSize>;

Index BuildIndex() {
  Index index{};
  for (auto rows : {&ScalarCodecs, &StringCodecs, &StructCodecs, &ContainerCodecs,
                    &StatsCodecs, &HwlocCodecs}) {
    size_t n = 0;
    const TypeCodec* table = rows(&n);
    for (size_t i = 0; i < n; ++i) index[table[i].type] = &table[i];
  }
  return index;
}

}  // namespace

const TypeCodec* FindCodec(pmix_data_type_t type) {
  static const Index index = BuildIndex();  // thread-safe static init
  return type < kIndexSize ? index[type] : nullptr;
}

const TypeCodec* FindValueCodec(pmix_data_type_t type) {
  return type == PMIX_REGEX ? RegexValueCodec() : FindCodec(type);
}

pmix_status_t RefusalFor(pmix_data_type_t type) {
  return type == PMIX_POINTER || type == PMIX_KVAL ? PMIX_ERR_NOT_SUPPORTED
                                                   : PMIX_ERR_UNKNOWN_DATA_TYPE;
}

pmix_status_t PackElements(Writer& w, const TypeCodec& codec, const void* array,
                           size_t n) {
  if (array == nullptr && n > 0) return PMIX_ERR_BAD_PARAM;
  const char* p = static_cast<const char*>(array);
  for (size_t i = 0; i < n; ++i) NATIVE_TRY(codec.pack(w, p + i * codec.element_size));
  return PMIX_SUCCESS;
}

pmix_status_t UnpackElements(Reader& r, const TypeCodec& codec, size_t n, void** out) {
  if (n == 0) {
    *out = nullptr;
    return PMIX_SUCCESS;
  }
  if (n > r.left() / codec.min_wire) return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
  NATIVE_TRY(r.ChargeArray(n, codec.element_size));
  pmix_data_array_t tmp;
  PMIx_Data_array_construct(&tmp, n, codec.type);
  if (tmp.array == nullptr) return PMIX_ERR_NOMEM;
  char* p = static_cast<char*>(tmp.array);
  for (size_t i = 0; i < n; ++i) {
    pmix_status_t rc = codec.unpack(r, p + i * codec.element_size);
    if (rc != PMIX_SUCCESS) {
      PMIx_Data_array_destruct(&tmp);
      return rc;
    }
  }
  *out = tmp.array;
  return PMIX_SUCCESS;
}

pmix_status_t PackArrayField(Writer& w, pmix_data_type_t type, const void* array,
                             size_t n) {
  const TypeCodec* codec = FindCodec(type);
  if (n > 0 && codec == nullptr) return RefusalFor(type);
  NATIVE_TRY(w.Count(n));
  return n == 0 ? PMIX_SUCCESS : PackElements(w, *codec, array, n);
}

pmix_status_t UnpackArrayField(Reader& r, pmix_data_type_t type, void** array,
                               size_t* n) {
  const TypeCodec* codec = FindCodec(type);
  size_t count = 0;
  NATIVE_TRY(r.Count(codec->min_wire, &count));
  NATIVE_TRY(UnpackElements(r, *codec, count, array));
  *n = count;
  return PMIX_SUCCESS;
}

}  // namespace pmix::bfrops::native
