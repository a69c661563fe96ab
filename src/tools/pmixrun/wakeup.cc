// The main loop's doorbell (see wakeup.h).
#include "src/tools/pmixrun/wakeup.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>

namespace pmixrun {
namespace {

int pipe_fds[2] = {-1, -1};

void OnSignal(int sig) {
  int saved = errno;
  Ring(static_cast<uint8_t>(sig));
  errno = saved;
}

}  // namespace

bool InstallWakeup() {
  if (pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0) return false;
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int sig : {SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2})
    if (sigaction(sig, &sa, nullptr) != 0) return false;
  signal(SIGPIPE, SIG_IGN);
  return true;
}

int WakeupFd() { return pipe_fds[0]; }

void Ring(uint8_t what) {
  // A full pipe already guarantees a wakeup; the byte may be dropped then,
  // so readers re-check all state (children, upcalls) on every wakeup.
  ssize_t rc;
  do {
    rc = write(pipe_fds[1], &what, 1);
  } while (rc < 0 && errno == EINTR);
}

std::vector<uint8_t> DrainWakeup() {
  std::vector<uint8_t> out;
  uint8_t buf[64];
  for (;;) {
    ssize_t n = read(pipe_fds[0], buf, sizeof buf);
    if (n > 0) {
      out.insert(out.end(), buf, buf + n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return out;
  }
}

}  // namespace pmixrun
