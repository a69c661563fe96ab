// The munge psec component against a private munged (started once for the
// suite by test/tools/munged.sh, with its own key and socket; skipped with
// a message when the munge package is not installed).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "test/unit/psec/private_munged.h"
#include "test/unit/psec/psec_harness.h"

extern "C" pmix_mca_component_t pmix_mca_psec_munge_component;

namespace pmix::psec::test {
namespace {

// The component opened on a given socket; closed on destruction.
class MungeModule {
 public:
  explicit MungeModule(const std::string& socket) {
    values_[0].type = PMIX_MCA_PARAM_STRING;
    values_[0].value.string = socket.c_str();
    module_ = OpenModule(pmix_mca_psec_munge_component, values_);
  }
  ~MungeModule() { pmix_mca_psec_munge_component.close(nullptr); }
  const pmix_psec_module_t* operator->() const { return module_; }

 private:
  pmix_mca_param_value_t values_[1] = {};
  const pmix_psec_module_t* module_ = nullptr;
};

struct Owned {
  pmix_byte_object_t cred{nullptr, 0};
  ~Owned() { std::free(cred.bytes); }
};

class Munge : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    daemon_ = new PrivateMunged();  // NOLINT: suite-lifetime, deleted in TearDownTestSuite
    outcome_ = daemon_->Start();
  }
  static void TearDownTestSuite() {
    delete daemon_;  // NOLINT
    daemon_ = nullptr;
  }
  void SetUp() override {
    if (outcome_ == PrivateMunged::Outcome::kNotInstalled) {
      GTEST_SKIP() << "munged not installed (Debian package 'munge'): munge tests skipped";
    }
    ASSERT_EQ(outcome_, PrivateMunged::Outcome::kRunning) << daemon_->message();
    module_ = std::make_unique<MungeModule>(daemon_->socket());
  }

  pmix_status_t Validate(int fd, const pmix_byte_object_t& cred,
                         std::vector<pmix_info_t> dirs = {}) {
    uid_ = kUntouchedUid;
    gid_ = kUntouchedGid;
    pmix_status_t rc = (*module_)->validate_cred(fd, &cred, dirs.data(), dirs.size(), &uid_, &gid_);
    if (rc != PMIX_SUCCESS) {
      EXPECT_EQ(uid_, kUntouchedUid) << "output written on failure";
    }
    return rc;
  }

  static PrivateMunged* daemon_;
  static PrivateMunged::Outcome outcome_;
  std::unique_ptr<MungeModule> module_;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
};

PrivateMunged* Munge::daemon_ = nullptr;
PrivateMunged::Outcome Munge::outcome_ = PrivateMunged::Outcome::kFailed;

TEST_F(Munge, RoundTripGivesOurIds) {
  Owned owned;
  ASSERT_EQ((*module_)->create_cred(nullptr, 0, &owned.cred), PMIX_SUCCESS);
  ASSERT_NE(owned.cred.bytes, nullptr);
  EXPECT_EQ(std::string(owned.cred.bytes, 6), "MUNGE:");
  EXPECT_EQ(Validate(-1, owned.cred), PMIX_SUCCESS);
  EXPECT_EQ(uid_, geteuid());
  EXPECT_EQ(gid_, getegid());
}

TEST_F(Munge, RoundTripOverAUnixSocketChecksThePeer) {
  Owned owned;
  ASSERT_EQ((*module_)->create_cred(nullptr, 0, &owned.cred), PMIX_SUCCESS);
  SocketPair pair;
  EXPECT_EQ(Validate(pair.fd(), owned.cred, {Uint32Info(PMIX_USERID, geteuid())}), PMIX_SUCCESS);
  EXPECT_EQ(uid_, geteuid());
}

TEST_F(Munge, TrailingNulIsTolerated) {
  Owned owned;
  ASSERT_EQ((*module_)->create_cred(nullptr, 0, &owned.cred), PMIX_SUCCESS);
  pmix_byte_object_t with_nul{owned.cred.bytes, owned.cred.size + 1};
  EXPECT_EQ(Validate(-1, with_nul), PMIX_SUCCESS);
}

