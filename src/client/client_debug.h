// Stopping in PMIx_Init for a debugger (standard §18.4: PMIX_DEBUG_STOP_IN_INIT).
//
// A launcher that was asked to stop a job's processes in PMIx_Init puts
// PMIX_DEBUG_STOP_IN_INIT in the job's data (rank wildcard). After a
// client's first successful PMIx_Init has its job data, StopInInit looks
// for it and, when it names this process, registers a handler for
// PMIX_DEBUGGER_RELEASE, tells the host PMIX_READY_FOR_DEBUG (range
// PMIX_RANGE_RM, source the process, with PMIX_BREAKPOINT "pmix-init" and
// PMIX_EVENT_NON_DEFAULT, as OpenPMIx does) and waits until the release
// arrives; only then does PMIx_Init return. Without the key it returns at
// once. The wait has no time limit (a debugger decides when), but ends
// with PMIX_ERR_LOST_CONNECTION if the server goes away.
//
// Threads: StopInInit runs on the application's thread, never on the
// progress thread; with PMIX_EXTERNAL_PROGRESS it drives the loop itself
// while it waits.
#ifndef PMIXX_SRC_CLIENT_CLIENT_DEBUG_H
#define PMIXX_SRC_CLIENT_CLIENT_DEBUG_H

#include "pmix_common.h"
#include "src/common/status.h"

namespace pmix::client {

// Whether a PMIX_DEBUG_STOP_IN_INIT (or _STOP_ON_EXEC, _STOP_IN_APP) value
// names `me`: a bool (true: every process), a rank (PMIX_RANK_WILDCARD:
// every process), a pmix_proc_t, or a PMIX_DATA_ARRAY of ranks or procs.
// A bare key (PMIX_UNDEF) reads as true. Other types name nobody.
bool DebugDirectiveNames(const pmix_value_t& value, const pmix_proc_t& me);

Status StopInInit(const pmix_proc_t& me);

}  // namespace pmix::client

#endif  // PMIXX_SRC_CLIENT_CLIENT_DEBUG_H
