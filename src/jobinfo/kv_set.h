// The key/values of one realm instance, assembled for one image: each key
// at most once. Host values go in first (a later one replaces an earlier
// one with the same key); derived values only fill absent keys.
//
// Entries borrow: a host value's key and value point into the caller's
// info (keep it alive and unchanged while the set is read); a derived
// value lives in the set, under a key that must be a string constant (the
// PMIX_* macros).
#ifndef PMIXX_SRC_JOBINFO_KV_SET_H
#define PMIXX_SRC_JOBINFO_KV_SET_H

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pmix_common.h"
#include "src/jobinfo/info_read.h"

namespace pmix::jobinfo {

struct Kv {
  std::string_view key;  // NUL-terminated at key.size()
  const pmix_value_t* value = nullptr;
  bool host = true;  // a host value of this instance (Put), not derived or copied from another level
};

class KvSet {
 public:
  KvSet() = default;
  KvSet(const KvSet&) = delete;
  KvSet& operator=(const KvSet&) = delete;

  // Host values: replace an earlier value of the same key.
  void Put(const pmix_info_t& info);
  void Put(const Kv& kv);
  void PutAll(const InfoRefs& infos) {
    for (const pmix_info_t* info : infos) Put(*info);
  }
  // Host values of another level copied here (e.g. job-level node keys for
  // the local node): only when absent.
  void Default(const pmix_info_t& info);
  void Default(const Kv& kv);

  // Derived values, only when the key is absent.
  void DefaultUint32(const char* key, uint32_t value);
  void DefaultUint16(const char* key, uint16_t value);
  void DefaultRank(const char* key, pmix_rank_t value);
  void DefaultString(const char* key, std::string value);

  bool Has(std::string_view key) const { return IndexOf(key).has_value(); }
  const Kv* Find(std::string_view key) const;
  std::span<const Kv> view() const { return items_; }
  bool empty() const { return items_.empty(); }

 private:
  // Small sets (a proc's, a node's) are searched linearly; an index is
  // kept once a set grows past kLinearMax (the job's may be large).
  static constexpr size_t kLinearMax = 32;
  std::optional<size_t> IndexOf(std::string_view key) const;
  void Append(const Kv& kv);
  void DefaultValue(const char* key, const pmix_value_t& value);

  std::vector<Kv> items_;
  std::unordered_map<std::string_view, size_t> index_;  // past kLinearMax
  std::deque<pmix_value_t> values_;                    // derived values (stable addresses)
  std::deque<std::string> strings_;                    // their strings
};

}  // namespace pmix::jobinfo

#endif  // PMIXX_SRC_JOBINFO_KV_SET_H
