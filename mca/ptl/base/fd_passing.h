// Descriptor passing on Unix-domain stream sockets (SCM_RIGHTS): one
// sendmsg() with descriptors attached to its first byte, one recvmsg()
// collecting the descriptors that came (close-on-exec). General: frames
// (frame.h) use it, and so can anything else that shares descriptors with
// a local peer. TCP sockets cannot carry descriptors: callers ask
// CanPassFds() first and send the data inline to such peers.
//
// Both calls are non-blocking (MSG_DONTWAIT) and raise no SIGPIPE; they
// return what the system call returned (errno set on -1) and retry nothing.
// Any thread; one caller per socket.
#ifndef PMIXX_MCA_PTL_BASE_FD_PASSING_H
#define PMIXX_MCA_PTL_BASE_FD_PASSING_H

#include <sys/types.h>
#include <sys/uio.h>

#include <cstdint>
#include <span>
#include <vector>

#include "mca/ptl/base/fd.h"

namespace pmix::ptl {

// Whether descriptors can travel on socket fd (a Unix-domain socket).
bool CanPassFds(int fd);

// Sends iov with fds (borrowed, not closed; empty: a plain send) attached.
// Returns the bytes sent (the descriptors went with them when > 0) or -1.
ssize_t SendWithFds(int fd, std::span<const iovec> iov, std::span<const int> fds);

// Receives into buffer. Descriptors that arrived are appended to *fds
// (owned, close-on-exec); *truncated is set when the peer sent more than
// max_fds or the control data was cut (the descriptors beyond were closed
// by the kernel: the stream is then to be treated as bad). Returns the
// bytes received, 0 at end of stream, or -1.
ssize_t RecvWithFds(int fd, std::span<uint8_t> buffer, size_t max_fds, std::vector<Fd>* fds,
                    bool* truncated);

}  // namespace pmix::ptl

#endif  // PMIXX_MCA_PTL_BASE_FD_PASSING_H
