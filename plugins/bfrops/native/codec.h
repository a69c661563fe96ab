// The per-type element codecs of the native codec, and the helpers the
// codec files share. Internal to the component.
//
// Element contract:
//   pack(w, element)   appends the element's encoding; fails without
//                      meaning (the caller drops the whole Writer).
//   unpack(r, element) `element` is constructed storage (as made by
//                      PMIx_Data_array_construct). On failure it may hold
//                      a partial result, but always one that
//                      PMIx_Data_array_destruct releases completely.
#ifndef PMIXX_PLUGINS_BFROPS_NATIVE_CODEC_H
#define PMIXX_PLUGINS_BFROPS_NATIVE_CODEC_H

#include <cstddef>

#include "pmix_common.h"
#include "plugins/bfrops/native/wire.h"

namespace pmix::bfrops::native {

struct TypeCodec {
  pmix_data_type_t type;
  size_t element_size;  // sizeof the C element
  size_t min_wire;      // fewest bytes one element takes on the wire (>= 1)
  pmix_status_t (*pack)(Writer& w, const void* element);
  pmix_status_t (*unpack)(Reader& r, void* element);
  // The element owns no memory (integers, procs): one may be unpacked
  // into plain storage and copied, with nothing to release on failure.
  bool plain = false;
};

// The codec of `type`, or nullptr when the type is unknown or cannot be
// packed (PMIX_UNDEF, PMIX_KVAL, PMIX_POINTER: see RefusalFor).
const TypeCodec* FindCodec(pmix_data_type_t type);
// The codec of a pmix_value_t's payload of `type` (differs for PMIX_REGEX,
// a byte object inside a value).
const TypeCodec* FindValueCodec(pmix_data_type_t type);
const TypeCodec* RegexValueCodec();

// Why `type` has no codec: PMIX_ERR_NOT_SUPPORTED for PMIX_POINTER and
// PMIX_KVAL, PMIX_ERR_UNKNOWN_DATA_TYPE otherwise.
pmix_status_t RefusalFor(pmix_data_type_t type);

// n elements of `codec` at `array` (NULL only when n == 0).
pmix_status_t PackElements(Writer& w, const TypeCodec& codec, const void* array,
                           size_t n);

// Builds a new array of n elements (n already bounds-checked by the
// caller or checked here) into *out: NULL when n == 0; nothing is left
// allocated on failure and *out is only written on success.
pmix_status_t UnpackElements(Reader& r, const TypeCodec& codec, size_t n, void** out);

// Array field helpers: u32 count + elements, for (pointer, count) fields.
pmix_status_t PackArrayField(Writer& w, pmix_data_type_t type, const void* array,
                             size_t n);
pmix_status_t UnpackArrayField(Reader& r, pmix_data_type_t type, void** array,
                               size_t* n);

// Strings and argv (codec_strings.cc).
pmix_status_t PackArgv(Writer& w, char** argv);
pmix_status_t UnpackArgv(Reader& r, char*** out);
pmix_status_t PackBytes(Writer& w, const pmix_byte_object_t& bo);
pmix_status_t UnpackBytes(Reader& r, pmix_byte_object_t* bo);
pmix_status_t PackProc(Writer& w, const pmix_proc_t& p);
pmix_status_t UnpackProc(Reader& r, pmix_proc_t* p);
pmix_status_t PackTimeval(Writer& w, const struct timeval& tv);
pmix_status_t UnpackTimeval(Reader& r, struct timeval* tv);
pmix_status_t PackFloat(Writer& w, float f);
pmix_status_t UnpackFloat(Reader& r, float* f);

// Table rows defined per file (each returns its rows and their count).
const TypeCodec* ScalarCodecs(size_t* n);     // codec_scalars.cc
const TypeCodec* StringCodecs(size_t* n);     // codec_strings.cc
const TypeCodec* StructCodecs(size_t* n);     // codec_structs.cc
const TypeCodec* ContainerCodecs(size_t* n);  // codec_containers.cc
const TypeCodec* StatsCodecs(size_t* n);      // codec_stats.cc
const TypeCodec* HwlocCodecs(size_t* n);      // codec_hwloc.cc

// Reinterprets element storage as T.
template <class T>
T& As(void* p) {
  return *static_cast<T*>(p);
}
template <class T>
const T& As(const void* p) {
  return *static_cast<const T*>(p);
}

}  // namespace pmix::bfrops::native

#endif  // PMIXX_PLUGINS_BFROPS_NATIVE_CODEC_H
