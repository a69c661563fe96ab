// A private munged for tests (contract in private_munged.h).
#include "test/unit/psec/private_munged.h"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace pmix::psec::test {
namespace {

// Runs the script bounded by timeout(1); its exit status, or -1.
int RunScript(const char* action, const std::string& dir) {
  std::string command = "timeout 30 /bin/sh '" + MungedScript() + "' " + action + " '" + dir + "'";
  int status = std::system(command.c_str());
  if (status == -1 || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

}  // namespace

std::string MungedScript() {
  const char* top = std::getenv("top_srcdir");
  std::string root = top != nullptr && *top != '\0' ? top : PMIXX_TEST_SRCDIR;
  return root + "/test/tools/munged.sh";
}

PrivateMunged::Outcome PrivateMunged::Start() {
  std::string base = (std::filesystem::temp_directory_path() / "pmixx-munged.XXXXXX").string();
  std::vector<char> name(base.begin(), base.end());
  name.push_back('\0');
  if (mkdtemp(name.data()) == nullptr) {
    message_ = "mkdtemp failed";
    return Outcome::kFailed;
  }
  dir_ = name.data();
  int rc = RunScript("start", dir_);
  if (rc == 0) {
    socket_ = dir_ + "/munge.socket";
    return Outcome::kRunning;
  }
  message_ = "munged.sh start exited with " + std::to_string(rc);
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
  dir_.clear();
  return rc == 77 ? Outcome::kNotInstalled : Outcome::kFailed;
}

void PrivateMunged::Stop() {
  if (dir_.empty()) return;
  (void)RunScript("stop", dir_);
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
  dir_.clear();
  socket_.clear();
}

}  // namespace pmix::psec::test
