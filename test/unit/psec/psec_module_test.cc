// The native and none psec components, compiled into this binary and driven
// through their descriptors: a conformance suite both pass, then each one's
// own rules (native: SO_PEERCRED and the host's expected ids; none: accepts).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

#include "test/unit/psec/psec_harness.h"

extern "C" pmix_mca_component_t pmix_mca_psec_none_component;

namespace pmix::psec::test {
namespace {

struct Case {
  const char* name;
  const pmix_mca_component_t* component;
  int priority;
};

const Case kCases[] = {
    {"native", &pmix_mca_psec_native_component, 100},
    {"none", &pmix_mca_psec_none_component, 0},
};

class Conformance : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override { module_ = OpenModule(*GetParam().component); }
  void TearDown() override { GetParam().component->close(nullptr); }
  const pmix_psec_module_t* module_ = nullptr;
};

TEST_P(Conformance, DescriptorNamesTheModuleAndPriority) {
  ASSERT_NE(module_, nullptr);
  EXPECT_STREQ(module_->name, GetParam().name);
  EXPECT_STREQ(GetParam().component->name, GetParam().name);
  EXPECT_STREQ(GetParam().component->framework, "psec");
  EXPECT_EQ(GetParam().component->default_priority, GetParam().priority);
}

TEST_P(Conformance, CreatedCredentialValidatesOverASocketAsUs) {
  pmix_byte_object_t cred{reinterpret_cast<char*>(0x1), 7};
  ASSERT_EQ(module_->create_cred(nullptr, 0, &cred), PMIX_SUCCESS);
  SocketPair pair;
  uid_t uid = kUntouchedUid;
  gid_t gid = kUntouchedGid;
  EXPECT_EQ(module_->validate_cred(pair.fd(), &cred, nullptr, 0, &uid, &gid), PMIX_SUCCESS);
  EXPECT_EQ(uid, geteuid());
  EXPECT_EQ(gid, getegid());
  std::free(cred.bytes);
}

TEST_P(Conformance, RefusesNullArguments) {
  EXPECT_EQ(module_->create_cred(nullptr, 0, nullptr), PMIX_ERR_BAD_PARAM);
  pmix_byte_object_t cred{nullptr, 0};
  EXPECT_EQ(module_->create_cred(nullptr, 2, &cred), PMIX_ERR_BAD_PARAM);
  SocketPair pair;
  uid_t uid = kUntouchedUid;
  gid_t gid = kUntouchedGid;
  EXPECT_EQ(module_->validate_cred(pair.fd(), &cred, nullptr, 0, nullptr, &gid),
            PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(module_->validate_cred(pair.fd(), &cred, nullptr, 0, &uid, nullptr),
            PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(uid, kUntouchedUid);
  EXPECT_EQ(gid, kUntouchedGid);
}

TEST_P(Conformance, CredentialIsEmpty) {
  pmix_byte_object_t cred{reinterpret_cast<char*>(0x1), 7};
  ASSERT_EQ(module_->create_cred(nullptr, 0, &cred), PMIX_SUCCESS);
  EXPECT_EQ(cred.bytes, nullptr);
  EXPECT_EQ(cred.size, 0u);
}

INSTANTIATE_TEST_SUITE_P(Psec, Conformance, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

class Native : public NativeFixture {};

TEST_F(Native, MatchingExpectedIdsPass) {
  SocketPair pair;
  EXPECT_EQ(
      Validate(pair.fd(), {Uint32Info(PMIX_USERID, geteuid()), Uint32Info(PMIX_GRPID, getegid())}),
      PMIX_SUCCESS);
  EXPECT_EQ(uid_, geteuid());
  EXPECT_EQ(gid_, getegid());
}

TEST_F(Native, ExpectedIdsThatDifferAreNoPermissions) {
  SocketPair pair;
  EXPECT_EQ(Validate(pair.fd(), {Uint32Info(PMIX_USERID, geteuid() + 1)}), PMIX_ERR_NO_PERMISSIONS);
  EXPECT_EQ(Validate(pair.fd(), {Uint32Info(PMIX_GRPID, getegid() + 1)}), PMIX_ERR_NO_PERMISSIONS);
  EXPECT_EQ(Validate(pair.fd(),
                     {Uint32Info(PMIX_USERID, geteuid()), Uint32Info(PMIX_GRPID, getegid() + 1)}),
            PMIX_ERR_NO_PERMISSIONS);
}

TEST_F(Native, ExpectedIdOfTheWrongTypeIsBadParam) {
  SocketPair pair;
  EXPECT_EQ(Validate(pair.fd(), {StringInfo(PMIX_USERID, "0")}), PMIX_ERR_BAD_PARAM);
}

TEST_F(Native, UnrelatedDirectivesAreIgnored) {
  SocketPair pair;
  EXPECT_EQ(Validate(pair.fd(), {StringInfo(PMIX_CRED_TYPE, "native")}), PMIX_SUCCESS);
}

TEST_F(Native, WithoutAUnixSocketPeerItCannotJudge) {
  EXPECT_EQ(Validate(-1), PMIX_ERR_NOT_SUPPORTED);
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  EXPECT_EQ(Validate(pipe_fds[0]), PMIX_ERR_NOT_SUPPORTED);
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  int inet = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(inet, 0);
  EXPECT_EQ(Validate(inet), PMIX_ERR_NOT_SUPPORTED);
  close(inet);
  int unconnected = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(unconnected, 0);
  EXPECT_EQ(Validate(unconnected), PMIX_ERR_NOT_SUPPORTED);
  close(unconnected);
}

TEST_F(Native, ClosedDescriptorIsBadParam) {
  int fd = open("/dev/null", O_RDONLY);
  ASSERT_GE(fd, 0);
  close(fd);
  EXPECT_EQ(Validate(fd), PMIX_ERR_BAD_PARAM);
}

TEST_F(Native, NonEmptyCredentialIsAnotherModulesAndInvalid) {
  SocketPair pair;
  char text[] = "MUNGE:xyz";
  pmix_byte_object_t cred{text, sizeof text - 1};
  EXPECT_EQ(Validate(pair.fd(), {}, &cred), PMIX_ERR_INVALID_CRED);
}

TEST_F(Native, WithoutASocketEvenAForeignCredentialIsNotSupported) {
  char text[] = "MUNGE:xyz";
  pmix_byte_object_t cred{text, sizeof text - 1};
  EXPECT_EQ(Validate(-1, {}, &cred), PMIX_ERR_NOT_SUPPORTED);
}

TEST_F(Native, DatagramPairWorksToo) {
  int fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_DGRAM, 0, fds), 0);
  EXPECT_EQ(Validate(fds[0]), PMIX_SUCCESS);
  EXPECT_EQ(uid_, geteuid());
  close(fds[0]);
  close(fds[1]);
}

class None : public ::testing::Test {
 protected:
  void SetUp() override { module_ = OpenModule(pmix_mca_psec_none_component); }
  void TearDown() override { pmix_mca_psec_none_component.close(nullptr); }
  const pmix_psec_module_t* module_ = nullptr;
};

TEST_F(None, AcceptsAnyCredentialAndIgnoresExpectations) {
  SocketPair pair;
  char text[] = "anything at all";
  pmix_byte_object_t cred{text, sizeof text};
  pmix_info_t dirs[] = {Uint32Info(PMIX_USERID, geteuid() + 1)};
  uid_t uid = kUntouchedUid;
  gid_t gid = kUntouchedGid;
  EXPECT_EQ(module_->validate_cred(pair.fd(), &cred, dirs, 1, &uid, &gid), PMIX_SUCCESS);
  EXPECT_EQ(uid, geteuid());
  EXPECT_EQ(gid, getegid());
}

TEST_F(None, WithoutASocketReportsOurOwnIds) {
  uid_t uid = kUntouchedUid;
  gid_t gid = kUntouchedGid;
  EXPECT_EQ(module_->validate_cred(-1, nullptr, nullptr, 0, &uid, &gid), PMIX_SUCCESS);
  EXPECT_EQ(uid, geteuid());
  EXPECT_EQ(gid, getegid());
  int inet = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(inet, 0);
  EXPECT_EQ(module_->validate_cred(inet, nullptr, nullptr, 0, &uid, &gid), PMIX_SUCCESS);
  EXPECT_EQ(uid, geteuid());
  close(inet);
}

}  // namespace
}  // namespace pmix::psec::test
