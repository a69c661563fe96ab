// Operations on pmix_value_t, built on the data-type registry. These are
// the internal forms of PMIx_Value_load/unload/xfer/destruct/compare; the
// extern "C" shims in value.cc only validate arguments and call them.
//
// A destination value is raw storage: its previous contents are neither
// read nor released (callers commonly pass uninitialised structs), and it
// is written only on success. Status codes: PMIX_ERR_UNKNOWN_DATA_TYPE for
// codes outside the registry, PMIX_ERR_NOT_SUPPORTED for types a value
// cannot hold (PMIX_INFO, PMIX_VALUE, PMIX_APP, PMIX_PDATA, PMIX_QUERY,
// PMIX_KVAL: put those in a pmix_data_array_t), PMIX_ERR_BAD_PARAM for
// malformed input, PMIX_ERR_NOMEM.
//
// Thread safety: stateless; concurrent calls on distinct values are safe.
#ifndef PMIXX_SRC_COMMON_VALUE_OPS_H
#define PMIXX_SRC_COMMON_VALUE_OPS_H

#include <cstddef>

#include "pmix_common.h"
#include "src/common/status.h"

namespace pmix {

// Loads a copy of `data` (interpreted per `type`, see LoadInput in
// data_types.h) into *dst. data == NULL loads the type's zero value,
// except that a PMIX_BOOL becomes true (a bare key means "true").
Status LoadValue(pmix_value_t* dst, const void* data,
                 pmix_data_type_t type) noexcept;

// Deep-copies `src` into *dst.
Status CopyValue(pmix_value_t* dst, const pmix_value_t& src) noexcept;

// Releases what the value owns and resets it to PMIX_UNDEF. Values of
// unknown types are only reset.
void DestructValue(pmix_value_t* value) noexcept;

// PMIx_Value_unload: see UnloadMode in data_types.h. *data and *size are
// written only on success. A NULL string, empty byte object or NULL boxed
// pointer unloads as *data = NULL, *size = 0.
Status UnloadValue(const pmix_value_t& value, void** data,
                   size_t* size) noexcept;

// PMIx_Value_compare: PMIX_VALUE_TYPE_DIFFERENT for different types, else
// the registry's order for the type.
pmix_value_cmp_t CompareValues(const pmix_value_t& a,
                               const pmix_value_t& b) noexcept;

// PMIx_Value_get_number (OpenPMIx 5 semantics): writes the number held by
// `value` to `dest` as the C type of numeric `type` when it fits exactly
// (floats truncate toward zero). Numeric: the plain integer/float widths
// and the named integer types (pid, status, rank, scope, states, ...); a
// named type never converts to a different named type. Otherwise
// PMIX_ERR_BAD_PARAM and *dest is untouched (value_number.cc).
Status GetNumber(const pmix_value_t& value, void* dest,
                 pmix_data_type_t type) noexcept;

}  // namespace pmix

#endif  // PMIXX_SRC_COMMON_VALUE_OPS_H
