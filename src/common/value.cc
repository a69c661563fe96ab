// The pmix_value_t API (standard §3.2.8): thin extern "C" shims over
// value_ops.h. Behaviour measured against OpenPMIx 4.2.2 is noted where it
// is not obvious; see value_ops.h and data_types.h for the contracts.
#include <cstdlib>
#include <cstring>

#include "pmix.h"
#include "src/common/api_guard.h"
#include "src/common/data_types.h"
#include "src/common/value_ops.h"

extern "C" {

pmix_status_t PMIx_Value_load(pmix_value_t* val, const void* data,
                              pmix_data_type_t type) {
  return pmix::ApiGuard("PMIx_Value_load", [&]() -> pmix::Status {
    if (val == nullptr) return PMIX_ERR_BAD_PARAM;
    return pmix::LoadValue(val, data, type);
  });
}

// OpenPMIx 4.2.2 copies scalars into a caller-provided buffer (*data must
// be non-NULL there, else PMIX_ERR_BAD_PARAM) while the standard says the
// library allocates; we copy into *data when given and allocate otherwise.
pmix_status_t PMIx_Value_unload(pmix_value_t* val, void** data, size_t* sz) {
  return pmix::ApiGuard("PMIx_Value_unload", [&]() -> pmix::Status {
    if (val == nullptr || data == nullptr || sz == nullptr) {
      return PMIX_ERR_BAD_PARAM;
    }
    return pmix::UnloadValue(*val, data, sz);
  });
}

pmix_status_t PMIx_Value_xfer(pmix_value_t* dest, const pmix_value_t* src) {
  return pmix::ApiGuard("PMIx_Value_xfer", [&]() -> pmix::Status {
    if (dest == nullptr || src == nullptr) return PMIX_ERR_BAD_PARAM;
    return pmix::CopyValue(dest, *src);
  });
}

void PMIx_Value_destruct(pmix_value_t* val) {
  if (val != nullptr) pmix::DestructValue(val);
}

pmix_value_cmp_t PMIx_Value_compare(pmix_value_t* v1, pmix_value_t* v2) {
  if (v1 == nullptr || v2 == nullptr) return PMIX_VALUE_COMPARISON_NOT_AVAIL;
  return pmix::CompareValues(*v1, *v2);
}

pmix_status_t PMIx_Value_get_number(const pmix_value_t* value, void* dest,
                                    pmix_data_type_t type) {
  return pmix::ApiGuard("PMIx_Value_get_number", [&]() -> pmix::Status {
    if (value == nullptr || dest == nullptr) return PMIX_ERR_BAD_PARAM;
    return pmix::GetNumber(*value, dest, type);
  });
}

void PMIx_Value_construct(pmix_value_t* val) {
  if (val == nullptr) return;
  std::memset(val, 0, sizeof *val);
  val->type = PMIX_UNDEF;
}

pmix_value_t* PMIx_Value_create(size_t n) {
  return static_cast<pmix_value_t*>(pmix::CreateArray(PMIX_VALUE, n));
}

void PMIx_Value_free(pmix_value_t* v, size_t n) {
  pmix::FreeArray(PMIX_VALUE, v, n);
}

}  // extern "C"
