// The psec framework spec, module lookup and the credential helpers.
#include "mca/psec/base/psec_base.h"

#include <cstdlib>
#include <cstring>
#include <memory>

#include "mca/base/framework.h"
#include "mca/base/framework_registry.h"
#include "src/common/output.h"

namespace pmix::psec {
namespace {

const mca::FrameworkSpec kSpec = {
    "psec",
    PMIX_PSEC_INTERFACE_MAJOR,
    PMIX_PSEC_INTERFACE_MINOR,
    true,
    "Security credentials: create, validate, identify the peer of a connection",
    {},
};
// Known to pmix_info before first use.
const mca::KnownFramework kKnown(kSpec);

using Modules = std::vector<const pmix_psec_module_t*>;

Result<Modules> Selected() {
  mca::Framework& framework = mca::GetFramework(kSpec);
  PMIX_RETURN_IF_ERROR(framework.Ensure());
  Modules modules;
  for (const mca::SelectedModule& selected : framework.Selected()) {
    modules.push_back(static_cast<const pmix_psec_module_t*>(selected.module));
  }
  return modules;
}

// Calls fn(name) for each ','-separated non-empty name in list until it
// returns true.
template <class Fn>
void ForEachName(std::string_view list, Fn fn) {
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view name = list.substr(0, comma);
    if (!name.empty() && fn(name)) return;
    if (comma == std::string_view::npos) return;
    list.remove_prefix(comma + 1);
  }
}

// The PMIX_CRED_TYPE directive's text; "" when absent.
Result<std::string> RequestedTypes(std::span<const pmix_info_t> directives) {
  for (const pmix_info_t& info : directives) {
    if (std::strncmp(info.key, PMIX_CRED_TYPE, PMIX_MAX_KEYLEN) != 0) continue;
    if (info.value.type != PMIX_STRING) return Status(PMIX_ERR_BAD_PARAM);
    return std::string(info.value.data.string != nullptr ? info.value.data.string : "");
  }
  return std::string();
}

// The fallbacks' candidates (see the header).
Result<Modules> Candidates(std::span<const pmix_info_t> directives) {
  auto requested = RequestedTypes(directives);
  PMIX_RETURN_IF_ERROR(requested.status());
  auto selected = Selected();
  PMIX_RETURN_IF_ERROR(selected.status());
  Modules candidates;
  if (!requested->empty()) {
    ForEachName(*requested, [&](std::string_view name) {
      if (const pmix_psec_module_t* module = ByName(name)) candidates.push_back(module);
      return false;
    });
    return candidates;
  }
  for (size_t i = 0; i < selected->size(); ++i) {
    const pmix_psec_module_t* module = (*selected)[i];
    if (i == 0 || std::strcmp(module->name, "none") != 0) candidates.push_back(module);
  }
  return candidates;
}

pmix_byte_object_t View(std::span<const char> cred) {
  pmix_byte_object_t bo;
  bo.bytes = const_cast<char*>(cred.data());  // validate_cred takes it as const
  bo.size = cred.size();
  return bo;
}

}  // namespace

Result<std::vector<std::string>> SelectedNames() {
  auto selected = Selected();
  PMIX_RETURN_IF_ERROR(selected.status());
  std::vector<std::string> names;
  for (const pmix_psec_module_t* module : *selected) names.emplace_back(module->name);
  return names;
}

const pmix_psec_module_t* ByName(std::string_view name) {
  auto selected = Selected();
  if (!selected.ok()) return nullptr;
  for (const pmix_psec_module_t* module : *selected) {
    if (name == module->name) return module;
  }
  return nullptr;
}

const pmix_psec_module_t* Default() {
  auto selected = Selected();
  return selected.ok() && !selected->empty() ? selected->front() : nullptr;
}

const pmix_psec_module_t* Choose(std::string_view offered) {
  if (offered.empty()) return Default();
  const pmix_psec_module_t* chosen = nullptr;
  ForEachName(offered, [&](std::string_view name) {
    chosen = ByName(name);
    return chosen != nullptr;
  });
  return chosen;
}

Result<Bytes> CreateCredential(const pmix_psec_module_t& module,
                               std::span<const pmix_info_t> directives) {
  pmix_byte_object_t cred{nullptr, 0};
  pmix_status_t rc = module.create_cred(directives.data(), directives.size(), &cred);
  if (rc != PMIX_SUCCESS) return Status(rc);
  std::unique_ptr<char, decltype(&std::free)> owned(cred.bytes, &std::free);
  if (cred.bytes == nullptr) return Bytes();
  return Bytes(cred.bytes, cred.bytes + cred.size);
}

Result<PeerIds> ValidateCredential(std::string_view name, int fd, std::span<const char> cred,
                                   std::span<const pmix_info_t> directives) {
  const pmix_psec_module_t* module = ByName(name);
  if (module == nullptr) {
    output::Verbose("psec", 1, "psec: a peer used module '%.*s', which is not selected here",
                    static_cast<int>(name.size()), name.data());
    return Status(PMIX_ERR_NOT_SUPPORTED);
  }
  pmix_byte_object_t bo = View(cred);
  uid_t uid = 0;
  gid_t gid = 0;
  pmix_status_t rc =
      module->validate_cred(fd, &bo, directives.data(), directives.size(), &uid, &gid);
  if (rc != PMIX_SUCCESS) return Status(rc);
  return PeerIds{uid, gid};
}

Result<Credential> GetCredentialFallback(std::span<const pmix_info_t> directives) {
  auto candidates = Candidates(directives);
  PMIX_RETURN_IF_ERROR(candidates.status());
  Status first_error = Status(PMIX_ERR_NOT_SUPPORTED);
  for (const pmix_psec_module_t* module : *candidates) {
    auto bytes = CreateCredential(*module, directives);
    if (bytes.ok() && !bytes->empty()) return Credential{module->name, std::move(*bytes)};
    if (!bytes.ok() && first_error.code() == PMIX_ERR_NOT_SUPPORTED) first_error = bytes.status();
  }
  return first_error;
}

Result<PeerIds> ValidateCredentialFallback(std::span<const char> cred,
                                           std::span<const pmix_info_t> directives) {
  auto candidates = Candidates(directives);
  PMIX_RETURN_IF_ERROR(candidates.status());
  for (const pmix_psec_module_t* module : *candidates) {
    auto ids = ValidateCredential(module->name, -1, cred, directives);
    if (ids.status().code() != PMIX_ERR_NOT_SUPPORTED) return ids;
  }
  return Status(PMIX_ERR_NOT_SUPPORTED);
}

}  // namespace pmix::psec
