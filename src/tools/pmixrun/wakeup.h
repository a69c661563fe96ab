// The main loop's doorbell: one pipe written by signal handlers (the signal
// number) and by the server's upcalls on the progress thread (kUpcall).
// Install once, from the main thread, before the server starts.
#ifndef PMIXX_TOOLS_PMIXRUN_WAKEUP_H
#define PMIXX_TOOLS_PMIXRUN_WAKEUP_H

#include <cstdint>
#include <vector>

namespace pmixrun {

constexpr uint8_t kUpcall = 0;

// Creates the pipe and installs the handlers for SIGCHLD and the forwarded
// signals (SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2); SIGPIPE is ignored.
bool InstallWakeup();
// The read end, for poll().
int WakeupFd();
// Async-signal-safe; any thread.
void Ring(uint8_t what);
// Everything rung since the last call (main thread).
std::vector<uint8_t> DrainWakeup();

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_WAKEUP_H
