// pmixrun's publish / lookup / unpublish upcalls: the datastore of
// pubsub_store.h behind a mutex.
//
// The upcalls run on the server library's progress thread and never block:
// publish and unpublish complete in the call (PMIX_OPERATION_SUCCEEDED or
// the error); a lookup answers through its callback, at once or, when it
// asks to wait (PMIX_WAIT: bool, or int n = wait for n keys, 0 = all),
// when a publish satisfies it, when its PMIX_TIMEOUT (seconds) passes
// (PMIX_ERR_TIMEOUT; a timer thread of this file, started on first need
// and joined at exit), or when its requester goes (PubsubProcGone). The
// requester's identity is the proc the library names and the PMIX_USERID /
// PMIX_GRPID it adds; PMIX_RANGE, PMIX_PERSISTENCE and
// PMIX_ACCESS_PERMISSIONS (PMIX_ACCESS_USERIDS / _GRPIDS arrays of uint32)
// are the directives; every other info of a publish whose key does not
// start with "pmix" is data.
#ifndef PMIXX_TOOLS_PMIXRUN_HOST_PUBSUB_H
#define PMIXX_TOOLS_PMIXRUN_HOST_PUBSUB_H

#include <string>

#include "pmix_server.h"

namespace pmixrun {

// Sets module->publish, ->lookup and ->unpublish.
void FillPubsubModule(pmix_server_module_t* module);

// A process of the job finalized or ended: its PMIX_PERSIST_PROC data
// goes and its waiting lookups end. Any thread.
void PubsubProcGone(const std::string& nspace, pmix_rank_t rank);
// A namespace ended (for launchers of several jobs): also its
// PMIX_PERSIST_APP data goes. Any thread.
void PubsubJobGone(const std::string& nspace);

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_HOST_PUBSUB_H
