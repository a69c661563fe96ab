// pmixrun's `group` upcall (pmix_server.h, standard §17.3.29). Every process
// runs on this node, so the server library hands up a group construct or
// destruct only when it needs the host: for a context id. A construct
// asking for PMIX_GROUP_ASSIGN_CONTEXT_ID gets the next value of one counter
// shared by every job pmixrun runs (unique in its session, the default
// PMIX_RANGE); the reply names the membership as given and hands back the
// PMIX_GROUP_ENDPT_DATA it was given (this node's is all there is). A
// PMIX_LOCAL_COLLECTIVE_STATUS error is returned as the operation's status.
//
// Threads: the upcall runs on the server's progress thread and completes
// before it returns.
#ifndef PMIXX_TOOLS_PMIXRUN_HOST_GROUP_H
#define PMIXX_TOOLS_PMIXRUN_HOST_GROUP_H

#include "pmix_server.h"

namespace pmixrun {

void FillGroupModule(pmix_server_module_t* module);

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_HOST_GROUP_H
