// Tools feeding the job's stdin (standard §18.3.2, PMIx_IOF_push; the
// server's push_stdin upcall). Which processes have a stdin pipe is the
// job's choice (JobLayout::stdin_target: pmixrun --tool-stdin for the
// primary job, PMIX_FWD_STDIN for a spawned one); the others read
// /dev/null.
//
// A push names targets (a rank, or PMIX_RANK_WILDCARD for every process of
// a job that has a pipe): its data is appended to each target's pending
// input, PMIX_IOF_COMPLETE closes the pipe once that is written. The
// push completes (its cbfunc) when every target has at most kStdinHighWater
// bytes pending, so a process that does not read holds the tool back
// rather than filling pmixrun's memory. No target with a pipe:
// PMIX_ERR_NOT_SUPPORTED; an unknown namespace: PMIX_ERR_NOT_FOUND. A
// process that ended takes nothing more (its pending input is dropped and
// the pushes waiting on it complete).
//
// Threads: the upcall runs on the server's progress thread and only queues
// (then rings the doorbell, wakeup.h); the rest is the main thread's.
#ifndef PMIXX_TOOLS_PMIXRUN_STDIN_FEED_H
#define PMIXX_TOOLS_PMIXRUN_STDIN_FEED_H

#include <cstddef>

#include "pmix_server.h"
#include "src/tools/pmixrun/jobs.h"

namespace pmixrun {

inline constexpr size_t kStdinHighWater = size_t{1} << 20;

void FillStdinModule(pmix_server_module_t* module);

// Applies the pushes that came in since the last call.
void ApplyPushes(JobTable& jobs);
// Writes what the pipe takes of `child`'s pending input (when it is
// writable); closes the pipe at the end of the stream or when the process
// is gone; completes the pushes that no longer wait.
void FeedStdin(Child* child);
// Whether `child`'s stdin wants POLLOUT.
bool WantsToFeed(const Child& child);

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_STDIN_FEED_H
