// Application setup (standard §17.2.11 PMIx_server_setup_application,
// §17.2.13 PMIx_server_setup_local_support).
//
// setup_application returns one PMIX_SET_ENVAR per PMIX_MCA_* variable of
// the calling process's environment (the launcher's MCA settings for our
// library, which its clients on every node must share; OpenPMIx 4.2.2
// returns the same) -- PMIX_SETUP_APP_ENVARS or PMIX_SETUP_APP_ALL ask for
// them, and so does giving neither of the three SETUP_APP directives --
// followed by what the pnet components add for the job
// (mca/pnet/base/pnet_base.h) -- asked by PMIX_SETUP_APP_NONENVARS,
// PMIX_SETUP_APP_ALL, or neither of the three. An empty array is a valid
// answer.
//
// setup_local_support receives, on each node, what setup_application
// returned (the host carries it there): its envar directives (PMIX_SET_,
// ADD_, UNSET_, PREPEND_, APPEND_, FIRST_ENVAR) are kept for the namespace
// and applied, in order, to the environment PMIx_server_setup_fork gives
// each of its clients; repeated calls (one per application) add to them.
// The pnet components see the whole array too and add the envar
// directives their fabric needs (after the host's). Other infos are
// accepted and ignored. They are dropped when the namespace is
// deregistered (the pnet components are told) and at server finalize.
//
// Threads: LocalSupportEnv may be called on any thread, also in a child
// forked by a multithreaded host (fork handlers keep the lock usable
// there); the hooks run on the progress thread.
#ifndef PMIXX_SRC_SERVER_SERVER_APP_SETUP_H
#define PMIXX_SRC_SERVER_SERVER_APP_SETUP_H

#include <string_view>

#include "pmix_common.h"
#include "src/common/status.h"

namespace pmix::server {

// Applies the namespace's local-support envar directives to *env (the
// array PMIx_server_setup_fork grows). Nothing to apply is success.
Status ApplyLocalSupportEnv(std::string_view nspace, char*** env);

// Hooks for the core (server_registry.cc, server.cc).
void AppSetupOnNamespaceGone(std::string_view nspace);
void AppSetupShutdown();

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_APP_SETUP_H
