// gds/hash: the in-process store behind the module functions.
//
// Layout: nspace -> { rank -> keys (job realm under PMIX_RANK_WILDCARD),
// appnum -> keys, node -> keys (found by id or by hostname) }, and
// session id -> keys for the whole store. Every key table is an
// unordered_map, so a single-key lookup is O(1) on average. A key keeps at
// most one value per scope class (slots below); the replacement and
// visibility rules are those of include/pmix/mca/gds.h. Values are owned
// copies (PMIx_Value_create + PMIx_Value_xfer), freed with PMIx_Value_free.
// Not thread-safe: one thread at a time per store (gds.h).
#ifndef PMIXX_PLUGINS_GDS_HASH_HASH_STORE_H
#define PMIXX_PLUGINS_GDS_HASH_HASH_STORE_H

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pmix/mca/gds.h"

namespace pmix::gds::hash {

struct ValueDeleter {
  void operator()(pmix_value_t* value) const { PMIx_Value_free(value, 1); }
};
using ValuePtr = std::unique_ptr<pmix_value_t, ValueDeleter>;

// Scope classes: INTERNAL, LOCAL, GLOBAL (and UNDEF), REMOTE.
enum Slot : size_t { kInternalSlot = 0, kLocalSlot, kGlobalSlot, kRemoteSlot, kSlotCount };

struct Entry {
  std::array<ValuePtr, kSlotCount> slots;
};
// Heterogeneous lookup: find(string_view) without building a std::string.
struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
using KeyTable = std::unordered_map<std::string, Entry, StringHash, std::equal_to<>>;

// The qualifiers a realm instance is named by (absent = not given).
struct Qualifiers {
  std::optional<uint32_t> nodeid;
  std::optional<std::string> hostname;
  std::optional<uint32_t> appnum;
  std::optional<uint32_t> session;
};

// Where a store or fetch goes (validated by the caller).
struct Target {
  std::string_view nspace;
  pmix_rank_t rank;
  pmix_gds_realm_t realm;
  Qualifiers quals;
};

// The slot a value put with `scope` goes to (scope already validated).
Slot SlotFor(pmix_scope_t scope);
// Replaces the entry's values that a value in `slot` supersedes, then
// installs value there.
void Install(Entry& entry, Slot slot, ValuePtr value);
// The value of entry that `view` sees, or nullptr.
const pmix_value_t* Visible(const Entry& entry, pmix_gds_view_t view);

// One realm instance, named as a fetch qualifier: key is PMIX_RANK,
// PMIX_APPNUM, PMIX_NODEID (id), PMIX_HOSTNAME (hostname) or
// PMIX_SESSION_ID.
struct Instance {
  const char* key;
  uint32_t id;
  std::string hostname;
};

class HashStore {
 public:
  // The table to store into, created if needed (and node id/hostname
  // linked). PMIX_ERR_BAD_PARAM, with nothing changed, for a missing
  // qualifier or a node id and hostname already on different nodes.
  pmix_status_t TableForStore(const Target& target, KeyTable** table);
  // The table to read from; PMIX_ERR_NOT_FOUND when absent,
  // PMIX_ERR_BAD_PARAM for a missing qualifier. rank UNDEF is not
  // accepted here (see FindInAnyRank).
  pmix_status_t TableForFetch(const Target& target, const KeyTable** table) const;
  // The first rank's entry for key in nspace (PMIX_RANK_UNDEF fetches).
  const Entry* FindInAnyRank(std::string_view nspace, const std::string& key,
                             pmix_gds_view_t view) const;
  // The instances of realm (not JOB) holding data, appended to out.
  void Instances(std::string_view nspace, pmix_gds_realm_t realm,
                 std::vector<Instance>* out) const;
  pmix_status_t Remove(std::string_view nspace, pmix_rank_t rank);
  pmix_status_t RemoveSession(uint32_t session);

 private:
  struct Nodes {
    std::vector<KeyTable> tables;
    std::unordered_map<uint32_t, size_t> by_id;
    std::unordered_map<std::string, size_t> by_name;
  };
  struct Namespace {
    std::unordered_map<pmix_rank_t, KeyTable> ranks;
    std::unordered_map<uint32_t, KeyTable> apps;
    Nodes nodes;
  };

  const Namespace* FindNamespace(std::string_view nspace) const;
  // A uint32 value stored under key in nspace's rank table, if any.
  std::optional<uint32_t> StoredId(std::string_view nspace, pmix_rank_t rank,
                                   const char* key) const;
  static pmix_status_t NodeForStore(Nodes& nodes, const Qualifiers& quals, KeyTable** table);
  static pmix_status_t CheckNodeLink(const Nodes& nodes, const Qualifiers& quals);
  static const KeyTable* NodeForFetch(const Nodes& nodes, const Qualifiers& quals);

  std::unordered_map<std::string, Namespace, StringHash, std::equal_to<>> nspaces_;
  std::unordered_map<uint32_t, KeyTable> sessions_;
};

}  // namespace pmix::gds::hash

#endif  // PMIXX_PLUGINS_GDS_HASH_HASH_STORE_H
