// The gds framework spec, module lookup and the Store wrapper.
#include "mca/gds/base/gds_base.h"

#include <cstring>
#include <utility>

#include "mca/base/framework.h"
#include "mca/base/framework_registry.h"

namespace pmix::gds {
namespace {

const mca::FrameworkSpec kSpec = {
    "gds",
    PMIX_GDS_INTERFACE_MAJOR,
    PMIX_GDS_INTERFACE_MINOR,
    true,
    "Data store: job, app, node and session info and exchanged key/values",
    {},
};
// Known to pmix_info before first use.
const mca::KnownFramework kKnown(kSpec);

Result<std::span<const mca::SelectedModule>> Modules() {
  mca::Framework& framework = mca::GetFramework(kSpec);
  PMIX_RETURN_IF_ERROR(framework.Ensure());
  return framework.Selected();
}

pmix_info_t Uint32Info(const char* key, uint32_t value) {
  pmix_info_t info;
  std::memset(&info, 0, sizeof(info));
  PMIX_LOAD_KEY(info.key, key);
  info.value.type = PMIX_UINT32;
  info.value.data.uint32 = value;
  return info;
}

// Keys longer than PMIX_MAX_KEYLEN cannot be named: BAD_PARAM.
bool CopyKey(std::string_view key, char (&out)[PMIX_MAX_KEYLEN + 1]) {
  if (key.empty() || key.size() > PMIX_MAX_KEYLEN) return false;
  std::memcpy(out, key.data(), key.size());
  out[key.size()] = '\0';
  return true;
}

}  // namespace

Result<const pmix_gds_module_t*> Default() {
  auto modules = Modules();
  PMIX_RETURN_IF_ERROR(modules.status());
  if (modules->empty()) return Status(PMIX_ERR_NOT_SUPPORTED);
  return static_cast<const pmix_gds_module_t*>(modules->front().module);
}

Result<const pmix_gds_module_t*> ByName(std::string_view name) {
  auto modules = Modules();
  PMIX_RETURN_IF_ERROR(modules.status());
  for (const mca::SelectedModule& selected : *modules) {
    if (name == selected.component->name) {
      return static_cast<const pmix_gds_module_t*>(selected.module);
    }
  }
  return Status(PMIX_ERR_NOT_FOUND);
}

InfoArray::InfoArray(InfoArray&& other) noexcept
    : infos_(std::exchange(other.infos_, nullptr)), n_(std::exchange(other.n_, 0)) {}

InfoArray& InfoArray::operator=(InfoArray&& other) noexcept {
  if (this != &other) {
    if (infos_ != nullptr) PMIx_Info_free(infos_, n_);
    infos_ = std::exchange(other.infos_, nullptr);
    n_ = std::exchange(other.n_, 0);
  }
  return *this;
}

InfoArray::~InfoArray() {
  if (infos_ != nullptr) PMIx_Info_free(infos_, n_);
}

pmix_info_t* InfoArray::release() {
  n_ = 0;
  return std::exchange(infos_, nullptr);
}

std::vector<pmix_info_t> Where::Qualifiers() const {
  std::vector<pmix_info_t> quals;
  if (nodeid) quals.push_back(Uint32Info(PMIX_NODEID, *nodeid));
  if (appnum) quals.push_back(Uint32Info(PMIX_APPNUM, *appnum));
  if (session) quals.push_back(Uint32Info(PMIX_SESSION_ID, *session));
  if (hostname) {
    pmix_info_t info = Uint32Info(PMIX_HOSTNAME, 0);
    info.value.type = PMIX_STRING;
    info.value.data.string = const_cast<char*>(hostname->c_str());
    quals.push_back(info);
  }
  return quals;
}

Result<Store> Store::Create(const pmix_gds_module_t* module, std::span<const pmix_info_t> info) {
  if (module == nullptr) return Status(PMIX_ERR_BAD_PARAM);
  void* handle = nullptr;
  pmix_status_t rc = module->create(info.data(), info.size(), &handle);
  if (rc != PMIX_SUCCESS) return Status(rc);
  return Store(module, handle);
}

Store::Store(Store&& other) noexcept
    : module_(other.module_), handle_(std::exchange(other.handle_, nullptr)) {}

Store& Store::operator=(Store&& other) noexcept {
  if (this != &other) {
    Reset();
    module_ = other.module_;
    handle_ = std::exchange(other.handle_, nullptr);
  }
  return *this;
}

Store::~Store() { Reset(); }

void Store::Reset() {
  if (handle_ != nullptr) module_->destroy(handle_);
  handle_ = nullptr;
}

Status Store::Put(const pmix_proc_t& proc, const Where& where, pmix_scope_t scope,
                  std::span<const pmix_info_t> kvs) {
  std::vector<pmix_info_t> quals = where.Qualifiers();
  return module_->store(handle_, &proc, where.realm, scope, quals.data(), quals.size(),
                        kvs.data(), kvs.size());
}

Status Store::PutValue(const pmix_proc_t& proc, const Where& where, pmix_scope_t scope,
                       std::string_view key, const pmix_value_t& value) {
  pmix_info_t kv;
  std::memset(&kv, 0, sizeof(kv));
  if (!CopyKey(key, kv.key)) return PMIX_ERR_BAD_PARAM;
  kv.value = value;  // shallow: the module copies it
  return Put(proc, where, scope, std::span<const pmix_info_t>(&kv, 1));
}

Result<InfoArray> Store::Fetch(const pmix_proc_t& proc, const Where& where,
                               pmix_gds_view_t view, std::string_view key) const {
  char key_buf[PMIX_MAX_KEYLEN + 1] = {};
  if (!key.empty() && !CopyKey(key, key_buf)) return Status(PMIX_ERR_BAD_PARAM);
  std::vector<pmix_info_t> quals = where.Qualifiers();
  pmix_info_t* kvs = nullptr;
  size_t nkvs = 0;
  pmix_status_t rc = module_->fetch(handle_, &proc, where.realm, view,
                                    key.empty() ? nullptr : key_buf, quals.data(),
                                    quals.size(), &kvs, &nkvs);
  if (rc != PMIX_SUCCESS) return Status(rc);
  return InfoArray(kvs, nkvs);
}

Result<ValuePtr> Store::FetchValue(const pmix_proc_t& proc, const Where& where,
                                   pmix_gds_view_t view, std::string_view key) const {
  if (key.empty()) return Status(PMIX_ERR_BAD_PARAM);
  auto kvs = Fetch(proc, where, view, key);
  PMIX_RETURN_IF_ERROR(kvs.status());
  ValuePtr value(PMIx_Value_create(1));
  if (!value) return Status(PMIX_ERR_NOMEM);
  pmix_status_t rc = PMIx_Value_xfer(value.get(), &(*kvs)[0].value);
  if (rc != PMIX_SUCCESS) return Status(rc);
  return value;
}

Result<InfoArray> Store::Instances(const pmix_proc_t& proc, pmix_gds_realm_t realm) const {
  pmix_info_t* ids = nullptr;
  size_t nids = 0;
  pmix_status_t rc = module_->instances(handle_, &proc, realm, &ids, &nids);
  if (rc != PMIX_SUCCESS) return Status(rc);
  return InfoArray(ids, nids);
}

Status Store::Remove(const pmix_proc_t& proc) { return module_->remove(handle_, &proc); }

Status Store::RemoveSession(uint32_t session) {
  return module_->remove_session(handle_, session);
}

}  // namespace pmix::gds
