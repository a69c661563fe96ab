// The pnet framework spec and its use by the server (pnet_base.h).
#include "mca/pnet/base/pnet_base.h"

#include <cstring>

#include "mca/base/framework.h"
#include "mca/base/framework_registry.h"
#include "pmix.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"

namespace pmix::pnet {
namespace {

const mca::FrameworkSpec kSpec = {
    "pnet",
    PMIX_PNET_INTERFACE_MAJOR,
    PMIX_PNET_INTERFACE_MINOR,
    true,
    "Fabric support: fabric descriptions and per-job network setup",
    {},
};
const mca::KnownFramework kKnown(kSpec);

Result<std::span<const mca::SelectedModule>> Modules() {
  mca::Framework& framework = mca::GetFramework(kSpec);
  PMIX_RETURN_IF_ERROR(framework.Ensure());
  return framework.Selected();
}

const pmix_pnet_module_t* AsPnet(const mca::SelectedModule& m) {
  return static_cast<const pmix_pnet_module_t*>(m.module);
}

// Takes a module's malloc'd answer into `out` (copies) and frees it.
Status Adopt(pmix_info_t* array, size_t n, wire::Infos& out) {
  Status status;
  for (size_t i = 0; i < n && status.ok(); ++i) status = out.Append(array[i]);
  if (array != nullptr) PMIx_Info_free(array, n);
  return status;
}

using JobHook = pmix_status_t (*)(const char*, const pmix_info_t[], size_t, pmix_info_t**, size_t*);

Result<wire::Infos> EveryModule(JobHook pmix_pnet_module_t::*hook, const std::string& nspace,
                                std::span<const pmix_info_t> info) {
  auto modules = Modules();
  PMIX_RETURN_IF_ERROR(modules.status());
  wire::Infos out;
  for (const mca::SelectedModule& selected : *modules) {
    const pmix_pnet_module_t* m = AsPnet(selected);
    if (m->*hook == nullptr) continue;
    pmix_info_t* array = nullptr;
    size_t n = 0;
    pmix_status_t rc = (m->*hook)(nspace.c_str(), info.data(), info.size(), &array, &n);
    if (rc == PMIX_ERR_NOT_SUPPORTED) continue;
    if (rc != PMIX_SUCCESS) {
      output::Error("pnet", "%s: job %s: %s", m->name, nspace.c_str(), PMIx_Error_string(rc));
      return Status(rc);
    }
    PMIX_RETURN_IF_ERROR(Adopt(array, n, out));
  }
  return out;
}

}  // namespace

Result<wire::Infos> FabricInfo(std::span<const pmix_info_t> directives) {
  auto modules = Modules();
  PMIX_RETURN_IF_ERROR(modules.status());
  auto plane = InfoString(directives, PMIX_FABRIC_PLANE);
  bool named_found = false;
  for (const mca::SelectedModule& selected : *modules) {
    const pmix_pnet_module_t* m = AsPnet(selected);
    if (plane && *plane != m->name) continue;
    named_found = true;
    if (m->fabric_info == nullptr) continue;
    pmix_info_t* array = nullptr;
    size_t n = 0;
    pmix_status_t rc = m->fabric_info(directives.data(), directives.size(), &array, &n);
    if (rc == PMIX_ERR_NOT_SUPPORTED) continue;
    if (rc != PMIX_SUCCESS) return Status(rc);
    wire::Infos out;
    PMIX_RETURN_IF_ERROR(out.Add(PMIX_FABRIC_PLANE, m->name, PMIX_STRING));
    PMIX_RETURN_IF_ERROR(Adopt(array, n, out));
    return out;
  }
  return Status(plane && !named_found ? PMIX_ERR_NOT_FOUND : PMIX_ERR_NOT_SUPPORTED);
}

Result<wire::Infos> SetupApplication(const std::string& nspace, std::span<const pmix_info_t> info) {
  return EveryModule(&pmix_pnet_module_t::setup_application, nspace, info);
}

Result<wire::Infos> SetupLocalSupport(const std::string& nspace,
                                      std::span<const pmix_info_t> info) {
  return EveryModule(&pmix_pnet_module_t::setup_local_support, nspace, info);
}

void DeregisterNspace(const std::string& nspace) {
  // Not opened here: a framework never opened has no module that saw the
  // namespace, and opening it would scan every component directory at
  // each deregistration of a job that used no fabric support.
  for (const mca::SelectedModule& selected : mca::GetFramework(kSpec).Selected()) {
    const pmix_pnet_module_t* m = AsPnet(selected);
    if (m->deregister_nspace != nullptr) m->deregister_nspace(nspace.c_str());
  }
}

}  // namespace pmix::pnet
