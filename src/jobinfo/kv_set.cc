#include "src/jobinfo/kv_set.h"

#include <cstring>

namespace pmix::jobinfo {

std::optional<size_t> KvSet::IndexOf(std::string_view key) const {
  if (items_.size() <= kLinearMax) {
    for (size_t i = 0; i < items_.size(); ++i) {
      if (KeyOf(items_[i]) == key) return i;
    }
    return std::nullopt;
  }
  auto it = index_.find(std::string(key));
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

void KvSet::Append(const pmix_info_t& info, bool host) {
  items_.push_back(info);
  host_.push_back(host);
  if (items_.size() == kLinearMax + 1) {
    for (size_t i = 0; i < items_.size(); ++i) index_.emplace(std::string(KeyOf(items_[i])), i);
  } else if (items_.size() > kLinearMax) {
    index_.emplace(std::string(KeyOf(info)), items_.size() - 1);
  }
}

void KvSet::Put(const pmix_info_t& info) {
  if (auto i = IndexOf(KeyOf(info))) {
    items_[*i] = info;
    host_[*i] = true;
  } else {
    Append(info, true);
  }
}

void KvSet::Default(const pmix_info_t& info) {
  if (!Has(KeyOf(info))) Append(info, false);
}

const pmix_info_t* KvSet::Find(std::string_view key) const {
  auto i = IndexOf(key);
  return i ? &items_[*i] : nullptr;
}

void KvSet::DefaultValue(const char* key, const pmix_value_t& value) {
  if (Has(key)) return;
  pmix_info_t info;
  std::memset(&info, 0, sizeof(info));
  PMIX_LOAD_KEY(info.key, key);
  info.value = value;
  Append(info, false);
}

void KvSet::DefaultUint32(const char* key, uint32_t value) {
  pmix_value_t v{};
  v.type = PMIX_UINT32;
  v.data.uint32 = value;
  DefaultValue(key, v);
}

void KvSet::DefaultUint16(const char* key, uint16_t value) {
  pmix_value_t v{};
  v.type = PMIX_UINT16;
  v.data.uint16 = value;
  DefaultValue(key, v);
}

void KvSet::DefaultRank(const char* key, pmix_rank_t value) {
  pmix_value_t v{};
  v.type = PMIX_PROC_RANK;
  v.data.rank = value;
  DefaultValue(key, v);
}

void KvSet::DefaultString(const char* key, std::string value) {
  if (Has(key)) return;
  strings_.push_back(std::move(value));
  pmix_value_t v{};
  v.type = PMIX_STRING;
  v.data.string = strings_.back().data();
  DefaultValue(key, v);
}

void KvSet::Clear() {
  items_.clear();
  host_.clear();
  index_.clear();
  strings_.clear();
}

}  // namespace pmix::jobinfo