TEST_F(Munge, GarbageIsInvalidCred) {
  const std::vector<std::string> garbage = {
      "garbage",
      "MUNGE:", "MUNGE:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA:", std::string("MU\0NGE:", 7),
      std::string(1, '\0')};
  for (const std::string& text : garbage) {
    pmix_byte_object_t cred{const_cast<char*>(text.data()), text.size()};
    EXPECT_EQ(Validate(-1, cred), PMIX_ERR_INVALID_CRED) << text;
  }
  pmix_byte_object_t empty{nullptr, 0};
  EXPECT_EQ(Validate(-1, empty), PMIX_ERR_INVALID_CRED);
}

TEST_F(Munge, ReplayedCredentialIsRefused) {
  Owned owned;
  ASSERT_EQ((*module_)->create_cred(nullptr, 0, &owned.cred), PMIX_SUCCESS);
  EXPECT_EQ(Validate(-1, owned.cred), PMIX_SUCCESS);
  EXPECT_EQ(Validate(-1, owned.cred), PMIX_ERR_INVALID_CRED);
}

TEST_F(Munge, ExpectedIdsThatDifferAreNoPermissions) {
  for (const pmix_info_t& dir :
       {Uint32Info(PMIX_USERID, geteuid() + 1), Uint32Info(PMIX_GRPID, getegid() + 1)}) {
    Owned owned;
    ASSERT_EQ((*module_)->create_cred(nullptr, 0, &owned.cred), PMIX_SUCCESS);
    EXPECT_EQ(Validate(-1, owned.cred, {dir}), PMIX_ERR_NO_PERMISSIONS);
  }
}

TEST_F(Munge, CredentialOfAnotherKeyIsInvalid) {
  PrivateMunged other;
  ASSERT_EQ(other.Start(), PrivateMunged::Outcome::kRunning) << other.message();
  // The component holds one configuration at a time: close ours first.
  module_.reset();
  Owned owned;
  {
    MungeModule foreign(other.socket());
    ASSERT_EQ(foreign->create_cred(nullptr, 0, &owned.cred), PMIX_SUCCESS);
  }
  module_ = std::make_unique<MungeModule>(daemon_->socket());
  EXPECT_EQ(Validate(-1, owned.cred), PMIX_ERR_INVALID_CRED);
}

TEST_F(Munge, UnreachableDaemonIsUnreach) {
  Owned owned;
  ASSERT_EQ((*module_)->create_cred(nullptr, 0, &owned.cred), PMIX_SUCCESS);
  module_.reset();
  MungeModule nowhere("/nonexistent/pmixx/munge.socket");
  pmix_byte_object_t cred{reinterpret_cast<char*>(0x1), 3};
  EXPECT_EQ(nowhere->create_cred(nullptr, 0, &cred), PMIX_ERR_UNREACH);
  EXPECT_EQ(cred.bytes, reinterpret_cast<char*>(0x1)) << "output written on failure";
  uid_t uid = kUntouchedUid;
  gid_t gid = kUntouchedGid;
  EXPECT_EQ(nowhere->validate_cred(-1, &owned.cred, nullptr, 0, &uid, &gid), PMIX_ERR_UNREACH);
  EXPECT_EQ(uid, kUntouchedUid);
}

TEST_F(Munge, RefusesNullArguments) {
  EXPECT_EQ((*module_)->create_cred(nullptr, 0, nullptr), PMIX_ERR_BAD_PARAM);
  pmix_byte_object_t cred{nullptr, 0};
  gid_t gid = 0;
  EXPECT_EQ((*module_)->validate_cred(-1, &cred, nullptr, 0, nullptr, &gid), PMIX_ERR_BAD_PARAM);
}

}  // namespace
}  // namespace pmix::psec::test
