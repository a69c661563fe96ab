// The psec framework through its base API (mca/psec/base/psec_base.h) over
// the real components (the component path make check exports, or built
// in): selection order, PMIX_MCA_psec, module lookup, validation by name and
// the PMIx_Get/Validate_credential fallbacks. main() starts a private
// munged (when munge is built and installed) and points the munge
// component at it through PMIX_MCA_psec_munge_socket.
#include "mca/psec/base/psec_base.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "test/unit/psec/private_munged.h"
#include "test/unit/psec/psec_harness.h"

namespace pmix::psec::test {
namespace {

bool g_munge_running = false;

std::string Joined() {
  auto names = SelectedNames();
  if (!names.ok()) return "rc=" + std::to_string(names.status().code());
  std::string joined;
  for (const std::string& name : *names) joined += (joined.empty() ? "" : ",") + name;
  return joined;
}

std::string DefaultNames() { return PMIXX_TEST_HAVE_MUNGE ? "native,munge,none" : "native,none"; }

// Runs `body` in a fresh process with PMIX_MCA_psec=selection; it must exit 0.
#define EXPECT_WITH_SELECTION(selection, body) \
  EXPECT_EXIT(                                 \
      {                                        \
        setenv("PMIX_MCA_psec", selection, 1); \
        std::exit((body) ? 0 : 1);             \
      },                                       \
      ::testing::ExitedWithCode(0), "")

TEST(PsecBase, DefaultSelectionIsEveryComponentByPriority) {
  EXPECT_EQ(Joined(), DefaultNames());
  ASSERT_NE(Default(), nullptr);
  EXPECT_STREQ(Default()->name, "native");
}

TEST(PsecBase, SelectionListsChooseAndOrder) {
  EXPECT_WITH_SELECTION("none", Joined() == "none" && std::strcmp(Default()->name, "none") == 0);
  EXPECT_WITH_SELECTION("none,native", Joined() == "none,native");
  EXPECT_WITH_SELECTION("^native", Joined() == (PMIXX_TEST_HAVE_MUNGE ? "munge,none" : "none"));
  EXPECT_WITH_SELECTION("nosuchmodule", Joined().rfind("rc=", 0) == 0 && Default() == nullptr);
}

TEST(PsecBase, ByNameFindsOnlySelectedModules) {
  ASSERT_NE(ByName("native"), nullptr);
  EXPECT_STREQ(ByName("native")->name, "native");
  EXPECT_STREQ(ByName("none")->name, "none");
  EXPECT_EQ(ByName("bogus"), nullptr);
  EXPECT_EQ(ByName(""), nullptr);
}

// Death tests re-run their test up to the EXPECT_EXIT in the child: a test
// that selects through the environment must not touch the framework first.
TEST(PsecBase, ByNameIgnoresModulesNotSelected) {
  EXPECT_WITH_SELECTION("none", ByName("native") == nullptr && ByName("none") != nullptr);
}

TEST(PsecBase, ChooseTakesTheServersFirstKnownName) {
  EXPECT_STREQ(Choose("bogus,none,native")->name, "none");
  EXPECT_STREQ(Choose("native")->name, "native");
  EXPECT_STREQ(Choose("")->name, "native");
  EXPECT_EQ(Choose("bogus"), nullptr);
  EXPECT_EQ(Choose(",,"), nullptr);
}

TEST(PsecBase, ValidateByNameOverASocket) {
  SocketPair pair;
  auto ids = ValidateCredential("native", pair.fd(), {}, {});
  ASSERT_TRUE(ids.ok()) << ids.status().code();
  EXPECT_EQ(ids->uid, geteuid());
  EXPECT_EQ(ids->gid, getegid());
  pmix_info_t wrong[] = {Uint32Info(PMIX_USERID, geteuid() + 1)};
  EXPECT_EQ(ValidateCredential("native", pair.fd(), {}, wrong).status().code(),
            PMIX_ERR_NO_PERMISSIONS);
  EXPECT_EQ(ValidateCredential("bogus", pair.fd(), {}, {}).status().code(), PMIX_ERR_NOT_SUPPORTED);
  EXPECT_EQ(ValidateCredential("native", -1, {}, {}).status().code(), PMIX_ERR_NOT_SUPPORTED);
}

TEST(PsecBase, NativeCredentialIsEmpty) {
  auto bytes = CreateCredential(*ByName("native"), {});
  ASSERT_TRUE(bytes.ok());
  EXPECT_TRUE(bytes->empty());
}

TEST(PsecBase, FallbacksWithoutACredentialModuleAreNotSupported) {
  const char garbage[] = "garbage";
  EXPECT_WITH_SELECTION(
      "native,none",
      GetCredentialFallback({}).status().code() == PMIX_ERR_NOT_SUPPORTED &&
          ValidateCredentialFallback(garbage, {}).status().code() == PMIX_ERR_NOT_SUPPORTED);
}

bool NoneAcceptsWhenChosen() {
  const char garbage[] = "garbage";
  auto ids = ValidateCredentialFallback(garbage, {});
  return ids.ok() && ids->uid == geteuid() &&
         GetCredentialFallback({}).status().code() == PMIX_ERR_NOT_SUPPORTED;
}

TEST(PsecBase, NoneJudgesOnlyWhenChosen) {
  EXPECT_WITH_SELECTION("none", NoneAcceptsWhenChosen());
  const char garbage[] = "garbage";
  pmix_info_t by_type[] = {StringInfo(PMIX_CRED_TYPE, "bogus,none")};
  auto ids = ValidateCredentialFallback(garbage, by_type);
  ASSERT_TRUE(ids.ok()) << ids.status().code();
  EXPECT_EQ(ids->uid, geteuid());
}

TEST(PsecBase, CredTypeMustBeAString) {
  pmix_info_t bad[] = {Uint32Info(PMIX_CRED_TYPE, 1)};
  EXPECT_EQ(GetCredentialFallback(bad).status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(ValidateCredentialFallback({}, bad).status().code(), PMIX_ERR_BAD_PARAM);
  pmix_info_t unknown[] = {StringInfo(PMIX_CRED_TYPE, "bogus")};
  EXPECT_EQ(GetCredentialFallback(unknown).status().code(), PMIX_ERR_NOT_SUPPORTED);
}

TEST(PsecBase, MungeFallbackRoundTrip) {
  if (!g_munge_running) GTEST_SKIP() << "no private munged here (munge not built or installed)";
  auto cred = GetCredentialFallback({});
  ASSERT_TRUE(cred.ok()) << cred.status().code();
  EXPECT_EQ(cred->type, "munge");
  ASSERT_FALSE(cred->bytes.empty());
  auto ids = ValidateCredentialFallback(cred->bytes, {});
  ASSERT_TRUE(ids.ok()) << ids.status().code();
  EXPECT_EQ(ids->uid, geteuid());
  EXPECT_EQ(ids->gid, getegid());
  EXPECT_EQ(ValidateCredentialFallback(cred->bytes, {}).status().code(), PMIX_ERR_INVALID_CRED);
  const char garbage[] = "garbage";
  EXPECT_EQ(ValidateCredentialFallback(garbage, {}).status().code(), PMIX_ERR_INVALID_CRED);
  auto by_name = CreateCredential(*ByName("munge"), {});
  ASSERT_TRUE(by_name.ok());
  EXPECT_TRUE(ValidateCredential("munge", -1, *by_name, {}).ok());
}

}  // namespace
}  // namespace pmix::psec::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // Death-test children re-run main(): they inherit the socket and reuse
  // the parent's daemon.
  pmix::psec::test::PrivateMunged munged;
  if (const char* socket = std::getenv("PMIX_MCA_psec_munge_socket")) {
    pmix::psec::test::g_munge_running = PMIXX_TEST_HAVE_MUNGE && *socket != '\0';
  } else if (PMIXX_TEST_HAVE_MUNGE) {
    auto outcome = munged.Start();
    if (outcome == pmix::psec::test::PrivateMunged::Outcome::kRunning) {
      setenv("PMIX_MCA_psec_munge_socket", munged.socket().c_str(), 1);
      pmix::psec::test::g_munge_running = true;
    } else {
      std::fprintf(stderr, "psec_base_tests: no private munged (%s); munge tests skip\n",
                   munged.message().c_str());
    }
  }
  return RUN_ALL_TESTS();
}
