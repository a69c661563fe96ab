// The key/values of one realm instance, assembled for one store call: each
// key at most once. Host values go in first (a later one replaces an
// earlier one with the same key); derived values only fill absent keys.
//
// Host values are shallow copies that borrow the caller's data; derived
// strings live in the set. Keep both alive until the store call returns
// (the store deep-copies).
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

class KvSet {
 public:
  // Host values: replace an earlier value of the same key.
  void Put(const pmix_info_t& info);
  void PutAll(const InfoRefs& infos) {
    for (const pmix_info_t* info : infos) Put(*info);
  }
  // Host values of another level copied here (e.g. job-level node keys for
  // the local node): only when absent.
  void Default(const pmix_info_t& info);

  // Derived values, only when the key is absent.
  void DefaultUint32(const char* key, uint32_t value);
  void DefaultUint16(const char* key, uint16_t value);
  void DefaultRank(const char* key, pmix_rank_t value);
  void DefaultString(const char* key, std::string value);

  bool Has(std::string_view key) const { return IndexOf(key).has_value(); }
  const pmix_info_t* Find(std::string_view key) const;
  std::span<const pmix_info_t> view() const { return items_; }
  // Whether items_[i] is a host value of this instance (Put), not a
  // derived value or a copy from another level (Default*).
  bool IsHost(size_t i) const { return host_[i]; }
  bool empty() const { return items_.empty(); }
  void Clear();

 private:
  // Small sets (a proc's, a node's) are searched linearly; an index is
  // kept once a set grows past kLinearMax (the job's may be large).
  static constexpr size_t kLinearMax = 32;
  std::optional<size_t> IndexOf(std::string_view key) const;
  void Append(const pmix_info_t& info, bool host);
  void DefaultValue(const char* key, const pmix_value_t& value);

  std::vector<pmix_info_t> items_;
  std::vector<bool> host_;  // parallel to items_
  std::unordered_map<std::string, size_t> index_;  // past kLinearMax
  std::deque<std::string> strings_;                // derived strings (stable addresses)
};

}  // namespace pmix::jobinfo

#endif  // PMIXX_SRC_JOBINFO_KV_SET_H
