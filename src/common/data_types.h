// The data-type registry: one row per pmix_data_type_t that says how an
// element of that type is laid out, constructed, deep-copied, destructed and
// compared, and how a pmix_value_t holds it.
//
// Every copy and free of PMIx container data in the library goes through
// here (values, infos, data arrays of any element type, the structs of the
// standard), and so will the bfrops codec: it may rely on this contract.
//
// Terms:
//   element   one object of a type as it sits in pmix_data_array_t.array
//             (e.g. a pmix_proc_t for PMIX_PROC, a char* for PMIX_STRING,
//             a pmix_data_array_t for PMIX_DATA_ARRAY).
//   raw       storage of element_size bytes whose contents are ignored.
//   constructed  an element holding no resources, with the type's defaults
//             (zero, except: proc ranks PMIX_RANK_UNDEF, device distances
//             UINT16_MAX, ...). Destructing a constructed element is a no-op.
//
// Ownership: copies are deep and malloc-family allocated (callers release
// them with free() or the standard's macros). Exceptions:
//   PMIX_POINTER   the pointer is copied, never the object it points to;
//   PMIX_INFO      an info flagged PMIX_INFO_PERSISTENT does not own its
//                  value: copying it copies the value shallowly and
//                  destructing it leaves the value alone;
//   PMIX_TOPO / PMIX_PROC_CPUSET  the object is an hwloc topology / bitmap
//                  when `source` starts with "hwloc" (case-insensitive):
//                  copied with hwloc_topology_dup / hwloc_bitmap_dup and
//                  released with hwloc; the `source` string is owned. Any
//                  other non-NULL object cannot be copied
//                  (PMIX_ERR_NOT_SUPPORTED) and is never released.
//
// Failure: every function either succeeds or leaves its output untouched
// (or, where stated, constructed) and leaks nothing (partial copies are
// rolled back). Status codes: PMIX_ERR_UNKNOWN_DATA_TYPE for codes not in
// the table, PMIX_ERR_NOT_SUPPORTED for known types without element
// storage (PMIX_KVAL, PMIX_UNDEF arrays), PMIX_ERR_BAD_PARAM for malformed
// input (a NULL array with a nonzero count anywhere in the tree),
// PMIX_ERR_NOMEM when allocation fails.
//
// Thread safety: stateless; the table is immutable.
#ifndef PMIXX_SRC_COMMON_DATA_TYPES_H
#define PMIXX_SRC_COMMON_DATA_TYPES_H

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "pmix_common.h"
#include "src/common/status.h"

