// The gds framework spec, module lookup and the Store wrapper.
#include "mca/gds/base/gds_base.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "mca/base/framework.h"
#include "mca/base/framework_registry.h"
#include "mca/gds/base/image.h"

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

std::string_view NspaceOf(const pmix_proc_t& proc) {
  return std::string_view(proc.nspace, ::strnlen(proc.nspace, PMIX_MAX_NSLEN + 1));
}

// Whether proc names namespace `name` (no longer than PMIX_MAX_NSLEN):
// cheaper than measuring proc's nspace first, on every fetch.
bool NspaceIs(const pmix_proc_t& proc, std::string_view name) {
  return name.size() <= PMIX_MAX_NSLEN && std::memcmp(proc.nspace, name.data(), name.size()) == 0 &&
         proc.nspace[name.size()] == '\0';
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
  for (const mca::SelectedModule& selected : *modules) {
    auto* module = static_cast<const pmix_gds_module_t*>(selected.module);
    if (module->create != nullptr && module->store != nullptr && module->fetch != nullptr)
      return module;
  }
  return Status(PMIX_ERR_NOT_SUPPORTED);
}

Result<const pmix_gds_module_t*> RegionModule() {
  auto modules = Modules();
  PMIX_RETURN_IF_ERROR(modules.status());
  for (const mca::SelectedModule& selected : *modules) {
    auto* module = static_cast<const pmix_gds_module_t*>(selected.module);
    if (module->region_create != nullptr) return module;
  }
  return static_cast<const pmix_gds_module_t*>(nullptr);
}

