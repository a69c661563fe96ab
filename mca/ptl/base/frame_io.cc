// Blocking-with-deadline frame I/O over poll().
#include "mca/ptl/base/frame_io.h"

#include "mca/ptl/base/fd_passing.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <algorithm>
#include <array>
#include <cerrno>

namespace pmix::ptl {
namespace {

using Clock = std::chrono::steady_clock;

// Bytes asked of recv() at a time; the reader keeps any surplus.
constexpr size_t kRecvChunk = 16 * 1024;

// Waits until fd reports `events` (or an error/hangup, which the next
// send/recv turns into a status), or the deadline passes.
Status WaitFor(int fd, short events, Clock::time_point deadline) {
  while (true) {
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return PMIX_ERR_TIMEOUT;
    pollfd pfd{fd, events, 0};
    int n = ::poll(&pfd, 1, static_cast<int>(std::min<long long>(left.count(), 1 << 30)));
    if (n > 0) return Status();
    if (n < 0 && errno != EINTR) return PMIX_ERR_LOST_CONNECTION;
  }
}

bool Retryable(int err) { return err == EAGAIN || err == EWOULDBLOCK || err == EINTR; }

// Advances the iovec pair past `sent` bytes.
void Consume(std::array<iovec, 2>& iov, size_t& first, size_t sent) {
  while (sent > 0 && first < iov.size()) {
    size_t n = std::min(sent, iov[first].iov_len);
    iov[first].iov_base = static_cast<char*>(iov[first].iov_base) + n;
    iov[first].iov_len -= n;
    sent -= n;
    if (iov[first].iov_len == 0) ++first;
  }
  while (first < iov.size() && iov[first].iov_len == 0) ++first;
}

}  // namespace

Status SendFrame(int fd, const Frame& frame, std::chrono::milliseconds timeout) {
  auto header = EncodeFrameHeader(frame.flags, frame.type, frame.tag, frame.payload.size(),
                                  frame.fds.size());
  PMIX_RETURN_IF_ERROR(header.status());
  std::vector<int> fds;
  for (const Fd& d : frame.fds) fds.push_back(d.get());
  if (!fds.empty() && !CanPassFds(fd)) return PMIX_ERR_NOT_SUPPORTED;
  Clock::time_point deadline = Clock::now() + timeout;
  std::array<iovec, 2> iov = {
      iovec{header->data(), header->size()},
      iovec{const_cast<uint8_t*>(frame.payload.data()), frame.payload.size()}};
  size_t first = 0;
  Consume(iov, first, 0);
  while (first < iov.size()) {
    // The descriptors go with the first bytes that leave (frame.h).
    ssize_t n = SendWithFds(fd, std::span<const iovec>(&iov[first], iov.size() - first), fds);
    if (n > 0) fds.clear();
    if (n >= 0) {
      Consume(iov, first, static_cast<size_t>(n));
    } else if (Retryable(errno)) {
      PMIX_RETURN_IF_ERROR(WaitFor(fd, POLLOUT, deadline));
    } else {
      return PMIX_ERR_LOST_CONNECTION;
    }
  }
  return Status();
}

Result<Frame> RecvFrame(int fd, FrameReader& reader, std::chrono::milliseconds timeout) {
  Clock::time_point deadline = Clock::now() + timeout;
  std::array<uint8_t, kRecvChunk> buffer;
  while (true) {
    if (std::optional<Frame> frame = reader.Pop()) return std::move(*frame);
    PMIX_RETURN_IF_ERROR(reader.status());
    std::vector<Fd> fds;
    bool truncated = false;
    ssize_t n = RecvWithFds(fd, buffer, reader.max_fds(), &fds, &truncated);
    if (n > 0) {
      // An error is picked up at the top of the loop, after frames that
      // completed before it.
      if (truncated) reader.Fail(PMIX_ERR_BAD_PARAM);
      (void)reader.Feed(std::span<const uint8_t>(buffer.data(), static_cast<size_t>(n)),
                        std::move(fds));
    } else if (n == 0) {
      return Status(PMIX_ERR_LOST_CONNECTION);
    } else if (Retryable(errno)) {
      PMIX_RETURN_IF_ERROR(WaitFor(fd, POLLIN, deadline));
    } else {
      return Status(PMIX_ERR_LOST_CONNECTION);
    }
  }
}

}  // namespace pmix::ptl