namespace pmix {

// How a pmix_value_t stores a value of the type.
enum class ValueStorage : uint8_t {
  kEmpty,        // PMIX_UNDEF: nothing stored
  kInline,       // the element itself sits in value.data (scalars, strings,
                 // byte objects, envars, pointers)
  kBoxed,        // value.data.ptr points to one malloc'd element (or NULL)
  kNotStorable,  // no pmix_value_t member exists (PMIX_INFO, PMIX_VALUE,
                 // PMIX_APP, PMIX_PDATA, PMIX_QUERY, PMIX_KVAL)
};

// What PMIx_Value_load expects `data` to point at.
enum class LoadInput : uint8_t {
  kElement,    // a pointer to one element (the common case)
  kItself,     // the element value itself: the char* of PMIX_STRING, the
               // void* of PMIX_POINTER
  kRegexText,  // a NUL-terminated regex; stored as a byte object holding
               // the text and its NUL
};

// What PMIx_Value_unload hands back (measured on OpenPMIx 4.2.2).
enum class UnloadMode : uint8_t {
  kNone,        // PMIX_UNDEF / not storable: an error
  kIntoBuffer,  // copied into the caller's buffer *data when it is
                // non-NULL, else into a malloc'd one; size = element size
  kNewCopy,     // *data = malloc'd deep copy of the element
  kString,      // *data = strdup, size = strlen
  kBytes,       // *data = malloc'd copy of the bytes, size = byte count
  kPointer,     // *data = the stored pointer itself, size = sizeof(void*)
  kNspace,      // as kIntoBuffer (sizeof(pmix_nspace_t) bytes) but
                // size = strlen of the namespace
};

struct DataTypeOps {
  pmix_data_type_t type;
  size_t element_size;  // 0: cannot be an element
  ValueStorage storage;
  LoadInput load_input;
  UnloadMode unload;
  // NULL members mean: construct = zero-fill; copy = memcpy of
  // element_size bytes; destruct = reset to constructed; compare =
  // PMIX_VALUE_COMPARISON_NOT_AVAIL.
  void (*construct)(void* element);
  // `dst` is zero-filled raw storage on entry. On failure it may hold a
  // partial copy; the caller destructs it.
  Status (*copy)(void* dst, const void* src);
  // Releases what the element owns; the caller re-constructs it.
  void (*release)(void* element);
  pmix_value_cmp_t (*compare)(const void* a, const void* b);
};

// The row for `type`, or nullptr for a code outside the table.
const DataTypeOps* FindDataType(pmix_data_type_t type) noexcept;

// The row describing how a pmix_value_t holds `type`: the same as
// FindDataType except for PMIX_REGEX, which is a char* as an element but a
// byte object inside a value.
const DataTypeOps* FindValueType(pmix_data_type_t type) noexcept;

// Bytes per element, 0 for unknown or element-less types.
size_t ElementSize(pmix_data_type_t type) noexcept;

// --- single elements ---------------------------------------------------

// Constructs the element at `element` (raw storage of ElementSize bytes).
void ConstructElement(const DataTypeOps& ops, void* element) noexcept;

// Deep-copies one element into raw storage `dst`. On failure `dst` is left
// constructed.
Status CopyElement(const DataTypeOps& ops, void* dst, const void* src) noexcept;

// Releases everything the element owns and re-constructs it.
void DestructElement(const DataTypeOps& ops, void* element) noexcept;

// Orders two elements (PMIx_Value_compare semantics).
pmix_value_cmp_t CompareElements(const DataTypeOps& ops, const void* a,
                                 const void* b) noexcept;

// --- arrays of elements ------------------------------------------------

// calloc's `n` elements of `type` and constructs them. nullptr when n == 0,
// the type has no element storage, or allocation fails.
void* CreateArray(pmix_data_type_t type, size_t n) noexcept;

// Deep-copies `n` elements into a new malloc'd array stored in *out
// (nullptr when n == 0). *out is written only on success.
Status CopyArray(pmix_data_type_t type, const void* src, size_t n,
                 void** out) noexcept;

// Destructs `n` elements and frees the array. NULL-safe; an unknown type
// only frees the array.
void FreeArray(pmix_data_type_t type, void* array, size_t n) noexcept;

// --- pmix_data_array_t -------------------------------------------------

// Deep-copies `src` into raw storage `*dst` (written only on success).
Status CopyDataArray(pmix_data_array_t* dst,
                     const pmix_data_array_t& src) noexcept;

// Frees the elements and resets `*d` to {PMIX_UNDEF, 0, NULL}.
void DestructDataArray(pmix_data_array_t* d) noexcept;

// --- helpers shared by the element operations --------------------------

// strdup that maps NULL to NULL. Returns false on allocation failure.
bool DupString(const char* src, char** out) noexcept;

// Copies a NULL-terminated argv (NULL stays NULL).
bool DupArgv(char** src, char*** out) noexcept;

// Frees a NULL-terminated argv (NULL-safe).
void FreeArgv(char** argv) noexcept;

// Copies at most `max_len` chars of `src` (NULL = "") into `dst` and
// zero-fills it up to and including dst[max_len]: the semantics of
// PMIX_LOAD_KEY / PMIX_LOAD_NSPACE for buffers of max_len + 1 chars.
void CopyBounded(char* dst, const char* src, size_t max_len) noexcept;

// Three-way helpers returning pmix_value_cmp_t.
pmix_value_cmp_t CompareStrings(const char* a, const char* b) noexcept;
pmix_value_cmp_t CompareBytes(const char* a, size_t na, const char* b,
                              size_t nb) noexcept;
// The first result that is not PMIX_EQUAL (all are evaluated).
pmix_value_cmp_t FirstDifference(
    std::initializer_list<pmix_value_cmp_t> results) noexcept;
template <class T>
constexpr pmix_value_cmp_t CompareNumbers(T a, T b) noexcept {
  if (a == b) return PMIX_EQUAL;
  return a > b ? PMIX_VALUE1_GREATER : PMIX_VALUE2_GREATER;
}

}  // namespace pmix

#endif  // PMIXX_SRC_COMMON_DATA_TYPES_H
