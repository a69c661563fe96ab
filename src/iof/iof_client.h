// IO forwarding in a process that asks for it (a tool, a client, or a
// server process itself): PMIx_IOF_pull / PMIx_IOF_deregister /
// PMIx_IOF_push (standard §18.5.7-§18.5.9; the API in iof_api.cc).
//
// Pull: a registration here (its handle is what the API returns: the
// first is 0, as OpenPMIx's) with a Sink (iof_sink.h), then the request to
// the server the process is connected to (its primary, for a tool),
// carrying the handle, which tags every delivery; in a server process
// without such a connection, straight to its own server (in-process).
// Deregister: the sink is flushed and dropped at once (later output is
// discarded), then the server is told. Push: data (or the end of the
// stream) to the server's push_stdin; PMIX_IOF_PUSH_STDIN makes the
// library read this process's stdin and push it to the given targets, one
// chunk at a time (the next is read when the server took the previous),
// until end of file or a push with PMIX_IOF_COMPLETE (which also sends
// the end of the stream).
//
// Threads: everything here runs on the progress thread; `done` callbacks
// run there, after the API call returned.
#ifndef PMIXX_SRC_IOF_IOF_CLIENT_H
#define PMIXX_SRC_IOF_IOF_CLIENT_H

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "mca/ptl/base/frame.h"
#include "pmix/mca/bfrops.h"
#include "pmix_common.h"
#include "src/iof/iof_sink.h"
#include "src/wire/buffer.h"

namespace pmix::iof {

struct PullRequest {
  std::vector<pmix_proc_t> procs;
  pmix_iof_channel_t channels = PMIX_FWD_NO_CHANNELS;
  wire::Infos directives;
  pmix_iof_cbfunc_t cbfunc = nullptr;
};

// done(status, handle): the handle is valid only with PMIX_SUCCESS.
void StartPull(PullRequest&& req, std::function<void(pmix_status_t, size_t)> done);
void StartDeregister(size_t handle, wire::Infos&& directives, std::function<void(pmix_status_t)> done);

struct PushRequest {
  std::vector<pmix_proc_t> targets;
  wire::Infos directives;
  wire::Bytes data;
  bool has_data = false;  // a byte object was given
};
void StartPush(PushRequest&& req, std::function<void(pmix_status_t)> done);

// A kIof frame from the server (deliveries), on a connection of `codec`.
void OnIofFrame(const pmix_bfrops_module_t* codec, ptl::Frame&& frame);

// The process leaves: flushes and drops every registration, stops reading
// stdin.
void ShutdownIof();

}  // namespace pmix::iof

#endif  // PMIXX_SRC_IOF_IOF_CLIENT_H
