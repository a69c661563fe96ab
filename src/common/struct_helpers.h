// One-line bodies for the construct/destruct/create/free support functions
// of the standard's structs (PMIx_Proc_create, PMIx_Envar_free, ...): each
// goes through the data-type registry, so every struct has exactly one
// definition of what it owns.
//
// Semantics (support_functions contract): Construct sets defaults; Destruct
// releases everything the struct owns and re-constructs it; Create callocs
// and constructs n elements (NULL when n == 0 or on allocation failure);
// Free destructs n elements and frees the array. All are NULL-safe.
#ifndef PMIXX_SRC_COMMON_STRUCT_HELPERS_H
#define PMIXX_SRC_COMMON_STRUCT_HELPERS_H

#include <cstddef>

#include "pmix_common.h"
#include "src/common/data_types.h"

namespace pmix {

template <pmix_data_type_t kType, class T>
void ConstructStruct(T* p) noexcept {
  if (p != nullptr) ConstructElement(*FindDataType(kType), p);
}

template <pmix_data_type_t kType, class T>
void DestructStruct(T* p) noexcept {
  if (p != nullptr) DestructElement(*FindDataType(kType), p);
}

template <pmix_data_type_t kType, class T>
T* CreateStructs(size_t n) noexcept {
  return static_cast<T*>(CreateArray(kType, n));
}

template <pmix_data_type_t kType, class T>
void FreeStructs(T* p, size_t n) noexcept {
  FreeArray(kType, p, n);
}

// Destructs one heap-allocated struct and frees it.
template <pmix_data_type_t kType, class T>
void ReleaseStruct(T* p) noexcept {
  FreeArray(kType, p, p == nullptr ? 0 : 1);
}

}  // namespace pmix

#endif  // PMIXX_SRC_COMMON_STRUCT_HELPERS_H
