// Helpers shared by the ptl tests: private temp dirs, hand-built info
// directives (no libpmix needed), socket checks and a two-way frame
// exchange.
#ifndef PMIXX_TEST_UNIT_PTL_PTL_TEST_UTIL_H
#define PMIXX_TEST_UNIT_PTL_PTL_TEST_UTIL_H

#include <chrono>
#include <string>

#include "pmix/mca/mca.h"
#include "pmix/mca/ptl.h"

namespace pmix::ptl::test {

inline constexpr std::chrono::milliseconds kWait{5000};

// A fresh 0700 directory under $TMPDIR (or /tmp), removed with its
// contents (symlinks not followed) when destroyed.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string Sub(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Directives whose string values are borrowed (must outlive the info).
pmix_info_t StringInfo(const char* key, const char* value);
pmix_info_t IntInfo(const char* key, int value);
pmix_info_t BoolInfo(const char* key, bool value);

// Opens a component with the given parameter values (or none) and returns
// its module; the test fails if open or query fails.
const pmix_ptl_module_t* OpenModule(const pmix_mca_component_t& component,
                                    const pmix_mca_param_value_t* values);

bool IsCloexec(int fd);
bool IsNonblocking(int fd);
bool HasNoDelay(int fd);
// Waits until fd is readable (e.g. a listener has a pending connection).
bool WaitReadable(int fd, std::chrono::milliseconds timeout = kWait);

// Sends frames of several sizes from a to b and back, checks they arrive
// intact (gtest assertions).
void ExchangeFrames(int a, int b);

}  // namespace pmix::ptl::test

#endif  // PMIXX_TEST_UNIT_PTL_PTL_TEST_UTIL_H
