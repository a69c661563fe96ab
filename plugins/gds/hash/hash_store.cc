// gds/hash: realm tables, placement, replacement and visibility.
#include "plugins/gds/hash/hash_store.h"

#include <utility>

namespace pmix::gds::hash {
namespace {

// Per view, the slots it sees, in order of preference.
constexpr std::array<Slot, 2> kLocalView = {kLocalSlot, kGlobalSlot};
constexpr std::array<Slot, 2> kRemoteView = {kRemoteSlot, kGlobalSlot};
constexpr std::array<Slot, 4> kAllView = {kInternalSlot, kLocalSlot, kGlobalSlot, kRemoteSlot};

template <size_t N>
const pmix_value_t* FirstOf(const Entry& entry, const std::array<Slot, N>& order) {
  for (Slot slot : order) {
    if (entry.slots[slot]) return entry.slots[slot].get();
  }
  return nullptr;
}

template <class Map, class Key>
auto* Find(Map& map, const Key& key) {
  auto it = map.find(key);
  return it == map.end() ? nullptr : &it->second;
}

}  // namespace

Slot SlotFor(pmix_scope_t scope) {
  switch (scope) {
    case PMIX_LOCAL: return kLocalSlot;
    case PMIX_REMOTE: return kRemoteSlot;
    case PMIX_INTERNAL: return kInternalSlot;
    default: return kGlobalSlot;  // PMIX_GLOBAL, PMIX_SCOPE_UNDEF
  }
}

void Install(Entry& entry, Slot slot, ValuePtr value) {
  switch (slot) {
    case kGlobalSlot:
      entry.slots[kLocalSlot].reset();
      entry.slots[kRemoteSlot].reset();
      break;
    case kLocalSlot:
    case kRemoteSlot:
      entry.slots[kGlobalSlot].reset();
      break;
    default:
      break;
  }
  entry.slots[slot] = std::move(value);
}

const pmix_value_t* Visible(const Entry& entry, pmix_gds_view_t view) {
  switch (view) {
    case PMIX_GDS_VIEW_LOCAL: return FirstOf(entry, kLocalView);
    case PMIX_GDS_VIEW_REMOTE: return FirstOf(entry, kRemoteView);
    default: return FirstOf(entry, kAllView);
  }
}

pmix_status_t HashStore::CheckNodeLink(const Nodes& nodes, const Qualifiers& quals) {
  if (quals.nodeid && quals.hostname) {
    const size_t* by_id = Find(nodes.by_id, *quals.nodeid);
    const size_t* by_name = Find(nodes.by_name, *quals.hostname);
    if (by_id != nullptr && by_name != nullptr && *by_id != *by_name) return PMIX_ERR_BAD_PARAM;
  }
  return PMIX_SUCCESS;
}

pmix_status_t HashStore::NodeForStore(Nodes& nodes, const Qualifiers& quals, KeyTable** table) {
  size_t* by_id = quals.nodeid ? Find(nodes.by_id, *quals.nodeid) : nullptr;
  size_t* by_name = quals.hostname ? Find(nodes.by_name, *quals.hostname) : nullptr;
  size_t index = 0;
  if (by_id != nullptr) {
    index = *by_id;
  } else if (by_name != nullptr) {
    index = *by_name;
  } else {
    index = nodes.tables.size();
    nodes.tables.emplace_back();
  }
  if (quals.nodeid) nodes.by_id[*quals.nodeid] = index;
  if (quals.hostname) nodes.by_name[*quals.hostname] = index;
  *table = &nodes.tables[index];
  return PMIX_SUCCESS;
}

const KeyTable* HashStore::NodeForFetch(const Nodes& nodes, const Qualifiers& quals) {
  const size_t* index = quals.nodeid ? Find(nodes.by_id, *quals.nodeid) : nullptr;
  if (index == nullptr && quals.hostname) index = Find(nodes.by_name, *quals.hostname);
  return index == nullptr ? nullptr : &nodes.tables[*index];
}

pmix_status_t HashStore::TableForStore(const Target& target, KeyTable** table) {
  const Qualifiers& quals = target.quals;
  switch (target.realm) {
    case PMIX_GDS_REALM_SESSION:
      if (!quals.session) return PMIX_ERR_BAD_PARAM;
      *table = &sessions_[*quals.session];
      return PMIX_SUCCESS;
    case PMIX_GDS_REALM_APP:
      if (!quals.appnum) return PMIX_ERR_BAD_PARAM;
      *table = &nspaces_[std::string(target.nspace)].apps[*quals.appnum];
      return PMIX_SUCCESS;
    case PMIX_GDS_REALM_NODE: {
      if (!quals.nodeid && !quals.hostname) return PMIX_ERR_BAD_PARAM;
      const Namespace* existing = FindNamespace(target.nspace);
      pmix_status_t rc = existing == nullptr ? PMIX_SUCCESS : CheckNodeLink(existing->nodes, quals);
      if (rc != PMIX_SUCCESS) return rc;
      return NodeForStore(nspaces_[std::string(target.nspace)].nodes, quals, table);
    }
    case PMIX_GDS_REALM_JOB:
      *table = &nspaces_[std::string(target.nspace)].ranks[PMIX_RANK_WILDCARD];
      return PMIX_SUCCESS;
    default:  // PROC: a valid rank or WILDCARD (validated by the caller)
      *table = &nspaces_[std::string(target.nspace)].ranks[target.rank];
      return PMIX_SUCCESS;
  }
}

const HashStore::Namespace* HashStore::FindNamespace(std::string_view nspace) const {
  auto it = nspaces_.find(nspace);
  return it == nspaces_.end() ? nullptr : &it->second;
}

std::optional<uint32_t> HashStore::StoredId(std::string_view nspace, pmix_rank_t rank,
                                            const char* key) const {
  const Namespace* ns = FindNamespace(nspace);
  const KeyTable* keys = ns == nullptr ? nullptr : Find(ns->ranks, rank);
  const Entry* entry = keys == nullptr ? nullptr : Find(*keys, std::string_view(key));
  const pmix_value_t* value = entry == nullptr ? nullptr : Visible(*entry, PMIX_GDS_VIEW_ALL);
  if (value == nullptr || value->type != PMIX_UINT32) return std::nullopt;
  return value->data.uint32;
}

pmix_status_t HashStore::TableForFetch(const Target& target, const KeyTable** table) const {
  const Qualifiers& quals = target.quals;
  *table = nullptr;
  if (target.realm == PMIX_GDS_REALM_SESSION) {
    std::optional<uint32_t> id = quals.session;
    if (!id) id = StoredId(target.nspace, PMIX_RANK_WILDCARD, PMIX_SESSION_ID);
    if (id) *table = Find(sessions_, *id);
    return *table == nullptr ? PMIX_ERR_NOT_FOUND : PMIX_SUCCESS;
  }
  if (target.realm == PMIX_GDS_REALM_NODE && !quals.nodeid && !quals.hostname) {
    return PMIX_ERR_BAD_PARAM;
  }
  if (target.realm == PMIX_GDS_REALM_APP && !quals.appnum && target.rank >= PMIX_RANK_VALID) {
    return PMIX_ERR_BAD_PARAM;
  }
  const Namespace* ns = FindNamespace(target.nspace);
  if (ns == nullptr) return PMIX_ERR_NOT_FOUND;
  switch (target.realm) {
    case PMIX_GDS_REALM_APP: {
      std::optional<uint32_t> appnum = quals.appnum;
      if (!appnum) appnum = StoredId(target.nspace, target.rank, PMIX_APPNUM);
      if (appnum) *table = Find(ns->apps, *appnum);
      break;
    }
    case PMIX_GDS_REALM_NODE:
      *table = NodeForFetch(ns->nodes, quals);
      break;
    case PMIX_GDS_REALM_JOB:
      *table = Find(ns->ranks, PMIX_RANK_WILDCARD);
      break;
    default:
      *table = Find(ns->ranks, target.rank);
      break;
  }
  return *table == nullptr ? PMIX_ERR_NOT_FOUND : PMIX_SUCCESS;
}

const Entry* HashStore::FindInAnyRank(std::string_view nspace, const std::string& key,
                                      pmix_gds_view_t view) const {
  const Namespace* ns = FindNamespace(nspace);
  if (ns == nullptr) return nullptr;
  const Entry* hidden = nullptr;
  for (const auto& [rank, keys] : ns->ranks) {
    if (rank == PMIX_RANK_WILDCARD) continue;
    const Entry* entry = Find(keys, key);
    if (entry == nullptr) continue;
    if (Visible(*entry, view) != nullptr) return entry;
    hidden = entry;
  }
  return hidden;  // exists, but outside the view (or nullptr)
}

void HashStore::Instances(std::string_view nspace, pmix_gds_realm_t realm,
                          std::vector<Instance>* out) const {
  if (realm == PMIX_GDS_REALM_SESSION) {
    for (const auto& [id, keys] : sessions_) out->push_back({PMIX_SESSION_ID, id, {}});
    return;
  }
  const Namespace* ns = FindNamespace(nspace);
  if (ns == nullptr) return;
  if (realm == PMIX_GDS_REALM_PROC) {
    for (const auto& [rank, keys] : ns->ranks) {
      if (rank != PMIX_RANK_WILDCARD) out->push_back({PMIX_RANK, rank, {}});
    }
  } else if (realm == PMIX_GDS_REALM_APP) {
    for (const auto& [appnum, keys] : ns->apps) out->push_back({PMIX_APPNUM, appnum, {}});
  } else if (realm == PMIX_GDS_REALM_NODE) {
    std::vector<bool> has_id(ns->nodes.tables.size(), false);
    for (const auto& [id, index] : ns->nodes.by_id) {
      has_id[index] = true;
      out->push_back({PMIX_NODEID, id, {}});
    }
    for (const auto& [name, index] : ns->nodes.by_name) {
      if (!has_id[index]) out->push_back({PMIX_HOSTNAME, 0, name});
    }
  }
}

pmix_status_t HashStore::Remove(std::string_view nspace, pmix_rank_t rank) {
  auto it = nspaces_.find(std::string(nspace));
  if (it == nspaces_.end()) return PMIX_ERR_NOT_FOUND;
  if (rank == PMIX_RANK_WILDCARD || rank == PMIX_RANK_UNDEF) {
    nspaces_.erase(it);
    return PMIX_SUCCESS;
  }
  return it->second.ranks.erase(rank) == 0 ? PMIX_ERR_NOT_FOUND : PMIX_SUCCESS;
}

pmix_status_t HashStore::RemoveSession(uint32_t session) {
  return sessions_.erase(session) == 0 ? PMIX_ERR_NOT_FOUND : PMIX_SUCCESS;
}

}  // namespace pmix::gds::hash
