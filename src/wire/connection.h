// One established peer connection (client <-> server) on the progress
// thread: framed messages in both directions, request/reply matching by
// tag, and a single close notification.
//
// Threads: everything here runs on the progress thread (DESIGN §5); create
// it there, after the handshake (which uses blocking frame I/O). The one
// exception is SendNow, which any thread may call: a blocking caller
// writes its small request itself instead of waking the progress thread
// to do it (every write to the socket, and every change of the queue of
// frames to write, holds io_mu_).
//
// Messages: Send() queues one frame; a reply carries kFlagReply and the
// request's tag. Request() allocates a tag and calls on_reply exactly once:
// with the reply frame, or with an error status when the connection closes
// first (PMIX_ERR_LOST_CONNECTION) -- nothing waits forever on a dead peer.
// Frames that are not replies go to the message handler. A malformed or
// oversize frame closes this connection only (frame.h). on_close runs once,
// after every pending request was failed.
//
// Descriptors: on a Unix socket a frame may carry up to kMaxFrameFds of
// them (ptl/base/fd_passing.h). Sending: SendWithFds takes ownership of
// the descriptors (pass dups of what you keep) and closes them once they
// are on the socket; on a socket that cannot carry them it fails with
// PMIX_ERR_NOT_SUPPORTED (send the data inline to such peers).
// Receiving: the reader given to Create says how many a frame may bring
// (FrameReader max_fds; 0: none); they arrive close-on-exec in the frame's
// fds, owned by whoever takes the frame. A peer sending descriptors the
// reader does not accept closes the connection (and they are closed).
#ifndef PMIXX_SRC_WIRE_CONNECTION_H
#define PMIXX_SRC_WIRE_CONNECTION_H

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "mca/ptl/base/fd.h"
#include "mca/ptl/base/frame.h"
#include "pmix/mca/bfrops.h"
#include "src/common/status.h"
#include "src/runtime/progress.h"
#include "src/wire/buffer.h"

namespace pmix::wire {

inline constexpr uint8_t kFlagReply = 0x01;

// A message body sent in two parts: `head`, owned by the message, then
// `tail`, read-only bytes that several messages may share (a collective's
// result goes to every participant) and that are written to the socket
// from where they are, without a copy. Either part may be empty.
struct Body {
  Body() = default;
  Body(Bytes h) : head(std::move(h)) {}  // NOLINT: a plain body converts
  Body(Bytes h, std::shared_ptr<const Bytes> t) : head(std::move(h)), tail(std::move(t)) {}
  size_t size() const { return head.size() + (tail != nullptr ? tail->size() : 0); }

  Bytes head;
  std::shared_ptr<const Bytes> tail;
};

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  using MessageHandler = std::function<void(ptl::Frame&& frame)>;
  using CloseHandler = std::function<void(Status why)>;
  using ReplyHandler = std::function<void(Status status, ptl::Frame&& reply)>;

  // Takes the connected, non-blocking socket; `pending` holds any bytes the
  // handshake read beyond its own frames. Codec: what the peers agreed on.
  static std::shared_ptr<Connection> Create(runtime::ProgressEngine& engine, ptl::Fd fd,
                                            ptl::FrameReader pending,
                                            const pmix_bfrops_module_t* codec);
  ~Connection();

  // Starts reading. PMIX_ERR_OUT_OF_RESOURCE when the fd cannot be watched.
  Status Start(MessageHandler on_message, CloseHandler on_close);

  // Queues one frame. PMIX_ERR_LOST_CONNECTION once closed.
  Status Send(uint16_t type, uint32_t tag, const Bytes& payload, uint8_t flags = 0) {
    return SendWithFds(type, tag, payload, {}, flags);
  }
  // Queues one frame with descriptors (see the file comment);
  // PMIX_ERR_NOT_SUPPORTED when !can_pass_fds(), PMIX_ERR_BAD_PARAM for
  // more than kMaxFrameFds. fds are closed in every case.
  Status SendWithFds(uint16_t type, uint32_t tag, const Bytes& payload, std::vector<ptl::Fd> fds,
                     uint8_t flags = 0);
  Status Reply(const ptl::Frame& request, const Bytes& payload) {
    return Send(request.type, request.tag, payload, kFlagReply);
  }
  Status ReplyWithFds(const ptl::Frame& request, const Bytes& payload,
                      std::vector<ptl::Fd> fds) {
    return SendWithFds(request.type, request.tag, payload, std::move(fds), kFlagReply);
  }
  // The same with a two-part body (the tail is kept, not copied, until
  // written), and descriptors as SendWithFds.
  Status SendBody(uint16_t type, uint32_t tag, Body body, uint8_t flags = 0,
                  std::vector<ptl::Fd> fds = {});
  Status ReplyBody(const ptl::Frame& request, Body body, std::vector<ptl::Fd> fds = {}) {
    return SendBody(request.type, request.tag, std::move(body), kFlagReply, std::move(fds));
  }
  // Sends a request and routes its reply (or the loss of the peer).
  Status Request(uint16_t type, const Bytes& payload, ReplyHandler on_reply);
  // Any thread: writes a one-way frame (no descriptors) at once, when
  // nothing is queued before it and the socket takes it. False when it
  // was not sent (closed, frames queued, the socket full, an error): the
  // caller sends it the usual way, on the progress thread. A frame the
  // socket takes only part of is sent; its rest goes first, from the
  // progress thread.
  bool SendNow(uint16_t type, uint32_t tag, const Bytes& payload);

