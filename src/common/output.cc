#include "src/common/output.h"

#include <unistd.h>

#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

namespace pmix::output {
namespace {

void Emit(std::string_view stream, const char* kind, const char* fmt,
          va_list ap) {
  char body[2048];
  std::vsnprintf(body, sizeof body, fmt, ap);
  char line[2304];
  int n = std::snprintf(line, sizeof line, "[pmix:%ld] %.*s: %s%s\n",
                        static_cast<long>(getpid()),
                        static_cast<int>(stream.size()), stream.data(), kind,
                        body);
  if (n < 0) return;
  size_t len = static_cast<size_t>(n) < sizeof line ? static_cast<size_t>(n)
                                                    : sizeof line - 1;
  // One write keeps concurrent messages from interleaving; a failed write of
  // a diagnostic has nowhere else to be reported.
  ssize_t ignored = write(STDERR_FILENO, line, len);
  (void)ignored;
}

// PeerError's budget of one stream.
struct Window {
  std::chrono::steady_clock::time_point start;
  int printed = 0;
  long suppressed = 0;
};

std::mutex g_windows_lock;
std::map<std::string, Window, std::less<>>& Windows() {
  static auto* windows = new std::map<std::string, Window, std::less<>>();  // never destroyed:
  return *windows;  // a late log line during exit must not touch a dead map
}

// Whether a PeerError line of stream may print now; *suppressed is how many
// were left out since the last one that printed.
bool TakePeerErrorSlot(std::string_view stream, long* suppressed) {
  auto now = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(g_windows_lock);
  auto& windows = Windows();
  auto it = windows.find(stream);
  if (it == windows.end()) it = windows.emplace(std::string(stream), Window{now, 0, 0}).first;
  Window& w = it->second;
  if (now - w.start >= std::chrono::seconds(kPeerErrorWindowSeconds)) {
    w.start = now;
    w.printed = 0;
  }
  if (w.printed >= kPeerErrorBurst) {
    ++w.suppressed;
    return false;
  }
  ++w.printed;
  *suppressed = w.suppressed;
  w.suppressed = 0;
  return true;
}

}  // namespace

int Verbosity(std::string_view stream) {
  std::string name = "PMIX_MCA_" + std::string(stream) + "_base_verbose";
  const char* value = std::getenv(name.c_str());
  if (value == nullptr) return 0;
  char* end = nullptr;
  long level = std::strtol(value, &end, 10);
  if (end == value || level < 0) return 0;
  return level > 100 ? 100 : static_cast<int>(level);
}

void Error(std::string_view stream, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  Emit(stream, "error: ", fmt, ap);
  va_end(ap);
}

void PeerError(std::string_view stream, const char* fmt, ...) {
  long suppressed = 0;
  if (!TakePeerErrorSlot(stream, &suppressed)) return;
  if (suppressed > 0) Error(stream, "(%ld similar messages suppressed)", suppressed);
  va_list ap;
  va_start(ap, fmt);
  Emit(stream, "error: ", fmt, ap);
  va_end(ap);
}

void Verbose(std::string_view stream, int level, const char* fmt, ...) {
  if (Verbosity(stream) < level) return;
  va_list ap;
  va_start(ap, fmt);
  Emit(stream, "", fmt, ap);
  va_end(ap);
}

}  // namespace pmix::output
