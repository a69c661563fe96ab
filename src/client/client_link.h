// The connection of a client or tool to a server: the hello it sends, the
// welcome it gets back (wire/protocol.h), and the process-wide client state
// that the client APIs use (client_state.h), for both roles.
//
// PMIx_Init (client.cc) connects once, as role "client", to the server
// named by its environment. PMIx_tool_init (src/tool/) connects as role
// "tool" to as many servers as it likes and installs the same Client
// state, its primary server's connection in Client::conn, so every client
// API works for a tool unchanged.
//
// Threads: MakeHello and ConnectToServer run on the caller's thread
// (blocking frame I/O, bounded by their timeout); the rest on the progress
// thread, except MarkInitialized (any thread, under the init lock of the
// role that calls it).
#ifndef PMIXX_SRC_CLIENT_CLIENT_LINK_H
#define PMIXX_SRC_CLIENT_CLIENT_LINK_H

#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "mca/ptl/base/fd.h"
#include "mca/ptl/base/frame.h"
#include "pmix.h"
#include "src/client/client_state.h"
#include "src/common/status.h"
#include "src/wire/buffer.h"
#include "src/wire/protocol.h"

namespace pmix::client {

// What the server sent back on connecting.
struct Welcome {
  const pmix_bfrops_module_t* codec = nullptr;
  pmix_proc_t server{};
  std::string hostname;
  int nlocalprocs = 0;
  std::string gds;
  // The job-data image of the client's namespace (src/wire/job_image.h);
  // nullptr for a PMIX_REGISTER_NODATA namespace and for a tool.
  std::shared_ptr<const gds::Image> image;
  std::optional<pmix_proc_t> assigned;  // a tool: its identity, as the server admitted it
};

// An accepted connection, before the progress thread takes it over.
struct Connected {
  ptl::Fd fd;
  ptl::FrameReader reader;
  Welcome welcome;
  std::string uri;  // the URI that answered
};

// A hello for `role` ("client" or "tool") naming `me` (a tool without an
// identity yet: empty nspace, rank PMIX_RANK_UNDEF), with a fresh
// credential of the psec module PMIX_SECURITY_MODE picks; a tool's
// `directives` travel packed with the codec it speaks.
Result<wire::Hello> MakeHello(const std::string& role, const pmix_proc_t& me,
                              std::span<const pmix_info_t> directives = {});

// Connects to the first of `uris` (comma-separated) that answers, says
// hello and reads the welcome, each step within `timeout`. A server that
// refuses ends the search with its status; PMIX_ERR_UNREACH (or the last
// connect error) when none answers.
Result<Connected> ConnectToServer(const wire::Hello& hello, const std::string& uris,
                                  std::chrono::milliseconds timeout);

// Progress thread: a Client for `me` with an empty cache of the store the
// welcome names (the default one without a welcome), the welcome's job-data
// image attached to it (or, without a server and for a tool, the job info
// of a job of one ingested into it).
Result<std::unique_ptr<Client>> NewClientState(const pmix_proc_t& me, const Welcome* welcome);

// Progress thread: makes `c` the process's client state (CurrentClient),
// or, with nullptr, tears the current one down (its primary connection is
// closed; a tool closes its other connections first).
void InstallClient(std::unique_ptr<Client> c);
void DestroyClient();

// The client APIs' view of initialisation (ClientInitialized, MyProc):
// set after a successful PMIx_Init or PMIx_tool_init, cleared before the
// state is destroyed.
void MarkInitialized(const pmix_proc_t& me);
void MarkFinalized();

// Routes a frame the server sent unprompted (events) on a connection whose
// codec is `codec`. For the message handler of each connection.
void OnServerMessage(const pmix_bfrops_module_t* codec, ptl::Frame&& frame);

}  // namespace pmix::client

#endif  // PMIXX_SRC_CLIENT_CLIENT_LINK_H
