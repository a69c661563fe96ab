// The debugger directives of a job (standard §18.4.6), as a spawn request
// (or pmixrun's --stop-in-init / --stop-on-exec) gives them and as pmixrun
// registers and honours them:
//
//   PMIX_DEBUG_STOP_IN_INIT      registered (rank wildcard) for the job's
//                                processes: pmixx's PMIx_Init waits there
//                                for PMIX_DEBUGGER_RELEASE (client_debug.h)
//   PMIX_DEBUG_STOP_IN_APP       registered (= PMIX_DEBUG_WAIT_FOR_NOTIFY):
//                                the application stops where it chooses
//   PMIX_DEBUG_STOP_ON_EXEC      pmixrun stops the processes on their first
//                                instruction (ptrace), leaves them stopped
//                                (SIGSTOP, detached) for a debugger, and
//                                continues them (SIGCONT) when a
//                                PMIX_DEBUGGER_RELEASE names their job
//   PMIX_DEBUGGER_DAEMONS        the job is a debugger's daemons for
//   PMIX_DEBUG_TARGET            the job (a proc; rank wildcard: all of it)
//   PMIX_DEBUG_JOB               or namespace (deprecated form) they debug;
//   PMIX_DEBUG_DAEMONS_PER_NODE  N: the job runs N daemons (one node), or
//   PMIX_DEBUG_DAEMONS_PER_PROC  N per target process on this node.
//                                Registered for the daemons:
//                                PMIX_DEBUGGER_DAEMONS, PMIX_DEBUG_TARGET
//                                and PMIX_DEBUG_JOB.
//
// The stop directives are a bool (true: every rank), a rank
// (PMIX_RANK_WILDCARD: every rank), a proc, or a PMIX_DATA_ARRAY of ranks
// or procs. Pure: any thread.
#ifndef PMIXX_TOOLS_PMIXRUN_DEBUG_DIRECTIVES_H
#define PMIXX_TOOLS_PMIXRUN_DEBUG_DIRECTIVES_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pmix_common.h"

namespace pmixrun {

// Which ranks a stop directive names ({PMIX_RANK_WILDCARD}: all).
using RankSet = std::vector<pmix_rank_t>;
bool Names(const RankSet& set, pmix_rank_t rank);

struct DebugDirectives {
  std::optional<RankSet> stop_in_init, stop_in_app, stop_on_exec;
  bool daemons = false;                 // PMIX_DEBUGGER_DAEMONS
  std::optional<pmix_proc_t> target;    // PMIX_DEBUG_TARGET / PMIX_DEBUG_JOB
  uint16_t per_node = 0, per_proc = 0;  // PMIX_DEBUG_DAEMONS_PER_NODE / _PER_PROC

  bool Any() const { return stop_in_init || stop_in_app || stop_on_exec || daemons || target; }
};

// Whether `key` is one of the directives above.
bool IsDebugDirective(const pmix_info_t& info);
// Applies one directive (IsDebugDirective); false: a value of the wrong type.
bool ApplyDebugDirective(const pmix_info_t& info, DebugDirectives* d);

// The attributes pmixrun honours (for PMIx_Register_attributes).
extern const char* const kDebugAttributes[];

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_DEBUG_DIRECTIVES_H
