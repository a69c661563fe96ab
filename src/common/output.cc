#include "src/common/output.h"

#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
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

void Verbose(std::string_view stream, int level, const char* fmt, ...) {
  if (Verbosity(stream) < level) return;
  va_list ap;
  va_start(ap, fmt);
  Emit(stream, "", fmt, ap);
  va_end(ap);
}

}  // namespace pmix::output
