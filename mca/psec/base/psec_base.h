// The psec framework as the rest of the library uses it: the connection
// handshake (issue 4's server and client) and the fallbacks behind
// PMIx_Get_credential / PMIx_Validate_credential when the host provides
// neither.
//
// Multi-select (include/pmix/mca/psec.h is the module interface): every
// available component, highest priority first -- native (100), munge (50,
// when built), none (0) -- or the PMIX_MCA_psec list in its order.
//
// Every function ensures the framework first (its error is returned, or
// nullptr for the lookups), is thread-safe, and writes nothing on failure.
// Modules returned are immutable and valid until process exit.
#ifndef PMIXX_MCA_PSEC_BASE_PSEC_BASE_H
#define PMIXX_MCA_PSEC_BASE_PSEC_BASE_H

#include <sys/types.h>

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmix/mca/psec.h"
#include "src/common/status.h"

namespace pmix::psec {

struct PeerIds {
  uid_t uid;
  gid_t gid;
};

using Bytes = std::vector<char>;

struct Credential {
  std::string type;  // the module that made it (PMIX_CRED_TYPE)
  Bytes bytes;
};

// The selected modules' names, in selection order (what a server offers
// its clients as PMIX_SECURITY_MODE, joined with ',').
Result<std::vector<std::string>> SelectedNames();

// The selected module called name, or nullptr (not selected, or the
// framework failed to open).
const pmix_psec_module_t* ByName(std::string_view name);

// The first selected module, or nullptr.
const pmix_psec_module_t* Default();

// A client's choice: the first name in `offered` (a ','-separated list, in
// the server's order) that is selected here; nullptr when none is. An
// empty `offered` means the server said nothing: Default().
const pmix_psec_module_t* Choose(std::string_view offered);

// module.create_cred, the malloc'd bytes moved into a Bytes.
Result<Bytes> CreateCredential(const pmix_psec_module_t& module,
                               std::span<const pmix_info_t> directives);

// The selected module called name validates cred received over fd (-1:
// none); PMIX_ERR_NOT_SUPPORTED when no such module is selected, else the
// module's verdict (psec.h). Directives may carry PMIX_USERID/PMIX_GRPID.
Result<PeerIds> ValidateCredential(std::string_view name, int fd, std::span<const char> cred,
                                   std::span<const pmix_info_t> directives);

// Fallbacks when the host does not implement get/validate_credential.
// Candidates: the modules named by PMIX_CRED_TYPE in the directives (a
// ','-separated string; names not selected are skipped), else the selected
// modules in order, none included only when it is the first (the user
// chose no security; otherwise an accept-all module would make any
// credential valid).
// Get: the first candidate whose credential is non-empty (an empty one
// proves nothing away from a socket). Validate: the first candidate that
// does not answer PMIX_ERR_NOT_SUPPORTED judges, with no socket (fd -1).
// PMIX_ERR_NOT_SUPPORTED when no candidate answers; PMIX_ERR_BAD_PARAM
// for a PMIX_CRED_TYPE that is not a string.
Result<Credential> GetCredentialFallback(std::span<const pmix_info_t> directives);
Result<PeerIds> ValidateCredentialFallback(std::span<const char> cred,
                                           std::span<const pmix_info_t> directives);

}  // namespace pmix::psec

#endif  // PMIXX_MCA_PSEC_BASE_PSEC_BASE_H
