#include "src/jobinfo/kv_set.h"

#include <cstring>

namespace pmix::jobinfo {
namespace {

Kv HostKv(const pmix_info_t& info, bool host) { return Kv{KeyOf(info), &info.value, host}; }

}  // namespace

std::optional<size_t> KvSet::IndexOf(std::string_view key) const {
  if (items_.size() <= kLinearMax) {
    for (size_t i = 0; i < items_.size(); ++i) {
      if (items_[i].key == key) return i;
    }
    return std::nullopt;
  }
  auto it = index_.find(key);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

void KvSet::Append(const Kv& kv) {
  items_.push_back(kv);
  if (items_.size() == kLinearMax + 1) {
    for (size_t i = 0; i < items_.size(); ++i) index_.emplace(items_[i].key, i);
  } else if (items_.size() > kLinearMax) {
    index_.emplace(kv.key, items_.size() - 1);
  }
}

void KvSet::Put(const pmix_info_t& info) { Put(HostKv(info, true)); }

void KvSet::Put(const Kv& kv) {
  Kv host{kv.key, kv.value, true};
  if (auto i = IndexOf(kv.key)) {
    items_[*i] = host;
  } else {
    Append(host);
  }
}

void KvSet::Default(const pmix_info_t& info) { Default(HostKv(info, false)); }

void KvSet::Default(const Kv& kv) {
  if (!Has(kv.key)) Append(Kv{kv.key, kv.value, false});
}

const Kv* KvSet::Find(std::string_view key) const {
  auto i = IndexOf(key);
  return i ? &items_[*i] : nullptr;
}

void KvSet::DefaultValue(const char* key, const pmix_value_t& value) {
  if (Has(key)) return;
  values_.push_back(value);
  Append(Kv{key, &values_.back(), false});
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

}  // namespace pmix::jobinfo
