// The munge psec module: credentials created and validated by munged, so
// they prove a uid/gid across hosts that share a munge key (the module for
// tcp peers, which native cannot judge).
//
// create_cred: munge_encode with no payload; the credential is the munge
// string (bytes malloc'd, size = its length, NUL not counted but present).
// PMIX_ERR_UNREACH when munged cannot be reached, PMIX_ERROR otherwise.
// validate_cred: munge_decode; a malformed, expired, rewound, replayed or
// otherwise invalid credential is PMIX_ERR_INVALID_CRED, with munge's
// reason in one log line; PMIX_ERR_UNREACH when munged cannot be reached.
// When fd is a connected Unix socket, a credential of another uid than the
// socket peer's is PMIX_ERR_NO_PERMISSIONS (gids may legitimately differ
// between the two, so only the uid is compared); so is one that does not
// match PMIX_USERID / PMIX_GRPID in the directives.
//
// Each call uses its own munge context: thread-safe. Whether munged runs is
// found out per call, not by query (a daemon may start or stop at any time).
#ifndef PMIXX_PLUGINS_PSEC_MUNGE_MUNGE_MODULE_H
#define PMIXX_PLUGINS_PSEC_MUNGE_MUNGE_MODULE_H

#include "pmix/mca/psec.h"

namespace pmix::psec::munge {

extern const pmix_psec_module_t kModule;

// The munged socket (nullptr or "": libmunge's default) and where log
// lines go (nullptr: nowhere). Called by open()/close() only, never while
// the module is in use; the string is copied.
void Configure(const pmix_mca_services_t* services, const char* socket);

}  // namespace pmix::psec::munge

#endif  // PMIXX_PLUGINS_PSEC_MUNGE_MUNGE_MODULE_H
