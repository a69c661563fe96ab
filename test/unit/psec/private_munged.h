// A private munged for tests, run through test/tools/munged.sh in a fresh
// temporary directory (its own key and socket; the system's munge is never
// touched). Start() waits at most ~10 s; Stop() (also run by the
// destructor) at most ~5 s and removes the directory.
#ifndef PMIXX_TEST_UNIT_PSEC_PRIVATE_MUNGED_H
#define PMIXX_TEST_UNIT_PSEC_PRIVATE_MUNGED_H

#include <string>

namespace pmix::psec::test {

class PrivateMunged {
 public:
  enum class Outcome { kRunning, kNotInstalled, kFailed };

  PrivateMunged() = default;
  PrivateMunged(const PrivateMunged&) = delete;
  PrivateMunged& operator=(const PrivateMunged&) = delete;
  ~PrivateMunged() { Stop(); }

  // kNotInstalled when the munge package is missing (callers skip);
  // kFailed with the reason in message().
  Outcome Start();
  void Stop();

  const std::string& socket() const { return socket_; }
  const std::string& message() const { return message_; }

 private:
  std::string dir_;
  std::string socket_;
  std::string message_;
};

// The script's path: $top_srcdir (set by make check) or the source tree
// this test was built from.
std::string MungedScript();

}  // namespace pmix::psec::test

#endif  // PMIXX_TEST_UNIT_PSEC_PRIVATE_MUNGED_H