Result<std::vector<std::string>> AttachableModules() {
  auto modules = Modules();
  PMIX_RETURN_IF_ERROR(modules.status());
  std::vector<std::string> names;
  for (const mca::SelectedModule& selected : *modules) {
    auto* module = static_cast<const pmix_gds_module_t*>(selected.module);
    if (module->region_attach != nullptr) names.emplace_back(module->name);
  }
  return names;
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
    : module_(other.module_),
      handle_(std::exchange(other.handle_, nullptr)),
      images_(std::move(other.images_)),
      next_order_(other.next_order_),
      stored_(std::move(other.stored_)),
      stored_sessions_(other.stored_sessions_) {}

Store& Store::operator=(Store&& other) noexcept {
  if (this != &other) {
    Reset();
    module_ = other.module_;
    handle_ = std::exchange(other.handle_, nullptr);
    images_ = std::move(other.images_);
    next_order_ = other.next_order_;
    stored_ = std::move(other.stored_);
    stored_sessions_ = other.stored_sessions_;
  }
  return *this;
}

Store::~Store() { Reset(); }

void Store::Reset() {
  if (handle_ != nullptr) module_->destroy(handle_);
  handle_ = nullptr;
  images_.clear();
}

void Store::AttachImage(std::shared_ptr<const Image> image) {
  if (image == nullptr) return;
  DetachImage(image->nspace());
  images_.push_back({std::move(image), ++next_order_});
}

std::shared_ptr<const Image> Store::FindImage(std::string_view nspace) const {
  for (const Attached& a : images_) {
    if (a.image->nspace() == nspace) return a.image;
  }
  return nullptr;
}

void Store::DetachImage(std::string_view nspace) {
  std::erase_if(images_, [nspace](const Attached& a) { return a.image->nspace() == nspace; });
}

const Image* Store::ImageFor(const pmix_proc_t& proc, const Where& where) const {
  if (where.realm == PMIX_GDS_REALM_SESSION && where.session) {
    const Attached* newest = nullptr;
    for (const Attached& a : images_) {
      if (a.image->HasSession(*where.session) && (newest == nullptr || a.order > newest->order))
        newest = &a;
    }
    return newest != nullptr ? newest->image.get() : nullptr;
  }
  for (const Attached& a : images_) {
    if (NspaceIs(proc, a.image->nspace())) return a.image.get();
  }
  return nullptr;
}

namespace {

// The realm a store or fetch really addresses (a PROC wildcard is JOB).
unsigned RealmBit(const pmix_proc_t& proc, const Where& where) {
  pmix_gds_realm_t realm = where.realm;
  if (realm == PMIX_GDS_REALM_PROC && proc.rank == PMIX_RANK_WILDCARD) realm = PMIX_GDS_REALM_JOB;
  return 1u << static_cast<unsigned>(realm);
}

constexpr unsigned kProcBit = 1u << PMIX_GDS_REALM_PROC;

}  // namespace

bool Store::MayHold(const pmix_proc_t& proc, const Where& where) const {
  // APP and SESSION fetches without a qualifier consult PROC/JOB values.
  if (where.realm == PMIX_GDS_REALM_SESSION) return stored_sessions_ != 0 || !where.session;
  for (const Stored& s : stored_) {
    if (!NspaceIs(proc, s.nspace)) continue;
    if (where.realm == PMIX_GDS_REALM_APP) return true;
    unsigned bit = RealmBit(proc, where);
    if ((s.realms & bit) == 0) return false;
    if (bit != kProcBit || s.any_rank || proc.rank == PMIX_RANK_UNDEF) return true;
    return std::find(s.ranks.begin(), s.ranks.end(), proc.rank) != s.ranks.end();
  }
  return false;
}

void Store::NoteStored(const pmix_proc_t& proc, const Where& where) {
  if (where.realm == PMIX_GDS_REALM_SESSION) {
    stored_sessions_ = 1;
    return;
  }
  std::string_view nspace = NspaceOf(proc);
  auto s = std::find_if(stored_.begin(), stored_.end(),
                        [nspace](const Stored& s) { return s.nspace == nspace; });
  if (s == stored_.end()) {
    stored_.emplace_back();
    s = stored_.end() - 1;
    s->nspace = nspace;
  }
  unsigned bit = RealmBit(proc, where);
  s->realms |= bit;
  if (bit != kProcBit || s->any_rank) return;
  if (std::find(s->ranks.begin(), s->ranks.end(), proc.rank) != s->ranks.end()) return;
  if (proc.rank >= PMIX_RANK_VALID || s->ranks.size() == kTrackedRanks) {
    s->any_rank = true;
    s->ranks.clear();
    return;
  }
  s->ranks.push_back(proc.rank);
}

Status Store::Put(const pmix_proc_t& proc, const Where& where, pmix_scope_t scope,
                  std::span<const pmix_info_t> kvs) {
  std::vector<pmix_info_t> quals = where.Qualifiers();
  Status status = module_->store(handle_, &proc, where.realm, scope, quals.data(), quals.size(),
                                 kvs.data(), kvs.size());
  if (status.ok() || status.code() == PMIX_ERR_NOMEM) NoteStored(proc, where);
  return status;
}

Status Store::PutValue(const pmix_proc_t& proc, const Where& where, pmix_scope_t scope,
                       std::string_view key, const pmix_value_t& value) {
  pmix_info_t kv;
  std::memset(&kv, 0, sizeof(kv));
  if (!CopyKey(key, kv.key)) return PMIX_ERR_BAD_PARAM;
  kv.value = value;  // shallow: the module copies it
  return Put(proc, where, scope, std::span<const pmix_info_t>(&kv, 1));
}

Result<InfoArray> Store::ModuleFetch(const pmix_proc_t& proc, const Where& where,
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

Result<InfoArray> Store::Fetch(const pmix_proc_t& proc, const Where& where,
                               pmix_gds_view_t view, std::string_view key) const {
  const Image* image = ImageFor(proc, where);
  if (image != nullptr && !MayHold(proc, where)) {
    if (!key.empty() && (key.size() > PMIX_MAX_KEYLEN)) return Status(PMIX_ERR_BAD_PARAM);
    return image->Fetch(proc, where, key);
  }
  auto dynamic = ModuleFetch(proc, where, view, key);
  if (image == nullptr) return dynamic;
  if (!dynamic.ok() && dynamic.status().code() != PMIX_ERR_NOT_FOUND) return dynamic;
  if (!key.empty()) {
    if (dynamic.ok()) return dynamic;
    return image->Fetch(proc, where, key);
  }
  auto fixed = image->Fetch(proc, where, key);
  if (!fixed.ok()) {
    if (fixed.status().code() == PMIX_ERR_NOT_FOUND) return dynamic;
    return fixed;
  }
  if (!dynamic.ok() && view == PMIX_GDS_VIEW_ALL) return fixed;
  // The image's values whose keys the store does not hold in any scope.
  auto shadow = view == PMIX_GDS_VIEW_ALL ? ModuleFetch(proc, where, view, key)
                                          : ModuleFetch(proc, where, PMIX_GDS_VIEW_ALL, key);
  std::vector<pmix_info_t> merged;
  auto shadowed = [&shadow](const pmix_info_t& info) {
    if (!shadow.ok()) return false;
    for (const pmix_info_t& s : shadow->view()) {
      if (PMIX_CHECK_KEY(&s, info.key)) return true;
    }
    return false;
  };
  size_t n = dynamic.ok() ? dynamic->size() : 0;
  for (const pmix_info_t& info : fixed->view()) n += shadowed(info) ? 0 : 1;
  pmix_info_t* out = PMIx_Info_create(n);
  if (out == nullptr) return Status(PMIX_ERR_NOMEM);
  size_t i = 0;
  Status status;
  auto copy = [&](const pmix_info_t& info) {
    if (status.ok()) status = PMIx_Info_xfer(&out[i++], &info);
  };
  if (dynamic.ok()) {
    for (const pmix_info_t& info : dynamic->view()) copy(info);
  }
  for (const pmix_info_t& info : fixed->view()) {
    if (!shadowed(info)) copy(info);
  }
  InfoArray result(out, n);
  if (!status.ok()) return status;
  if (n == 0) return Status(PMIX_ERR_NOT_FOUND);
  return result;
}

Result<ValuePtr> Store::FetchValue(const pmix_proc_t& proc, const Where& where,
                                   pmix_gds_view_t view, std::string_view key) const {
  if (key.empty()) return Status(PMIX_ERR_BAD_PARAM);
  if (!MayHold(proc, where)) {
    const Image* image = ImageFor(proc, where);
    if (image != nullptr) return image->FetchValue(proc, where, key);
  }
  auto kvs = ModuleFetch(proc, where, view, key);
  if (!kvs.ok()) {
    const Image* image = kvs.status().code() == PMIX_ERR_NOT_FOUND ? ImageFor(proc, where) : nullptr;
    if (image == nullptr) return kvs.status();
    return image->FetchValue(proc, where, key);
  }
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
  if (rc != PMIX_SUCCESS && rc != PMIX_ERR_NOT_FOUND) return Status(rc);
  InfoArray dynamic(ids, nids);
  std::vector<const Image*> images;
  if (realm == PMIX_GDS_REALM_SESSION) {
    for (const Attached& a : images_) images.push_back(a.image.get());
  } else if (const Image* image = ImageFor(proc, Where::Proc())) {
    images.push_back(image);
  }
  std::vector<InfoArray> fixed;
  size_t n = dynamic.size();
  for (const Image* image : images) {
    auto one = image->Instances(realm);
    if (!one.ok()) continue;
    n += one->size();
    fixed.push_back(std::move(*one));
  }
  if (fixed.empty()) return rc == PMIX_SUCCESS ? Result<InfoArray>(std::move(dynamic)) : Status(rc);
  // Each instance once (an instance may hold both stored and image data).
  std::vector<const pmix_info_t*> unique;
  auto seen = [&unique](const pmix_info_t& info) {
    for (const pmix_info_t* u : unique) {
      if (PMIX_CHECK_KEY(u, info.key) && PMIx_Value_compare(const_cast<pmix_value_t*>(&u->value),
                                                            const_cast<pmix_value_t*>(&info.value)) ==
                                             PMIX_EQUAL)
        return true;
    }
    return false;
  };
  unique.reserve(n);
  for (const pmix_info_t& info : dynamic.view()) unique.push_back(&info);
  for (const InfoArray& one : fixed) {
    for (const pmix_info_t& info : one.view()) {
      if (dynamic.size() == 0 && realm != PMIX_GDS_REALM_SESSION) {
        unique.push_back(&info);  // one image, no stored data: already unique
      } else if (!seen(info)) {
        unique.push_back(&info);
      }
    }
  }
  pmix_info_t* out = PMIx_Info_create(unique.size());
  if (out == nullptr) return Status(PMIX_ERR_NOMEM);
  InfoArray result(out, unique.size());
  for (size_t i = 0; i < unique.size(); ++i) {
    pmix_status_t xrc = PMIx_Info_xfer(&out[i], unique[i]);
    if (xrc != PMIX_SUCCESS) return Status(xrc);
  }
  return result;
}

Status Store::Remove(const pmix_proc_t& proc) {
  pmix_status_t rc = module_->remove(handle_, &proc);
  bool whole = proc.rank == PMIX_RANK_WILDCARD || proc.rank == PMIX_RANK_UNDEF;
  if (whole && rc != PMIX_ERR_BAD_PARAM) {
    std::string_view nspace = NspaceOf(proc);
    std::erase_if(stored_, [nspace](const Stored& entry) { return entry.nspace == nspace; });
    size_t before = images_.size();
    DetachImage(nspace);
    if (images_.size() != before) return Status();
  }
  return rc;
}

Status Store::RemoveSession(uint32_t session) {
  return module_->remove_session(handle_, session);
}

}  // namespace pmix::gds
