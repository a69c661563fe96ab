#include "src/common/info_lookup.h"

#include <cstring>

#include "pmix.h"

namespace pmix {

const pmix_info_t* FindInfo(std::span<const pmix_info_t> info, const char* key) {
  for (const auto& i : info) {
    if (std::strncmp(i.key, key, PMIX_MAX_KEYLEN) == 0) return &i;
  }
  return nullptr;
}

std::optional<bool> InfoBool(std::span<const pmix_info_t> info, const char* key) {
  const pmix_info_t* i = FindInfo(info, key);
  if (i == nullptr) return std::nullopt;
  return PMIx_Info_true(i);
}

std::optional<std::string> InfoString(std::span<const pmix_info_t> info, const char* key) {
  const pmix_info_t* i = FindInfo(info, key);
  if (i == nullptr) return std::nullopt;
  if (i->value.type != PMIX_STRING) return std::nullopt;
  return std::string(i->value.data.string == nullptr ? "" : i->value.data.string);
}

std::optional<int64_t> InfoInt(std::span<const pmix_info_t> info, const char* key) {
  const pmix_info_t* i = FindInfo(info, key);
  if (i == nullptr) return std::nullopt;
  int64_t v = 0;
  if (PMIx_Value_get_number(&i->value, &v, PMIX_INT64) != PMIX_SUCCESS) return std::nullopt;
  return v;
}

std::optional<uint32_t> InfoU32(std::span<const pmix_info_t> info, const char* key) {
  const pmix_info_t* i = FindInfo(info, key);
  if (i == nullptr) return std::nullopt;
  uint32_t v = 0;
  if (PMIx_Value_get_number(&i->value, &v, PMIX_UINT32) != PMIX_SUCCESS) return std::nullopt;
  return v;
}

}  // namespace pmix
