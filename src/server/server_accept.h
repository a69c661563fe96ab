// Accepting connections, and the limits that hold before a peer has
// authenticated (docs/security.md): anyone who can reach a listener gets
// a few KiB of the server and a bounded time, never more.
//
// - A new connection may send one frame of at most ptl_base_max_hello_size
//   bytes (the hello); a larger header closes it at once.
// - At most ptl_base_max_unauthenticated connections wait for their hello
//   at a time; at the limit the server stops accepting (the rest wait in
//   the kernel's backlog, nobody is refused) until one of them leaves.
// - A connection that has not sent its hello after ptl_base_hello_timeout
//   is closed.
// - When accept() fails for lack of descriptors or memory (EMFILE, ENFILE,
//   ENOBUFS, ENOMEM) the server stops watching its listeners and retries
//   after a back-off (100 ms doubling to 2 s) instead of being woken for
//   the same pending connection again and again.
// A peer that hits a limit is logged through output::PeerError (at most a
// few lines a minute). All of this runs on the progress thread.
#ifndef PMIXX_SRC_SERVER_SERVER_ACCEPT_H
#define PMIXX_SRC_SERVER_SERVER_ACCEPT_H

#include <chrono>
#include <memory>
#include <span>

#include "mca/ptl/base/ptl_base.h"
#include "src/common/status.h"
#include "src/runtime/progress.h"
#include "src/wire/connection.h"

namespace pmix::server {

struct Server;

// The accept loop's state (one per server).
struct AcceptState {
  ptl::Limits limits;
  bool stopped = false;                // shut down: never resume
  bool full = false;                   // paused: too many unauthenticated
  std::unique_ptr<runtime::ProgressEngine::Timer> retry;  // paused: out of descriptors
  std::chrono::milliseconds backoff{0};
  size_t resource_failures = 0;        // accept() failures for lack of resources
};

// Opens the listeners (ptl::Listen with info and the server's tmpdir) and
// starts accepting. Errors: ptl::Listen's, PMIX_ERR_OUT_OF_RESOURCE when a
// listener cannot be watched.
Status StartListening(Server& s, std::span<const pmix_info_t> info);

// Stops accepting for good (shutdown; the listeners stay open until
// s.listeners is cleared).
void StopAccepting(Server& s);

// A connection leaves the set of those waiting for their hello (it said
// hello, or closed): accepting resumes if it was paused for their number.
void ForgetGreeting(Server& s, const std::shared_ptr<wire::Connection>& conn);

// A peer is admitted: it may now send messages of the connected size, and
// each is decoded within the connected budget.
void GrantConnectedLimits(const Server& s, wire::Connection& conn);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_ACCEPT_H
