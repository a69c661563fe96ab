// The job's output through the PMIx server (standard §18.3): each chunk a
// process writes is handed to PMIx_server_IOF_deliver, which passes it to
// every tool or client that pulled that process's output, besides being
// written to pmixrun's own stdout/stderr (children.h). One chunk per
// stream is in flight at a time: the stream is not read again until the
// library completed the delivery, which it does only once the readers
// took the data in (server_iof.h) -- so a slow reader slows the process
// down instead of filling pmixrun's memory. The end of a stream is
// delivered as an empty chunk with PMIX_IOF_COMPLETE, which the library
// completes once the readers were sent everything: pmixrun waits for those
// before it finalizes the server (WaitEndsDelivered), so a slow tool gets
// the whole output.
//
// Threads: Deliver* on the main thread; completions on the server's
// progress thread clear the stream's flag and ring the doorbell (wakeup.h).
#ifndef PMIXX_TOOLS_PMIXRUN_IOF_FORWARD_H
#define PMIXX_TOOLS_PMIXRUN_IOF_FORWARD_H

#include <atomic>
#include <memory>
#include <string>

#include "pmix_common.h"

namespace pmixrun {

// Set while a chunk of the stream is being delivered.
using InFlight = std::shared_ptr<std::atomic<bool>>;

// channel: PMIX_FWD_STDOUT_CHANNEL or PMIX_FWD_STDERR_CHANNEL.
void DeliverChunk(const std::string& nspace, int rank, pmix_iof_channel_t channel,
                  const char* data, size_t size, const InFlight& flag);
void DeliverEnd(const std::string& nspace, int rank, pmix_iof_channel_t channel);

// Before PMIx_server_finalize: waits (at most timeout_s) until the server
// completed every end of stream, i.e. wrote all forwarded output to its
// readers (server_iof.h); false on timeout.
bool WaitEndsDelivered(int timeout_s);

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_IOF_FORWARD_H
