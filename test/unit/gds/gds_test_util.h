// Helpers shared by the gds tests: owned info lists, procs, value equality,
// and a thin handle over a module store.
#ifndef PMIXX_TEST_UNIT_GDS_GDS_TEST_UTIL_H
#define PMIXX_TEST_UNIT_GDS_GDS_TEST_UTIL_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "pmix/mca/gds.h"

namespace pmix::gds::test {

// A list of infos whose values are owned copies (freed on destruction).
class Infos {
 public:
  Infos() = default;
  Infos(const Infos&) = delete;
  Infos& operator=(const Infos&) = delete;
  ~Infos();
  Infos& U32(const char* key, uint32_t value);
  Infos& Str(const char* key, const char* value);
  Infos& Int(const char* key, int value);
  // A key of exactly `length` characters (no NUL inside the key buffer
  // when length > PMIX_MAX_KEYLEN).
  Infos& RawKey(size_t length, int value);
  pmix_info_t* data() { return infos_.data(); }
  size_t size() const { return infos_.size(); }
  const pmix_info_t& operator[](size_t i) const { return infos_[i]; }

 private:
  pmix_info_t& Next();
  std::vector<pmix_info_t> infos_;
};

pmix_proc_t Proc(const char* nspace, pmix_rank_t rank);

// PMIx_Value_compare(a, b) == PMIX_EQUAL.
bool SameValue(const pmix_value_t& a, const pmix_value_t& b);

// A fetch result as key -> index into the array; frees the array.
struct Fetched {
  pmix_status_t status = PMIX_ERROR;
  std::map<std::string, int> count;  // key -> times returned
  pmix_info_t* kvs = nullptr;
  size_t n = 0;
  Fetched() = default;
  Fetched(const Fetched&) = delete;
  Fetched& operator=(const Fetched&) = delete;
  ~Fetched();
  const pmix_value_t* Value(const std::string& key) const;
};

// Calls module->fetch and fills out.
void Fetch(const pmix_gds_module_t* module, void* store, const pmix_proc_t& proc,
           pmix_gds_realm_t realm, pmix_gds_view_t view, const char* key, Infos* quals,
           Fetched* out);

// A module store for one test: created in the constructor, destroyed in
// the destructor.
class TestStore {
 public:
  explicit TestStore(const pmix_gds_module_t* module);
  TestStore(const TestStore&) = delete;
  TestStore& operator=(const TestStore&) = delete;
  ~TestStore();
  pmix_status_t Put(const pmix_proc_t& proc, pmix_gds_realm_t realm, pmix_scope_t scope,
                    Infos* quals, Infos& kvs);
  void Get(const pmix_proc_t& proc, pmix_gds_realm_t realm, pmix_gds_view_t view,
           const char* key, Infos* quals, Fetched* out) {
    Fetch(module_, store_, proc, realm, view, key, quals, out);
  }
  // The status of fetching one key (and, on success, whether it equals want).
  pmix_status_t Status(const pmix_proc_t& proc, pmix_gds_realm_t realm, pmix_gds_view_t view,
                       const char* key, Infos* quals = nullptr);
  const pmix_gds_module_t* module() const { return module_; }
  void* handle() const { return store_; }

 private:
  const pmix_gds_module_t* module_;
  void* store_ = nullptr;
};

// The hash module, opened and queried through its descriptor.
const pmix_gds_module_t* HashModule();

}  // namespace pmix::gds::test

#endif  // PMIXX_TEST_UNIT_GDS_GDS_TEST_UTIL_H
