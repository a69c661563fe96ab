// output::PeerError: errors a peer causes at will are rate-limited per
// stream, so that a hostile client cannot flood the server's stderr
// (issue 15: every malformed message used to log a line).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "src/common/output.h"

namespace pmix::output {
namespace {

// What fn wrote to stderr.
template <class Fn>
std::string CaptureStderr(Fn fn) {
  char path[] = "/tmp/pmixx-output-test.XXXXXX";
  int fd = ::mkstemp(path);
  if (fd < 0) return "<mkstemp failed>";
  ::unlink(path);
  int saved = ::dup(STDERR_FILENO);
  ::dup2(fd, STDERR_FILENO);
  fn();
  ::dup2(saved, STDERR_FILENO);
  ::close(saved);
  std::string text;
  char buf[4096];
  ::lseek(fd, 0, SEEK_SET);
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
  ::close(fd);
  return text;
}

size_t Lines(const std::string& text) {
  size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

TEST(PeerError, AtMostABurstPerStreamPerWindow) {
  std::string text = CaptureStderr([] {
    for (int i = 0; i < 1000; ++i) PeerError("flood-a", "malformed message %d", i);
  });
  EXPECT_EQ(Lines(text), static_cast<size_t>(kPeerErrorBurst)) << text;
  EXPECT_NE(text.find("flood-a: error: malformed message 0"), std::string::npos) << text;
  // Another stream has a budget of its own.
  std::string other = CaptureStderr([] { PeerError("flood-b", "limit exceeded"); });
  EXPECT_EQ(Lines(other), 1u) << other;
  // Plain errors are never limited.
  std::string plain = CaptureStderr([] {
    for (int i = 0; i < 50; ++i) Error("flood-a", "host error %d", i);
  });
  EXPECT_EQ(Lines(plain), 50u);
}

}  // namespace
}  // namespace pmix::output
