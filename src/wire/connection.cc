#include "src/wire/connection.h"

#include <sys/socket.h>

#include <cerrno>

#include "mca/ptl/base/fd_passing.h"
#include "src/common/output.h"

namespace pmix::wire {

std::shared_ptr<Connection> Connection::Create(runtime::ProgressEngine& engine, ptl::Fd fd,
                                               ptl::FrameReader pending,
                                               const pmix_bfrops_module_t* codec) {
  return std::shared_ptr<Connection>(
      new Connection(engine, std::move(fd), std::move(pending), codec));
}

Connection::Connection(runtime::ProgressEngine& engine, ptl::Fd fd, ptl::FrameReader pending,
                       const pmix_bfrops_module_t* codec)
    : engine_(engine),
      fd_(std::move(fd)),
      reader_(std::move(pending)),
      codec_(codec),
      can_pass_fds_(ptl::CanPassFds(fd_.get())) {}

Connection::~Connection() { watch_.reset(); }

Status Connection::Start(MessageHandler on_message, CloseHandler on_close) {
  on_message_ = std::move(on_message);
  on_close_ = std::move(on_close);
  std::weak_ptr<Connection> weak = weak_from_this();
  watch_ = engine_.WatchFd(fd_.get(), false, [weak](bool readable, bool writable) {
    if (auto self = weak.lock()) self->OnReady(readable, writable);
  });
  if (watch_ == nullptr) return PMIX_ERR_OUT_OF_RESOURCE;
  // Frames the handshake already read are delivered on the next turn.
  return engine_.Post([weak] {
    if (auto self = weak.lock()) self->Dispatch();
  });
}

Status Connection::SendWithFds(uint16_t type, uint32_t tag, const Bytes& payload,
                               std::vector<ptl::Fd> fds, uint8_t flags) {
  if (closed_ || broken_) return PMIX_ERR_LOST_CONNECTION;
  if (!fds.empty() && !can_pass_fds_) return PMIX_ERR_NOT_SUPPORTED;
  auto header = ptl::EncodeFrameHeader(flags, type, tag, payload.size(), fds.size());
  if (!header.ok()) return header.status();
  Bytes frame;
  frame.reserve(header->size() + payload.size());
  frame.insert(frame.end(), header->begin(), header->end());
  frame.insert(frame.end(), payload.begin(), payload.end());
  return Enqueue(std::move(frame), nullptr, std::move(fds));
}

Status Connection::SendBody(uint16_t type, uint32_t tag, Body body, uint8_t flags,
                            std::vector<ptl::Fd> fds) {
  if (closed_ || broken_) return PMIX_ERR_LOST_CONNECTION;
  if (!fds.empty() && !can_pass_fds_) return PMIX_ERR_NOT_SUPPORTED;
  auto header = ptl::EncodeFrameHeader(flags, type, tag, body.size(), fds.size());
  if (!header.ok()) return header.status();
  Bytes head = std::move(body.head);
  head.insert(head.begin(), header->begin(), header->end());
  if (body.tail != nullptr && body.tail->empty()) body.tail.reset();
  return Enqueue(std::move(head), std::move(body.tail), std::move(fds));
}

Status Connection::Enqueue(Bytes head, std::shared_ptr<const Bytes> tail, std::vector<ptl::Fd> fds) {
  bool first;
  {
    std::lock_guard<std::mutex> lock(io_mu_);
    out_.push_back(Outgoing{std::move(head), std::move(tail), std::move(fds)});
    queued_ += out_.back().size();
    first = out_.size() == 1;
  }
  if (first) WriteSome();  // try at once; the rest waits for POLLOUT
  if (closed_ || broken_) return PMIX_ERR_LOST_CONNECTION;
  // What waits behind the frame being written: a peer that stopped reading
  // must not make this side buffer without bound.
  size_t behind = out_.size() > 1 ? queued_ - (out_.front().size() - out_offset_) : 0;
  if (behind > max_queued_) {
    output::PeerError("ptl",
                      "closing a connection: its peer does not read what it is sent "
                      "(%zu bytes queued, ptl_base_max_send_queue is %zu)",
                      queued_, max_queued_);
    {
      std::lock_guard<std::mutex> lock(io_mu_);
      out_.clear();
      out_offset_ = 0;
      queued_ = 0;
    }
    PostClose(PMIX_ERR_OUT_OF_RESOURCE);
    return PMIX_ERR_LOST_CONNECTION;
  }
  return Status();
}

bool Connection::SendNow(uint16_t type, uint32_t tag, const Bytes& payload) {
  auto header = ptl::EncodeFrameHeader(0, type, tag, payload.size(), 0);
  if (!header.ok()) return false;
  Bytes frame;
  frame.reserve(header->size() + payload.size());
  frame.insert(frame.end(), header->begin(), header->end());
  frame.insert(frame.end(), payload.begin(), payload.end());
  std::unique_lock<std::mutex> lock(io_mu_);
  if (closed_ || broken_ || rest_pending_ || !out_.empty()) return false;
  ssize_t n;
  do {
    n = ::send(fd_.get(), frame.data(), frame.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
  } while (n < 0 && errno == EINTR);
  if (n <= 0) return false;  // nothing written: an error is the progress thread's to meet
  if (static_cast<size_t>(n) == frame.size()) return true;
  // Part of it is on the socket: nothing else may be written before the rest.
  rest_pending_ = true;
  lock.unlock();
  Bytes rest(frame.begin() + n, frame.end());
  std::weak_ptr<Connection> weak = weak_from_this();
  auto queue_rest = [weak, rest = std::move(rest)]() mutable {
    if (auto self = weak.lock()) self->QueueRest(std::move(rest));
  };
  if (!engine_.Post(std::move(queue_rest)).ok()) {
    std::lock_guard<std::mutex> relock(io_mu_);
    broken_ = true;  // the stream is cut mid-frame and nobody can finish it
  }
  return true;
}

void Connection::QueueRest(Bytes rest) {
  {
    std::lock_guard<std::mutex> lock(io_mu_);
    rest_pending_ = false;
    if (closed_) return;
    // First, ahead of any frame queued meanwhile (none of which was written).
    queued_ += rest.size();
    out_offset_ = 0;
    out_.push_front(Outgoing{std::move(rest), nullptr, {}});
  }
  WriteSome();
}

void Connection::PostClose(Status why) {
  // Closed on the next turn, not inside the caller's Send (a sender
  // iterating over peers must not see them vanish under it).
  {
    std::lock_guard<std::mutex> lock(io_mu_);
    broken_ = true;
  }
  std::weak_ptr<Connection> weak = weak_from_this();
  if (!engine_.Post([weak, why] {
        if (auto self = weak.lock()) self->Close(why);
      }).ok()) {
    Close(why);
  }
}

Status Connection::Request(uint16_t type, const Bytes& payload, ReplyHandler on_reply) {
  uint32_t tag = next_tag_++;
  if (next_tag_ == 0) next_tag_ = 1;
  pending_[tag] = std::move(on_reply);
  Status sent = Send(type, tag, payload);
  if (!sent.ok()) pending_.erase(tag);
  return sent;
}

void Connection::Close(Status why) {
  if (closed_) return;
  auto self = shared_from_this();  // handlers may drop the last owner
  watch_.reset();
  {
    std::lock_guard<std::mutex> lock(io_mu_);
    closed_ = true;
    fd_.Reset();
    out_.clear();
    queued_ = 0;
  }
  RunDrainWaiters();
  auto pending = std::move(pending_);
  pending_.clear();
  for (auto& [tag, handler] : pending) handler(PMIX_ERR_LOST_CONNECTION, ptl::Frame{});
  if (on_close_) {
    auto handler = std::move(on_close_);
    handler(why);
  }
  on_message_ = nullptr;
}

void Connection::OnReady(bool readable, bool writable) {
  auto self = shared_from_this();
  if (writable && !closed_) WriteSome();
  if (readable && !closed_) ReadSome();
}

void Connection::ReadSome() {
  uint8_t chunk[65536];
  for (int turns = 0; turns < 16 && !closed_; ++turns) {
    std::vector<ptl::Fd> fds;
    bool truncated = false;
    ssize_t n = ptl::RecvWithFds(fd_.get(), chunk, reader_.max_fds(), &fds, &truncated);
    if (n > 0) {
      if (truncated) reader_.Fail(PMIX_ERR_BAD_PARAM);
      Status fed = reader_.Feed(std::span<const uint8_t>(chunk, static_cast<size_t>(n)),
                                std::move(fds));
      Dispatch();
      if (!fed.ok()) {
        output::PeerError("ptl", "closing a connection: %s",
                          fed.code() == PMIX_ERR_BAD_PARAM
                              ? "its peer sent a frame over the size limit"
                              : "its peer sent a malformed frame header");
        Close(fed);
        return;
      }
      if (static_cast<size_t>(n) < sizeof chunk) return;
      continue;
    }
    if (n < 0 && (errno == EINTR)) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    Close(PMIX_ERR_LOST_CONNECTION);  // end of stream or a socket error
    return;
  }
}

void Connection::Dispatch() {
  while (!closed_) {
    std::optional<ptl::Frame> frame = reader_.Pop();
    if (!frame) return;
    if (frame->flags & kFlagReply) {
      auto it = pending_.find(frame->tag);
      if (it == pending_.end()) continue;  // a reply nobody waits for
      ReplyHandler handler = std::move(it->second);
      pending_.erase(it);
      handler(Status(), std::move(*frame));
    } else if (on_message_) {
      if (decode_budget_ == SIZE_MAX) {
        on_message_(std::move(*frame));
      } else {
        DecodeBudget budget(decode_budget_, frame->payload);
        on_message_(std::move(*frame));
      }
    }
  }
}

void Connection::WriteSome() {
  std::unique_lock<std::mutex> lock(io_mu_);
  bool failed = false;
  while (!out_.empty() && !closed_ && !broken_ && !rest_pending_) {
    Outgoing& front = out_.front();
    // Whatever is left of the head, then of the tail, in one call.
    iovec iov[2];
    size_t niov = 0;
    size_t tail_offset = 0;
    if (out_offset_ < front.head.size()) {
      iov[niov++] = {front.head.data() + out_offset_, front.head.size() - out_offset_};
    } else {
      tail_offset = out_offset_ - front.head.size();
    }
    if (front.tail != nullptr && tail_offset < front.tail->size())
      iov[niov++] = {const_cast<uint8_t*>(front.tail->data()) + tail_offset,
                     front.tail->size() - tail_offset};
    std::vector<int> fds;
    for (const ptl::Fd& d : front.fds) fds.push_back(d.get());
    ssize_t n = ptl::SendWithFds(fd_.get(), std::span<const iovec>(iov, niov), fds);
    // Once bytes left, the kernel holds its own references.
    if (n > 0) front.fds.clear();
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (n < 0) {
      out_.clear();
      out_offset_ = 0;
      queued_ = 0;
      failed = true;
      break;
    }
    out_offset_ += static_cast<size_t>(n);
    queued_ -= static_cast<size_t>(n);
    if (out_offset_ == front.size()) {
      out_.pop_front();
      out_offset_ = 0;
    }
  }
  bool want = !out_.empty();
  lock.unlock();
  if (failed) return PostClose(PMIX_ERR_LOST_CONNECTION);
  RunDrainWaiters();
  if (want != want_write_ && watch_ != nullptr) {
    want_write_ = want;
    watch_->SetWantWrite(want);
  }
}

void Connection::WhenDrained(size_t bytes, std::function<void()> fn) {
  if (closed_ || broken_ || queued_ <= bytes) return fn();
  drain_waiters_.emplace_back(bytes, std::move(fn));
}

void Connection::RunDrainWaiters() {
  if (drain_waiters_.empty()) return;
  std::vector<std::function<void()>> ready;
  for (auto it = drain_waiters_.begin(); it != drain_waiters_.end();) {
    if (queued_ <= it->first) {
      ready.push_back(std::move(it->second));
      it = drain_waiters_.erase(it);
    } else {
      ++it;
    }
  }
  auto self = shared_from_this();  // a waiter may drop the last owner
  for (auto& fn : ready) fn();
}

}  // namespace pmix::wire
