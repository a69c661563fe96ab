// The native psec module: the kernel vouches for the peer, so the
// credential is empty and validation reads the peer's identity from the
// connection itself: on a Unix-domain socket its uid/gid (SO_PEERCRED); on
// a TCP connection from loopback the uid owning the peer's socket in
// /proc/net/tcp{,6} and a gid chosen as plugins/psec/common/tcp_peer.h
// says (the expected gid when the uid is a member of it).
//
// validate_cred: fd < 0, a non-socket, an unconnected socket, or a socket
// that is neither AF_UNIX nor TCP from a loopback address (127.0.0.0/8,
// ::1, IPv4-mapped 127/8) is PMIX_ERR_NOT_SUPPORTED whatever the
// credential (nothing to ask the kernel; another module, e.g. munge for a
// remote tcp peer or for PMIx_Validate_credential, must judge); so is a
// loopback TCP peer whose socket the table does not show ESTABLISHED.
// Then a non-empty credential is PMIX_ERR_INVALID_CRED (native never
// makes one: it came from another module); a peer whose uid/gid differ
// from PMIX_USERID / PMIX_GRPID in the directives is
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
