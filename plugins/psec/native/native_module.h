// The native psec module: the kernel vouches for the peer of a Unix-domain
// socket (SO_PEERCRED), so the credential is empty and validation reads
// the peer's uid/gid from the connection itself.
//
// validate_cred: fd < 0, a non-socket or a non-AF_UNIX socket is
// PMIX_ERR_NOT_SUPPORTED whatever the credential (nothing to ask the kernel;
// another module, e.g. munge over tcp or for PMIx_Validate_credential, must
// judge); then a non-empty credential is PMIX_ERR_INVALID_CRED (native
// never makes one: it came from another module); a peer whose uid/gid
// differ from PMIX_USERID / PMIX_GRPID in the directives is
// PMIX_ERR_NO_PERMISSIONS. Thread-safe, stateless.
#ifndef PMIXX_PLUGINS_PSEC_NATIVE_NATIVE_MODULE_H
#define PMIXX_PLUGINS_PSEC_NATIVE_NATIVE_MODULE_H

#include "pmix/mca/psec.h"

namespace pmix::psec::native {

extern const pmix_psec_module_t kModule;

// Where verbose output goes (nullptr: nowhere); set by open().
void Configure(const pmix_mca_services_t* services);

}  // namespace pmix::psec::native

#endif  // PMIXX_PLUGINS_PSEC_NATIVE_NATIVE_MODULE_H
