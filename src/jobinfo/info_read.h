// Reading the values of registration infos: keys, numbers, text, nested
// info arrays. Every reader validates and returns PMIX_ERR_BAD_PARAM for a
// value it cannot read; nothing here allocates caller-visible memory.
#ifndef PMIXX_SRC_JOBINFO_INFO_READ_H
#define PMIXX_SRC_JOBINFO_INFO_READ_H

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmix_common.h"
#include "src/common/status.h"
#include "src/common/text.h"

namespace pmix::jobinfo {

// Borrowed pointers into the caller's infos (valid for one Ingest call).
using InfoRefs = std::vector<const pmix_info_t*>;

// The key as a view; empty when the key is empty or not NUL-terminated
// within PMIX_MAX_KEYLEN + 1 bytes.
std::string_view KeyOf(const pmix_info_t& info);

bool KeyIs(const pmix_info_t& info, const char* key);

// The key is well formed and the value's type is one the library can copy.
Status CheckEntry(const pmix_info_t& info);

// An integer value of any integer type that fits a uint32 / a rank below
// PMIX_RANK_VALID (floats, bools and other types are rejected).
Result<uint32_t> ReadUint32(const pmix_value_t& value);
Result<pmix_rank_t> ReadRank(const pmix_value_t& value);

// A PMIX_STRING (non-NULL) or PMIX_REGEX (its text, up to the first NUL).
Result<std::string_view> ReadText(const pmix_value_t& value);

// The elements of a PMIX_DATA_ARRAY of PMIX_INFO (a NULL data array, or a
// NULL array with a nonzero size, is an error; size 0 is an empty span).
Result<std::span<const pmix_info_t>> ReadInfoArray(const pmix_value_t& value);

// The first info in `infos` whose key is `key`, or nullptr.
const pmix_info_t* FindKey(std::span<const pmix_info_t> infos, const char* key);

// Comma-separated decimal ranks ("0,1,5"); empty fields are skipped.
// Anything else is an error.
Result<std::vector<pmix_rank_t>> ParseRankList(std::string_view text);

// Logs why a registration is rejected (once, where it is decided) and
// returns PMIX_ERR_BAD_PARAM.
Status Reject(std::string_view what, std::string_view key);

using pmix::SplitCommas;  // src/common/text.h

}  // namespace pmix::jobinfo

#endif  // PMIXX_SRC_JOBINFO_INFO_READ_H
