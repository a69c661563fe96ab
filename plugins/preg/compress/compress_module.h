// preg/compress: the input zlib-compressed through the public
// PMIx_Data_compress (so the selected pcompress module's block format),
// base64-encoded (RFC 4648, standard alphabet, '=' padding) so the result
// stays a C string, behind the prefix "blob:".
//
//   "node001,...,node100" -> "blob:UE1aMQ..."
//
// Handles every input, including names with '*', '[' or ']': base64 output
// never contains '*'. Generating declines (PMIX_ERR_NOT_SUPPORTED) when
// PMIx_Data_compress fails (no pcompress module). Parsing declines a string
// without the prefix and answers PMIX_ERR_BAD_PARAM for one with the prefix
// that is not valid base64, does not decompress, or holds a NUL byte; it
// then splits on ',' (nodes) or ';' (ppn) keeping empty fields.
#ifndef PMIXX_PLUGINS_PREG_COMPRESS_COMPRESS_MODULE_H
#define PMIXX_PLUGINS_PREG_COMPRESS_COMPRESS_MODULE_H

#include <optional>
#include <string>
#include <string_view>

#include "pmix/mca/preg.h"

namespace pmix::preg::compress {

extern const pmix_preg_module_t kModule;

// RFC 4648 base64; Decode returns nullopt for anything but canonical input
// (length a multiple of 4, alphabet only, padding only at the end).
std::string Base64Encode(std::string_view bytes);
std::optional<std::string> Base64Decode(std::string_view text);

}  // namespace pmix::preg::compress

#endif  // PMIXX_PLUGINS_PREG_COMPRESS_COMPRESS_MODULE_H
