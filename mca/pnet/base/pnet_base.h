// The pnet framework as the server uses it (include/pmix/mca/pnet.h is the
// module interface): fabric descriptions, and the per-job hooks of
// setup_application / setup_local_support.
//
// Every function ensures the framework first (its error is returned if
// that fails). No selected component is not an error: FabricInfo then
// answers PMIX_ERR_NOT_SUPPORTED, the job hooks add nothing. Call on the
// server's progress thread (the module contract); thread-safe otherwise.
#ifndef PMIXX_MCA_PNET_BASE_PNET_BASE_H
#define PMIXX_MCA_PNET_BASE_PNET_BASE_H

#include <span>
#include <string>

#include "pmix/mca/pnet.h"
#include "src/common/status.h"
#include "src/wire/buffer.h"

namespace pmix::pnet {

// The description of one fabric plane: the first module (by priority)
// that gives one, or the one whose name the PMIX_FABRIC_PLANE directive
// says. PMIX_ERR_NOT_SUPPORTED when none does; PMIX_ERR_NOT_FOUND when the
// named plane has no module. The answer carries PMIX_FABRIC_PLANE (the
// module's name) first.
Result<wire::Infos> FabricInfo(std::span<const pmix_info_t> directives);

// What every module adds to setup_application's answer, in priority order.
Result<wire::Infos> SetupApplication(const std::string& nspace, std::span<const pmix_info_t> info);

// The envar directives every module asks for the job's local clients.
Result<wire::Infos> SetupLocalSupport(const std::string& nspace,
                                      std::span<const pmix_info_t> info);

// Tells every selected module the namespace is gone; a framework not
// opened yet is left closed (no module saw the namespace).
void DeregisterNspace(const std::string& nspace);

}  // namespace pmix::pnet

#endif  // PMIXX_MCA_PNET_BASE_PNET_BASE_H
