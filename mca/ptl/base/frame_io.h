// Whole-frame I/O on a connected stream socket, with a deadline, for the
// connection handshake (before the progress engine owns the socket) and
// for tests. Works on blocking and non-blocking sockets alike: every send
// and receive is MSG_DONTWAIT and waits in poll(); EINTR is retried; no
// SIGPIPE is raised (MSG_NOSIGNAL). Any thread; one caller per fd.
#ifndef PMIXX_MCA_PTL_BASE_FRAME_IO_H
#define PMIXX_MCA_PTL_BASE_FRAME_IO_H

#include <chrono>

#include "mca/ptl/base/frame.h"
#include "src/common/status.h"

namespace pmix::ptl {

// Writes frame (header and payload, and its descriptors -- borrowed, not
// closed -- with the first bytes) completely before timeout.
// PMIX_ERR_TIMEOUT when the deadline passes first (part of the frame may
// have been written: the connection is then unusable),
// PMIX_ERR_LOST_CONNECTION when the peer is gone, PMIX_ERR_BAD_PARAM for a
// payload over 4 GiB - 1 or more than kMaxFrameFds descriptors,
// PMIX_ERR_NOT_SUPPORTED for descriptors on a socket that cannot carry
// them (TCP): nothing is sent then.
Status SendFrame(int fd, const Frame& frame, std::chrono::milliseconds timeout);

// The next frame from fd, read through reader (which keeps any bytes read
// beyond that frame for the next call, so use one reader per connection).
// Returns a frame already complete in reader without reading. Descriptors
// that came are attached to their frame (frame.h: as many as the reader's
// max_fds allows; a peer sending others breaks the stream, and they are
// closed).
// PMIX_ERR_TIMEOUT when none completes before timeout,
// PMIX_ERR_LOST_CONNECTION on end of stream or a socket error, or the
// reader's error for a malformed stream.
Result<Frame> RecvFrame(int fd, FrameReader& reader, std::chrono::milliseconds timeout);

}  // namespace pmix::ptl

#endif  // PMIXX_MCA_PTL_BASE_FRAME_IO_H
