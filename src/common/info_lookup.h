// Reading directives: find an info by key in an array and read its value
// as the type the caller expects. Every reader returns nullopt when the
// info is absent or its value cannot be read as that type (no conversion
// beyond what PMIx_Value_get_number allows for numbers).
#ifndef PMIXX_SRC_COMMON_INFO_LOOKUP_H
#define PMIXX_SRC_COMMON_INFO_LOOKUP_H

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "pmix_common.h"

namespace pmix {

// The first info whose key equals key (PMIX_CHECK_KEY), or nullptr.
const pmix_info_t* FindInfo(std::span<const pmix_info_t> info, const char* key);

// A boolean directive: absent -> nullopt; present -> PMIx_Info_true (a
// PMIX_UNDEF value counts as true, as OpenPMIx reads it).
std::optional<bool> InfoBool(std::span<const pmix_info_t> info, const char* key);
// True when the key is present and reads as true.
inline bool InfoFlag(std::span<const pmix_info_t> info, const char* key) {
  return InfoBool(info, key).value_or(false);
}
std::optional<std::string> InfoString(std::span<const pmix_info_t> info, const char* key);
std::optional<int64_t> InfoInt(std::span<const pmix_info_t> info, const char* key);
std::optional<uint32_t> InfoU32(std::span<const pmix_info_t> info, const char* key);

// info/ninfo as a span (a NULL array is empty).
inline std::span<const pmix_info_t> InfoSpan(const pmix_info_t* info, size_t ninfo) {
  return info == nullptr ? std::span<const pmix_info_t>() : std::span<const pmix_info_t>(info, ninfo);
}

}  // namespace pmix

#endif  // PMIXX_SRC_COMMON_INFO_LOOKUP_H
