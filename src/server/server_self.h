// The data API for a process that is only a server (mpirun, orted,
// slurmstepd call PMIx_Get / PMIx_Store_internal on their own store):
// what src/client/ uses when no client role is initialised.
//
// Threads: any (each call posts to the progress thread and waits, except
// StoreInternal, which only posts).
#ifndef PMIXX_SRC_SERVER_SERVER_SELF_H
#define PMIXX_SRC_SERVER_SERVER_SELF_H

#include <memory>
#include <string>

#include "pmix_common.h"
#include "src/common/status.h"
#include "src/wire/buffer.h"

namespace pmix::server {

// True when the process holds the server role and neither the client nor
// the tool role.
bool ServerOnly();

// Stores kv (one info) under proc in the server's store (PROC realm,
// PMIX_INTERNAL scope), after everything posted before.
Status StoreInternal(const pmix_proc_t& proc, std::shared_ptr<wire::Infos> kv);

// A key of proc (NULL, or an empty nspace: the server's own process) from
// the server's store: its PROC realm, then its namespace's JOB realm; an
// empty key = every PROC-realm key of proc as a PMIX_DATA_ARRAY of
// PMIX_INFO. About the server's own process, and PMIX_PROCID whatever the
// proc, the server answers itself (server_identity.h SelfValue) before its
// store. The value is malloc'd (PMIX_VALUE_RELEASE).
Result<pmix_value_t*> Get(const pmix_proc_t* proc, const std::string& key);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_SELF_H
