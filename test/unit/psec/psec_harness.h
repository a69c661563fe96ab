// Shared by the psec tests: a component opened through its descriptor, a
// connected Unix socket pair, and directive builders.
#ifndef PMIXX_TEST_UNIT_PSEC_PSEC_HARNESS_H
#define PMIXX_TEST_UNIT_PSEC_PSEC_HARNESS_H

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <vector>

#include "pmix/mca/mca.h"
#include "pmix/mca/psec.h"

namespace pmix::psec::test {

inline void Output(const char* framework, int level, const char* fmt, ...) {
  if (level > 0) return;
  va_list args;
  va_start(args, fmt);
  std::fprintf(stderr, "[test] %s: ", framework);
  std::vfprintf(stderr, fmt, args);
  std::fputc('\n', stderr);
  va_end(args);
}

inline const pmix_mca_services_t kServices = {PMIX_MCA_BASE_VERSION_MAJOR, Output};

// Opens and queries c with the given parameter values (table order).
inline const pmix_psec_module_t* OpenModule(const pmix_mca_component_t& c,
                                            const pmix_mca_param_value_t* values = nullptr) {
  void* context = nullptr;
  EXPECT_EQ(c.open(&kServices, values, &context), PMIX_SUCCESS);
  const void* module = nullptr;
  int priority = -1;
  EXPECT_EQ(c.query(context, &module, &priority), PMIX_SUCCESS);
  EXPECT_EQ(priority, c.default_priority);
  return static_cast<const pmix_psec_module_t*>(module);
}

// A connected AF_UNIX stream pair; both ends closed on destruction.
class SocketPair {
 public:
  SocketPair() { EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds_), 0); }
  ~SocketPair() {
    close(fds_[0]);
    close(fds_[1]);
  }
  SocketPair(const SocketPair&) = delete;
  SocketPair& operator=(const SocketPair&) = delete;
  int fd() const { return fds_[0]; }

 private:
  int fds_[2] = {-1, -1};
};

inline pmix_info_t Uint32Info(const char* key, uint32_t value) {
  pmix_info_t info;
  std::memset(&info, 0, sizeof info);
  std::strncpy(info.key, key, PMIX_MAX_KEYLEN);
  info.value.type = PMIX_UINT32;
  info.value.data.uint32 = value;
  return info;
}

// A string directive that borrows text (no release needed).
inline pmix_info_t StringInfo(const char* key, const char* text) {
  pmix_info_t info;
  std::memset(&info, 0, sizeof info);
  std::strncpy(info.key, key, PMIX_MAX_KEYLEN);
  info.value.type = PMIX_STRING;
  info.value.data.string = const_cast<char*>(text);
  return info;
}

// Sentinels that tell whether a failing call wrote its outputs.
inline constexpr uid_t kUntouchedUid = 4242;
inline constexpr gid_t kUntouchedGid = 4343;

}  // namespace pmix::psec::test

extern "C" pmix_mca_component_t pmix_mca_psec_native_component;

namespace pmix::psec::test {

// The native module, opened per test, and its validate_cred with checks
// that a failing call leaves the outputs alone (uid_/gid_ hold them).
class NativeFixture : public ::testing::Test {
 protected:
  void SetUp() override { module_ = OpenModule(pmix_mca_psec_native_component); }
  void TearDown() override { pmix_mca_psec_native_component.close(nullptr); }

  pmix_status_t Validate(int fd, std::vector<pmix_info_t> dirs = {},
                         const pmix_byte_object_t* cred = nullptr) {
    uid_ = kUntouchedUid;
    gid_ = kUntouchedGid;
    pmix_status_t rc = module_->validate_cred(fd, cred, dirs.data(), dirs.size(), &uid_, &gid_);
    if (rc != PMIX_SUCCESS) {
      EXPECT_EQ(uid_, kUntouchedUid) << "output written on failure";
      EXPECT_EQ(gid_, kUntouchedGid) << "output written on failure";
    }
    return rc;
  }

  const pmix_psec_module_t* module_ = nullptr;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
};

}  // namespace pmix::psec::test

#endif  // PMIXX_TEST_UNIT_PSEC_PSEC_HARNESS_H
