// Helpers shared by the gds tests.
#include "test/unit/gds/gds_test_util.h"

#include <cstring>

namespace pmix::gds::test {

Infos::~Infos() {
  for (pmix_info_t& info : infos_) PMIx_Info_destruct(&info);
}

pmix_info_t& Next(std::vector<pmix_info_t>& infos) {
  infos.emplace_back();
  PMIx_Info_construct(&infos.back());
  return infos.back();
}

pmix_info_t& Infos::Next() { return test::Next(infos_); }

Infos& Infos::U32(const char* key, uint32_t value) {
  PMIx_Info_load(&Next(), key, &value, PMIX_UINT32);
  return *this;
}

Infos& Infos::Str(const char* key, const char* value) {
  PMIx_Info_load(&Next(), key, value, PMIX_STRING);
  return *this;
}

Infos& Infos::Int(const char* key, int value) {
  PMIx_Info_load(&Next(), key, &value, PMIX_INT);
  return *this;
}

Infos& Infos::RawKey(size_t length, int value) {
  pmix_info_t& info = Next();
  size_t fill = length < sizeof(info.key) ? length : sizeof(info.key);
  std::memset(info.key, 'k', fill);
  if (fill < sizeof(info.key)) info.key[fill] = '\0';
  PMIx_Value_load(&info.value, &value, PMIX_INT);
  return *this;
}

pmix_proc_t Proc(const char* nspace, pmix_rank_t rank) {
  pmix_proc_t proc;
  std::memset(&proc, 0, sizeof(proc));
  std::strncpy(proc.nspace, nspace, PMIX_MAX_NSLEN);
  proc.rank = rank;
  return proc;
}

bool SameValue(const pmix_value_t& a, const pmix_value_t& b) {
  return PMIx_Value_compare(const_cast<pmix_value_t*>(&a), const_cast<pmix_value_t*>(&b)) ==
         PMIX_EQUAL;
}

Fetched::~Fetched() {
  if (kvs != nullptr) PMIx_Info_free(kvs, n);
}

const pmix_value_t* Fetched::Value(const std::string& key) const {
  for (size_t i = 0; i < n; ++i) {
    if (key == kvs[i].key) return &kvs[i].value;
  }
  return nullptr;
}

void Fetch(const pmix_gds_module_t* module, void* store, const pmix_proc_t& proc,
           pmix_gds_realm_t realm, pmix_gds_view_t view, const char* key, Infos* quals,
           Fetched* out) {
  pmix_info_t* kvs = nullptr;
  size_t n = 0;
  out->status = module->fetch(store, &proc, realm, view, key, quals ? quals->data() : nullptr,
                              quals ? quals->size() : 0, &kvs, &n);
  if (out->status != PMIX_SUCCESS) return;
  out->kvs = kvs;
  out->n = n;
  for (size_t i = 0; i < n; ++i) out->count[kvs[i].key]++;
}

TestStore::TestStore(const pmix_gds_module_t* module) : module_(module) {
  if (module_->create(nullptr, 0, &store_) != PMIX_SUCCESS) store_ = nullptr;
}

TestStore::~TestStore() { module_->destroy(store_); }

pmix_status_t TestStore::Put(const pmix_proc_t& proc, pmix_gds_realm_t realm,
                             pmix_scope_t scope, Infos* quals, Infos& kvs) {
  return module_->store(store_, &proc, realm, scope, quals ? quals->data() : nullptr,
                        quals ? quals->size() : 0, kvs.data(), kvs.size());
}

pmix_status_t TestStore::Status(const pmix_proc_t& proc, pmix_gds_realm_t realm,
                                pmix_gds_view_t view, const char* key, Infos* quals) {
  Fetched out;
  Get(proc, realm, view, key, quals, &out);
  return out.status;
}

}  // namespace pmix::gds::test
