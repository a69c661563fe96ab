#include "src/jobinfo/info_read.h"

#include <charconv>
#include <cstring>

#include "src/common/data_types.h"
#include "src/common/output.h"
#include "src/common/value_ops.h"

namespace pmix::jobinfo {
namespace {

// Hosts pass counts and ids as any integer width (Slurm: PMIX_INT ranks
// and app numbers); other numeric types would need rounding, so no.
bool IsInteger(pmix_data_type_t type) {
  switch (type) {
    case PMIX_SIZE:
    case PMIX_INT:
    case PMIX_INT8:
    case PMIX_INT16:
    case PMIX_INT32:
    case PMIX_INT64:
    case PMIX_UINT:
    case PMIX_UINT8:
    case PMIX_UINT16:
    case PMIX_UINT32:
    case PMIX_UINT64:
    case PMIX_PROC_RANK:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string_view KeyOf(const pmix_info_t& info) {
  const void* end = std::memchr(info.key, '\0', sizeof(info.key));
  if (end == nullptr) return {};
  return std::string_view(info.key, static_cast<const char*>(end) - info.key);
}

bool KeyIs(const pmix_info_t& info, const char* key) {
  // One pass; an unterminated info.key differs from key at key's NUL.
  return std::strncmp(info.key, key, sizeof(info.key)) == 0;
}

Status CheckEntry(const pmix_info_t& info) {
  if (KeyOf(info).empty()) return PMIX_ERR_BAD_PARAM;
  if (FindValueType(info.value.type) == nullptr) return PMIX_ERR_BAD_PARAM;
  return Status();
}

Result<uint32_t> ReadUint32(const pmix_value_t& value) {
  uint32_t out = 0;
  if (!IsInteger(value.type)) return Status(PMIX_ERR_BAD_PARAM);
  PMIX_RETURN_IF_ERROR(GetNumber(value, &out, PMIX_UINT32));
  return out;
}

Result<pmix_rank_t> ReadRank(const pmix_value_t& value) {
  Result<uint32_t> rank = ReadUint32(value);
  if (!rank.ok() || !PMIX_RANK_IS_VALID(*rank)) return Status(PMIX_ERR_BAD_PARAM);
  return *rank;
}

Result<std::string_view> ReadText(const pmix_value_t& value) {
  if (value.type == PMIX_STRING) {
    if (value.data.string == nullptr) return Status(PMIX_ERR_BAD_PARAM);
    return std::string_view(value.data.string);
  }
  if (value.type == PMIX_REGEX) {
    const pmix_byte_object_t& bo = value.data.bo;
    if (bo.bytes == nullptr)
      return bo.size == 0 ? Result<std::string_view>(std::string_view())
                          : Status(PMIX_ERR_BAD_PARAM);
    const void* nul = std::memchr(bo.bytes, '\0', bo.size);
    size_t len = nul ? static_cast<const char*>(nul) - bo.bytes : bo.size;
    return std::string_view(bo.bytes, len);
  }
  return Status(PMIX_ERR_BAD_PARAM);
}

Result<std::span<const pmix_info_t>> ReadInfoArray(const pmix_value_t& value) {
  if (value.type != PMIX_DATA_ARRAY) return Status(PMIX_ERR_BAD_PARAM);
  const pmix_data_array_t* array = value.data.darray;
  if (array == nullptr || array->type != PMIX_INFO) return Status(PMIX_ERR_BAD_PARAM);
  if (array->size == 0) return std::span<const pmix_info_t>();
  if (array->array == nullptr) return Status(PMIX_ERR_BAD_PARAM);
  return std::span<const pmix_info_t>(static_cast<const pmix_info_t*>(array->array), array->size);
}

const pmix_info_t* FindKey(std::span<const pmix_info_t> infos, const char* key) {
  for (const pmix_info_t& info : infos) {
    if (KeyIs(info, key)) return &info;
  }
  return nullptr;
}

Result<std::vector<pmix_rank_t>> ParseRankList(std::string_view text) {
  std::vector<pmix_rank_t> ranks;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view item = text.substr(pos, comma - pos);
    if (!item.empty()) {
      pmix_rank_t rank = 0;
      auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), rank);
      if (ec != std::errc() || end != item.data() + item.size() || !PMIX_RANK_IS_VALID(rank)) {
        return Status(PMIX_ERR_BAD_PARAM);
      }
      ranks.push_back(rank);
    }
    pos = comma + 1;
  }
  return ranks;
}

Status Reject(std::string_view what, std::string_view key) {
  output::Error("jobinfo", "bad registration: %.*s (key \"%.*s\")", static_cast<int>(what.size()),
                what.data(), static_cast<int>(key.size()), key.data());
  return PMIX_ERR_BAD_PARAM;
}


}  // namespace pmix::jobinfo
