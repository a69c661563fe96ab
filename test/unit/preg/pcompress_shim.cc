// For the module-level preg tests, which compile the components into the
// test binary without libpmix: the two public calls the compress component
// makes, served straight by the zlib module.
#include "pmix.h"
#include "plugins/pcompress/zlib/zlib_module.h"

extern "C" {

bool PMIx_Data_compress(const uint8_t* inbytes, size_t size, uint8_t** outbytes,
                        size_t* nbytes) {
  return pmix::pcompress::zlib::kModule.compress(inbytes, size, outbytes, nbytes);
}

bool PMIx_Data_decompress(const uint8_t* inbytes, size_t size, uint8_t** outbytes,
                          size_t* nbytes) {
  return pmix::pcompress::zlib::kModule.decompress(inbytes, size, outbytes, nbytes);
}

}  // extern "C"
