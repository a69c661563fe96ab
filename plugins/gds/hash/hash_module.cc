// gds/hash: the module's C entry points -- input validation, qualifier
// parsing, copies in and out through the public API, and the exception
// boundary (bad_alloc -> PMIX_ERR_NOMEM; nothing escapes).
#include "plugins/gds/hash/hash_module.h"

#include <cstring>
#include <new>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "plugins/gds/hash/hash_store.h"

namespace pmix::gds::hash {
namespace {

template <class Fn>
pmix_status_t Guard(Fn&& fn) {
  try {
    return fn();
  } catch (const std::bad_alloc&) {
    return PMIX_ERR_NOMEM;
  } catch (...) {
    return PMIX_ERROR;
  }
}

// A key of 1..PMIX_MAX_KEYLEN characters within its buffer.
bool ValidKey(const char* key, size_t capacity) {
  if (key == nullptr) return false;
  size_t len = strnlen(key, capacity);
  return len > 0 && len <= PMIX_MAX_KEYLEN;
}

bool ValidRealm(pmix_gds_realm_t realm) {
  return realm >= PMIX_GDS_REALM_PROC && realm <= PMIX_GDS_REALM_SESSION;
}

pmix_status_t ParseUint32(const pmix_info_t& info, std::optional<uint32_t>* out) {
  if (info.value.type != PMIX_UINT32) return PMIX_ERR_BAD_PARAM;
  *out = info.value.data.uint32;
  return PMIX_SUCCESS;
}

pmix_status_t ParseQualifiers(const pmix_info_t* quals, size_t n, Qualifiers* out) {
  if (quals == nullptr && n > 0) return PMIX_ERR_BAD_PARAM;
  for (size_t i = 0; i < n; ++i) {
    const pmix_info_t& q = quals[i];
    pmix_status_t rc = PMIX_SUCCESS;
    if (PMIX_CHECK_KEY(&q, PMIX_NODEID)) {
      rc = ParseUint32(q, &out->nodeid);
    } else if (PMIX_CHECK_KEY(&q, PMIX_APPNUM)) {
      rc = ParseUint32(q, &out->appnum);
    } else if (PMIX_CHECK_KEY(&q, PMIX_SESSION_ID)) {
      rc = ParseUint32(q, &out->session);
    } else if (PMIX_CHECK_KEY(&q, PMIX_HOSTNAME)) {
      if (q.value.type != PMIX_STRING || q.value.data.string == nullptr ||
          q.value.data.string[0] == '\0') {
        return PMIX_ERR_BAD_PARAM;
      }
      out->hostname = q.value.data.string;
    }
    if (rc != PMIX_SUCCESS) return rc;
  }
  return PMIX_SUCCESS;
}

// Validates proc/realm/qualifiers into target. Session requests with a
// PMIX_SESSION_ID qualifier do not need an nspace.
pmix_status_t MakeTarget(const pmix_proc_t* proc, pmix_gds_realm_t realm, const pmix_info_t* quals,
                         size_t nqual, bool fetching, Target* target) {
  if (proc == nullptr || !ValidRealm(realm)) return PMIX_ERR_BAD_PARAM;
  pmix_status_t rc = ParseQualifiers(quals, nqual, &target->quals);
  if (rc != PMIX_SUCCESS) return rc;
  size_t len = strnlen(proc->nspace, PMIX_MAX_NSLEN + 1);
  if (len > PMIX_MAX_NSLEN) return PMIX_ERR_BAD_PARAM;
  bool session_named = realm == PMIX_GDS_REALM_SESSION && target->quals.session;
  if (len == 0 && !session_named) return PMIX_ERR_BAD_PARAM;
  target->nspace = std::string_view(proc->nspace, len);
  target->realm = realm;
  target->rank = proc->rank;
  bool valid = proc->rank < PMIX_RANK_VALID;
  if (realm == PMIX_GDS_REALM_PROC) {
    if (proc->rank == PMIX_RANK_WILDCARD) target->realm = PMIX_GDS_REALM_JOB;
    bool undef_ok = fetching && proc->rank == PMIX_RANK_UNDEF;
    if (!valid && proc->rank != PMIX_RANK_WILDCARD && !undef_ok) return PMIX_ERR_BAD_PARAM;
  }
  return PMIX_SUCCESS;
}

// Copies every value first (so a failure stores nothing).
pmix_status_t CopyValues(const pmix_info_t* kvs, size_t n,
                         std::vector<std::pair<std::string, ValuePtr>>* out) {
  if (kvs == nullptr && n > 0) return PMIX_ERR_BAD_PARAM;
  std::unordered_set<std::string> seen;
  for (size_t i = 0; i < n; ++i) {
    if (!ValidKey(kvs[i].key, sizeof(kvs[i].key))) return PMIX_ERR_BAD_PARAM;
    std::string key(kvs[i].key);
    if (!seen.insert(key).second) return PMIX_ERR_BAD_PARAM;
    ValuePtr value(PMIx_Value_create(1));
    if (!value) return PMIX_ERR_NOMEM;
    pmix_status_t rc = PMIx_Value_xfer(value.get(), &kvs[i].value);
    if (rc != PMIX_SUCCESS) return rc;
    out->emplace_back(std::move(key), std::move(value));
  }
  return PMIX_SUCCESS;
}

using Found = std::vector<std::pair<const std::string*, const pmix_value_t*>>;

// Copies found into a fresh info array.
pmix_status_t Export(const Found& found, pmix_info_t** kvs, size_t* nkvs) {
  pmix_info_t* infos = PMIx_Info_create(found.size());
  if (infos == nullptr) return PMIX_ERR_NOMEM;
  for (size_t i = 0; i < found.size(); ++i) {
    std::memcpy(infos[i].key, found[i].first->c_str(), found[i].first->size() + 1);
    pmix_status_t rc = PMIx_Value_xfer(&infos[i].value, found[i].second);
    if (rc != PMIX_SUCCESS) {
      PMIx_Info_free(infos, found.size());
      return rc;
    }
  }
  *kvs = infos;
  *nkvs = found.size();
  return PMIX_SUCCESS;
}

// Single-key lookup into found.
pmix_status_t FindKey(const HashStore& store, const Target& target, pmix_gds_view_t view,
                      const std::string& key, Found* found) {
  const Entry* entry = nullptr;
  const std::string* stored_key = nullptr;
  if (target.realm == PMIX_GDS_REALM_PROC && target.rank == PMIX_RANK_UNDEF) {
    entry = store.FindInAnyRank(target.nspace, key, view);
    stored_key = &key;
  } else {
    const KeyTable* table = nullptr;
    pmix_status_t rc = store.TableForFetch(target, &table);
    if (rc != PMIX_SUCCESS) return rc;
    auto it = table->find(key);
    if (it != table->end()) {
      entry = &it->second;
      stored_key = &it->first;
    }
  }
  if (entry == nullptr) return PMIX_ERR_NOT_FOUND;
  const pmix_value_t* value = Visible(*entry, view);
  if (value == nullptr) return PMIX_ERR_EXISTS_OUTSIDE_SCOPE;
  found->emplace_back(stored_key, value);
  return PMIX_SUCCESS;
}

pmix_status_t FindAll(const HashStore& store, const Target& target, pmix_gds_view_t view,
                      Found* found) {
  if (target.rank == PMIX_RANK_UNDEF && target.realm == PMIX_GDS_REALM_PROC) {
    return PMIX_ERR_BAD_PARAM;
  }
  const KeyTable* table = nullptr;
  pmix_status_t rc = store.TableForFetch(target, &table);
  if (rc != PMIX_SUCCESS) return rc;
  for (const auto& [key, entry] : *table) {
    if (const pmix_value_t* value = Visible(entry, view)) found->emplace_back(&key, value);
  }
  return found->empty() ? PMIX_ERR_NOT_FOUND : PMIX_SUCCESS;
}

pmix_status_t Create(const pmix_info_t*, size_t, void** store) {
  if (store == nullptr) return PMIX_ERR_BAD_PARAM;
  return Guard([&] {
    *store = new HashStore();
    return PMIX_SUCCESS;
  });
}

void Destroy(void* store) { delete static_cast<HashStore*>(store); }

pmix_status_t Store(void* store, const pmix_proc_t* proc, pmix_gds_realm_t realm,
                    pmix_scope_t scope, const pmix_info_t* quals, size_t nqual,
                    const pmix_info_t* kvs, size_t nkvs) {
  if (store == nullptr || scope > PMIX_INTERNAL) return PMIX_ERR_BAD_PARAM;
  return Guard([&] {
    Target target;
    pmix_status_t rc = MakeTarget(proc, realm, quals, nqual, false, &target);
    if (rc != PMIX_SUCCESS) return rc;
    std::vector<std::pair<std::string, ValuePtr>> values;
    values.reserve(nkvs);
    rc = CopyValues(kvs, nkvs, &values);
    if (rc != PMIX_SUCCESS) return rc;
    KeyTable* table = nullptr;
    rc = static_cast<HashStore*>(store)->TableForStore(target, &table);
    if (rc != PMIX_SUCCESS) return rc;
    table->reserve(table->size() + values.size());
    Slot slot = SlotFor(scope);
    for (auto& [key, value] : values) Install((*table)[key], slot, std::move(value));
    return PMIX_SUCCESS;
  });
}

pmix_status_t Fetch(void* store, const pmix_proc_t* proc, pmix_gds_realm_t realm,
                    pmix_gds_view_t view, const char* key, const pmix_info_t* quals,
                    size_t nqual, pmix_info_t** kvs, size_t* nkvs) {
  if (store == nullptr || kvs == nullptr || nkvs == nullptr) return PMIX_ERR_BAD_PARAM;
  if (view < PMIX_GDS_VIEW_ALL || view > PMIX_GDS_VIEW_REMOTE) return PMIX_ERR_BAD_PARAM;
  if (key != nullptr && !ValidKey(key, PMIX_MAX_KEYLEN + 1)) return PMIX_ERR_BAD_PARAM;
  return Guard([&] {
    Target target;
    pmix_status_t rc = MakeTarget(proc, realm, quals, nqual, true, &target);
    if (rc != PMIX_SUCCESS) return rc;
    const auto& hash = *static_cast<const HashStore*>(store);
    Found found;
    // Found may point at this key (a PMIX_RANK_UNDEF lookup) until Export.
    const std::string wanted = key != nullptr ? key : "";
    rc = key != nullptr ? FindKey(hash, target, view, wanted, &found)
                        : FindAll(hash, target, view, &found);
    if (rc != PMIX_SUCCESS) return rc;
    return Export(found, kvs, nkvs);
  });
}

// The instances as qualifier infos.
pmix_status_t ExportInstances(const std::vector<Instance>& found, pmix_info_t** ids,
                              size_t* nids) {
  pmix_info_t* infos = PMIx_Info_create(found.size());
  if (infos == nullptr) return PMIX_ERR_NOMEM;
  for (size_t i = 0; i < found.size(); ++i) {
    const Instance& one = found[i];
    pmix_status_t rc = PMIX_SUCCESS;
    if (one.key == std::string_view(PMIX_HOSTNAME)) {
      rc = PMIx_Info_load(&infos[i], one.key, one.hostname.c_str(), PMIX_STRING);
    } else if (one.key == std::string_view(PMIX_RANK)) {
      pmix_rank_t rank = one.id;
      rc = PMIx_Info_load(&infos[i], one.key, &rank, PMIX_PROC_RANK);
    } else {
      rc = PMIx_Info_load(&infos[i], one.key, &one.id, PMIX_UINT32);
    }
    if (rc != PMIX_SUCCESS) {
      PMIx_Info_free(infos, found.size());
      return rc;
    }
  }
  *ids = infos;
  *nids = found.size();
  return PMIX_SUCCESS;
}

pmix_status_t Instances(void* store, const pmix_proc_t* proc, pmix_gds_realm_t realm,
                        pmix_info_t** ids, size_t* nids) {
  if (store == nullptr || ids == nullptr || nids == nullptr) return PMIX_ERR_BAD_PARAM;
  if (!ValidRealm(realm) || realm == PMIX_GDS_REALM_JOB) return PMIX_ERR_BAD_PARAM;
  if (proc == nullptr && realm != PMIX_GDS_REALM_SESSION) return PMIX_ERR_BAD_PARAM;
  size_t len = proc == nullptr ? 0 : strnlen(proc->nspace, PMIX_MAX_NSLEN + 1);
  if (len > PMIX_MAX_NSLEN || (len == 0 && realm != PMIX_GDS_REALM_SESSION)) {
    return PMIX_ERR_BAD_PARAM;
  }
  return Guard([&] {
    std::vector<Instance> found;
    static_cast<const HashStore*>(store)->Instances(std::string_view(proc ? proc->nspace : "", len),
                                                    realm, &found);
    if (found.empty()) return PMIX_ERR_NOT_FOUND;
    return ExportInstances(found, ids, nids);
  });
}

pmix_status_t Remove(void* store, const pmix_proc_t* proc) {
  if (store == nullptr || proc == nullptr) return PMIX_ERR_BAD_PARAM;
  size_t len = strnlen(proc->nspace, PMIX_MAX_NSLEN + 1);
  if (len == 0 || len > PMIX_MAX_NSLEN) return PMIX_ERR_BAD_PARAM;
  bool whole = proc->rank == PMIX_RANK_WILDCARD || proc->rank == PMIX_RANK_UNDEF;
  if (!whole && proc->rank >= PMIX_RANK_VALID) return PMIX_ERR_BAD_PARAM;
  return Guard([&] {
    return static_cast<HashStore*>(store)->Remove(std::string_view(proc->nspace, len),
                                                  proc->rank);
  });
}

pmix_status_t RemoveSession(void* store, uint32_t session) {
  if (store == nullptr) return PMIX_ERR_BAD_PARAM;
  return static_cast<HashStore*>(store)->RemoveSession(session);
}

}  // namespace

const pmix_gds_module_t kModule = {
    "hash", true, Create, Destroy, Store, Fetch, Instances, Remove, RemoveSession,
    // No regions: images of a hash-only process live on the heap.
    nullptr, nullptr, nullptr, nullptr,
    nullptr, nullptr,
};

}  // namespace pmix::gds::hash
