// pcompress/zlib: the zlib (RFC 1950) implementation of the pcompress
// module interface (include/pmix/mca/pcompress.h).
//
// Block format produced by compress and required by decompress:
//
//   offset  size  contents
//   0       4     magic "PMZ1" (format version 1)
//   4       8     uncompressed size, unsigned, little-endian
//   12      ...   one complete zlib stream (RFC 1950: deflate + Adler-32)
//
// decompress refuses (false, nothing allocated) a block that is shorter
// than the header, has another magic, claims more than the max_size limit
// or more than deflate can expand its payload to (~1032:1, so a tiny block
// cannot make us allocate a huge buffer), or whose stream does not inflate
// to exactly the recorded size with every input byte consumed and the
// checksum verified. An empty input compresses to a valid block and
// decompresses to a 1-byte allocation with *outlen == 0.
//
// Thread-safe: the functions keep no state besides the two limits, which
// open() sets once before any module function is reachable.
#ifndef PMIXX_PLUGINS_PCOMPRESS_ZLIB_ZLIB_MODULE_H
#define PMIXX_PLUGINS_PCOMPRESS_ZLIB_ZLIB_MODULE_H

#include <cstddef>

#include "pmix/mca/pcompress.h"

namespace pmix::pcompress::zlib {

inline constexpr size_t kHeaderSize = 12;
inline constexpr char kMagic[4] = {'P', 'M', 'Z', '1'};

// The module struct handed out by query().
extern const pmix_pcompress_module_t kModule;

// Configuration from the component's parameters (see component.cc).
// max_size bounds both what compress accepts and what decompress produces;
// level is a zlib level, -1 (zlib's default) or 0..9.
void Configure(size_t max_size, int level);

}  // namespace pmix::pcompress::zlib

#endif  // PMIXX_PLUGINS_PCOMPRESS_ZLIB_ZLIB_MODULE_H
