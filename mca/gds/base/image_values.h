// How an image (image_format.h) stores a value: an 8-byte head
// {uint16 type, uint16 encoding, uint32 length} and `length` payload bytes,
// the next value starting at the following multiple of 4.
//   kRaw    fixed-size scalars (bool, byte, int/uint of every width, size,
//           pid, float, double, rank, status, data type, scope...): their C
//           representation; strings: the characters and a NUL (length 0:
//           a NULL string, kept apart from "").
//   kCodec  anything else: the value packed as PMIX_VALUE by the image's
//           bfrops codec.
// Decoding checks the head and length against the section's bounds.
#ifndef PMIXX_MCA_GDS_BASE_IMAGE_VALUES_H
#define PMIXX_MCA_GDS_BASE_IMAGE_VALUES_H

#include <cstdint>
#include <span>
#include <string>

#include "pmix/mca/bfrops.h"
#include "pmix_common.h"
#include "src/common/status.h"

namespace pmix::gds::image {

enum Encoding : uint16_t { kRaw = 0, kCodec = 1 };

// Appends value's encoding (padded) to out. PMIX_ERR_BAD_PARAM for a
// value the codec cannot pack (or a non-raw type and no codec).
Status EncodeValue(const pmix_value_t& value, const pmix_bfrops_module_t* codec, std::string& out);

// Decodes the value at offset `ref` of `values` into *out (a zeroed or
// destructed value, filled only on success: owned by the caller, release
// with PMIx_Value_destruct). PMIX_ERR_UNPACK_FAILURE for a head or length
// outside values or a payload that does not decode.
Status DecodeValue(std::span<const uint8_t> values, uint32_t ref,
                   const pmix_bfrops_module_t* codec, pmix_value_t* out);

}  // namespace pmix::gds::image

#endif  // PMIXX_MCA_GDS_BASE_IMAGE_VALUES_H