  // Replaces the handlers (e.g. after the hello); progress thread.
  void SetHandlers(MessageHandler on_message, CloseHandler on_close) {
    on_message_ = std::move(on_message);
    on_close_ = std::move(on_close);
  }

  // Limits on what the peer may make this side hold (a server's; by
  // default none beyond the FrameReader's bound): the largest frame
  // payload read from now on (a larger one closes the connection), and the
  // memory one message may take decoded while its handler runs (a
  // wire::DecodeBudget around the message handler; SIZE_MAX for none).
  void SetMaxFrame(size_t max_payload) { reader_.set_max_payload(max_payload); }
  void SetDecodeBudget(size_t bytes) { decode_budget_ = bytes; }
  // The most bytes this side queues for a peer that does not read, behind
  // the frame being written (that one is the sender's own, whatever its
  // size): a send that leaves more queued closes the connection with
  // PMIX_ERR_OUT_OF_RESOURCE on the next turn (logged through
  // output::PeerError) and returns PMIX_ERR_LOST_CONNECTION. SIZE_MAX
  // (the default): no bound.
  void SetMaxQueued(size_t bytes) { max_queued_ = bytes; }
  // The peer has authenticated: its frames are read into a buffer of their
  // declared size at once (FrameReader::set_reserve_declared).
  void TrustPeer() { reader_.set_reserve_declared(true); }

  // Back-pressure (a sender that must not queue without bound, e.g.
  // forwarded output): the bytes queued and not yet written, and `fn` run
  // once, on the progress thread, when at most `bytes` are left queued or
  // the connection closed (at once when that is so already).
  size_t queued_bytes() const { return queued_; }
  void WhenDrained(size_t bytes, std::function<void()> fn);

  // Closes now: fails pending requests, then on_close(why). Idempotent.
  void Close(Status why);
  bool closed() const { return closed_; }
  int fd() const { return fd_.get(); }
  // Whether frames can carry descriptors here (a Unix socket, and the
  // peer can use them).
  bool can_pass_fds() const { return can_pass_fds_; }
  // This side sends the peer no descriptors from now on: it cannot use
  // them (a client without the gds module of the server's regions, which
  // then gets their bytes inline). Progress thread.
  void StopPassingFds() { can_pass_fds_ = false; }
  const pmix_bfrops_module_t* codec() const { return codec_; }
  // The server learns the codec from the peer's hello (first frame).
  void set_codec(const pmix_bfrops_module_t* codec) { codec_ = codec; }

 private:
  Connection(runtime::ProgressEngine& engine, ptl::Fd fd, ptl::FrameReader pending,
             const pmix_bfrops_module_t* codec);
  void OnReady(bool readable, bool writable);
  void ReadSome();
  void Dispatch();
  void WriteSome();
  void RunDrainWaiters();
  void PostClose(Status why);
  Status Enqueue(Bytes head, std::shared_ptr<const Bytes> tail, std::vector<ptl::Fd> fds);
  // Progress thread: what SendNow could not write goes first.
  void QueueRest(Bytes rest);

  runtime::ProgressEngine& engine_;
  ptl::Fd fd_;
  ptl::FrameReader reader_;
  const pmix_bfrops_module_t* codec_;
  std::unique_ptr<runtime::ProgressEngine::FdWatch> watch_;
  // A frame waiting to be written: the header and the body's head, then
  // the body's tail.
  struct Outgoing {
    Bytes head;                          // header and payload (or its head)
    std::shared_ptr<const Bytes> tail;   // the rest of the payload, shared
    std::vector<ptl::Fd> fds;            // sent with the first bytes, then closed
    size_t size() const { return head.size() + (tail != nullptr ? tail->size() : 0); }
  };
  bool can_pass_fds_ = false;
  // Held by every write to the socket and every change of out_, fd_,
  // closed_, broken_ and rest_pending_ (the progress thread reads them
  // without it).
  std::mutex io_mu_;
  bool rest_pending_ = false;  // SendNow left part of a frame: nothing else is written
  std::deque<Outgoing> out_;
  size_t out_offset_ = 0;  // written of out_.front()
  size_t queued_ = 0;  // bytes of out_ not yet written
  std::vector<std::pair<size_t, std::function<void()>>> drain_waiters_;
  bool want_write_ = false;
  uint32_t next_tag_ = 1;
  std::map<uint32_t, ReplyHandler> pending_;
  MessageHandler on_message_;
  CloseHandler on_close_;
  bool closed_ = false;
  bool broken_ = false;  // a write failed: Close() is posted
  size_t decode_budget_ = SIZE_MAX;
  size_t max_queued_ = SIZE_MAX;
};

}  // namespace pmix::wire

#endif  // PMIXX_SRC_WIRE_CONNECTION_H
