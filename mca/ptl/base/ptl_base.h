// The ptl framework as the rest of the library uses it: listening,
// accepting and connecting through the selected transports.
//
// Multi-select (include/pmix/mca/ptl.h is the module interface): every
// available transport, highest priority first (usock 80, tcp 40). A server
// calls Listen() once and advertises the URIs; a client or tool calls
// Connect() with one of them. Framing (frame.h) and whole-frame I/O
// (frame_io.h) are transport-independent and live beside this file.
//
// Every function ensures the framework first and returns its error if that
// fails. Thread-safe; Listener and Fd objects belong to their user.
#ifndef PMIXX_MCA_PTL_BASE_PTL_BASE_H
#define PMIXX_MCA_PTL_BASE_PTL_BASE_H

#include <chrono>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mca/ptl/base/fd.h"
#include "pmix/mca/ptl.h"
#include "src/common/status.h"

namespace pmix::ptl {

// Default of the ptl_base_max_msg_size parameter.
inline constexpr size_t kDefaultMaxMsgSize = size_t{64} << 20;

// One listening socket of one module. Destroying it unlistens (closes the
// socket and, for usock, removes the socket file). Move-only.
class Listener {
 public:
  Listener(const pmix_ptl_module_t* module, int fd, std::string uri)
      : module_(module), fd_(fd), uri_(std::move(uri)) {}
  Listener(Listener&& other) noexcept;
  Listener& operator=(Listener&& other) noexcept;
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;
  ~Listener();

  const pmix_ptl_module_t* module() const { return module_; }
  int fd() const { return fd_; }
  const std::string& uri() const { return uri_; }

 private:
  void Unlisten();

  const pmix_ptl_module_t* module_;
  int fd_;
  std::string uri_;
};

// What a server grants a peer (the ptl_base_* parameters of the same names;
// docs/security.md explains them): before its hello is accepted, frames of
// at most max_hello_size bytes, at most max_unauthenticated such
// connections at a time, each for at most hello_timeout; once connected,
// frames of max_msg_size and max_decoded_size bytes of decoded values per
// message, and at most max_send_queue bytes queued for it unread (behind
// the message being written) before it is disconnected.
struct Limits {
  size_t max_msg_size = kDefaultMaxMsgSize;
  size_t max_hello_size = size_t{8} << 10;
  size_t max_decoded_size = size_t{64} << 20;
  size_t max_send_queue = size_t{64} << 20;
  size_t max_unauthenticated = 256;
  std::chrono::milliseconds hello_timeout{10000};
};
Result<Limits> PeerLimits();

// Asks every selected module to listen as info says (PMIX_SERVER_TMPDIR,
// PMIX_TCP_*), in selection order. A module that declines
// (PMIX_ERR_NOT_SUPPORTED) is skipped; any other module error is returned
// (with no listener left open). PMIX_ERR_NOT_SUPPORTED if none listens.
Result<std::vector<Listener>> Listen(std::span<const pmix_info_t> info);

// One pending connection on listener: a non-blocking, close-on-exec
// socket; PMIX_ERR_WOULD_BLOCK when none is pending.
Result<Fd> Accept(const Listener& listener);

// Connects to uri through the first selected module that recognises its
// scheme, within timeout (0 = the module's default). PMIX_ERR_UNREACH
// when nothing answers there, PMIX_ERR_TIMEOUT when the connection was not
// made in time, PMIX_ERR_NOT_SUPPORTED when no selected module knows the
// scheme. The socket is non-blocking and close-on-exec.
Result<Fd> Connect(std::string_view uri, std::chrono::milliseconds timeout);

}  // namespace pmix::ptl

#endif  // PMIXX_MCA_PTL_BASE_PTL_BASE_H
