#include "src/server/registration_input.h"

#include "mca/gds/base/image.h"
#include "src/jobinfo/derive.h"
#include "src/server/server_identity.h"
#include "src/server/server_internal.h"
#include "src/server/server_topology.h"

namespace pmix::server {

void InfoAssembly::BorrowAll(Part infos) {
  if (infos.empty()) return;
  // Consecutive infos of one source stay one part.
  if (!parts_.empty() && parts_.back().data() + parts_.back().size() == infos.data()) {
    parts_.back() = Part(parts_.back().data(), parts_.back().size() + infos.size());
    return;
  }
  parts_.push_back(infos);
}

void InfoAssembly::Adopt(wire::Infos infos) {
  infos_.push_back(std::move(infos));
  BorrowAll(infos_.back().view());
}

void InfoAssembly::Adopt(gds::InfoArray infos) {
  arrays_.push_back(std::move(infos));
  BorrowAll(arrays_.back().view());
}

void InfoAssembly::AdoptArray(const char* key, wire::Infos infos) {
  infos_.push_back(std::move(infos));
  wire::Infos& owned = infos_.back();
  darrays_.push_back({PMIX_INFO, owned.size(), owned.data()});
  pmix_info_t& entry = entries_.emplace_back();
  PMIx_Info_construct(&entry);
  PMIX_LOAD_KEY(entry.key, key);
  entry.value.type = PMIX_DATA_ARRAY;
  entry.value.data.darray = &darrays_.back();
  BorrowAll(Part(&entry, 1));
}

bool InfoAssembly::Has(const char* key, size_t from_part) const {
  for (size_t p = from_part; p < parts_.size(); ++p) {
    for (const pmix_info_t& item : parts_[p]) {
      if (PMIX_CHECK_KEY(&item, key)) return true;
    }
  }
  return false;
}

size_t InfoAssembly::size() const {
  size_t n = 0;
  for (const Part& part : parts_) n += part.size();
  return n;
}

namespace {

bool HasKey(std::span<const pmix_info_t> info, const char* key) {
  for (const auto& i : info) {
    if (PMIX_CHECK_KEY(&i, key)) return true;
  }
  return false;
}

// The previous registration of name, if it has an image.
Status AddRegistered(const Server& s, const std::string& name, InfoAssembly& out) {
  auto image = s.store.FindImage(name);
  if (image == nullptr) return Status();
  auto registration = image->Registration();
  PMIX_RETURN_IF_ERROR(registration.status());
  out.Adopt(std::move(*registration));
  return Status();
}

// info, with the local procs' data replaced where it gains a locality string.
Status AddHostArray(const Server& s, std::span<const pmix_info_t> info, InfoAssembly& out) {
  auto replaced = LocalityStrings(s, info);
  PMIX_RETURN_IF_ERROR(replaced.status());
  size_t next = 0;
  for (auto& [index, data] : *replaced) {
    out.BorrowAll(info.subspan(next, index - next));
    out.AdoptArray(PMIX_PROC_DATA, std::move(data));
    next = index + 1;
  }
  out.BorrowAll(info.subspan(next));
  return Status();
}

}  // namespace

Result<InfoAssembly> AssembleRegistration(const Server& s, const std::string& name,
                                          std::span<const pmix_info_t> info) {
  InfoAssembly out;
  bool again = s.nspaces.find(name) != s.nspaces.end();
  if (again) PMIX_RETURN_IF_ERROR(AddRegistered(s, name, out));
  size_t first = out.parts().size();  // where this call's parts begin
  // Resources the namespace's own values (given now or before) override.
  for (const auto& r : s.resources.view()) {
    if (!HasKey(info, r.key) && !out.Has(r.key)) out.Borrow(r);
  }
  PMIX_RETURN_IF_ERROR(AddHostArray(s, info, out));
  // The server's own keys (server_identity.h), where the host gave none.
  auto server_keys = ServerKeys(s);
  PMIX_RETURN_IF_ERROR(server_keys.status());
  wire::Infos missing;
  for (const auto& k : server_keys->view()) {
    if (!out.Has(k.key, first)) PMIX_RETURN_IF_ERROR(missing.Append(k));
  }
  // Node ranks count every job's processes on this node (derive.h): this
  // job's local processes come after those of the namespaces registered
  // before it. A re-registration keeps the offset it was first given.
  if (!again) {
    uint32_t offset = 0;
    for (const auto& [other, ns] : s.nspaces) {
      size_t local = ns.summary.local_ranks.size();
      offset += static_cast<uint32_t>(local > 0 ? local : static_cast<size_t>(ns.nlocalprocs));
    }
    if (offset > 0)
      PMIX_RETURN_IF_ERROR(missing.Add(jobinfo::kNodeRankOffsetKey, &offset, PMIX_UINT32));
  }
  out.Adopt(std::move(missing));
  return out;
}

Result<InfoAssembly> RegisteredSoFar(const Server& s, const std::string& name) {
  InfoAssembly out;
  PMIX_RETURN_IF_ERROR(AddRegistered(s, name, out));
  return out;
}

}  // namespace pmix::server
