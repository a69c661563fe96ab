// PMIx_Data_compress / PMIx_Data_decompress (standard §3.4.x).
//
// Measured on OpenPMIx 4.2.2: outputs are set to NULL/0 whenever the call
// returns false, and we do the same, so a caller may free(*outbytes)
// unconditionally. Differences: there, compress with a NULL input returns
// true without writing the outputs; here a NULL input with size 0 is an
// empty input (a valid block comes back), and with size > 0 it is refused.
// The pcompress_base_limit threshold does not apply: an explicit call
// always compresses.
#include "pmix.h"

#include "mca/pcompress/base/pcompress_base.h"
#include "src/common/api_guard.h"

namespace {

using ModuleFn = bool (*)(const uint8_t*, size_t, uint8_t**, size_t*);

bool Transform(const char* api, bool compress, const uint8_t* in, size_t size,
               uint8_t** out, size_t* outlen) {
  return pmix::ApiGuardValue(api, false, [&] {
    if (out == nullptr || outlen == nullptr) return false;
    *out = nullptr;
    *outlen = 0;
    if (in == nullptr && (size != 0 || !compress)) return false;
    auto module = pmix::pcompress::SelectedModule();
    if (!module.ok()) return false;
    ModuleFn fn = compress ? (*module)->compress : (*module)->decompress;
    return fn(in, size, out, outlen);
  });
}

}  // namespace

extern "C" {

bool PMIx_Data_compress(const uint8_t* inbytes, size_t size, uint8_t** outbytes,
                        size_t* nbytes) {
  return Transform("PMIx_Data_compress", true, inbytes, size, outbytes, nbytes);
}

bool PMIx_Data_decompress(const uint8_t* inbytes, size_t size, uint8_t** outbytes,
                          size_t* nbytes) {
  return Transform("PMIx_Data_decompress", false, inbytes, size, outbytes, nbytes);
}

}  // extern "C"
