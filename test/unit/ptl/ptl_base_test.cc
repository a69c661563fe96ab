// The ptl framework API over the real components: selection, parameters,
// listen/connect/accept through every selected transport.
//
// Selection is decided once per process, so tests of other settings run in
// a forked child (EXPECT_EXIT) that sets its environment first.
#include "mca/ptl/base/ptl_base.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "test/unit/ptl/ptl_test_util.h"

namespace pmix::ptl::test {
namespace {

std::vector<pmix_info_t> TmpdirInfo(const std::string& dir) {
  return {StringInfo(PMIX_SERVER_TMPDIR, dir.c_str())};
}

void ConnectAcceptExchange(const Listener& listener) {
  auto client = Connect(listener.uri(), kWait);
  ASSERT_TRUE(client.ok()) << listener.uri() << ": " << client.status().code();
  ASSERT_TRUE(WaitReadable(listener.fd()));
  auto server = Accept(listener);
  ASSERT_TRUE(server.ok()) << server.status().code();
  ExchangeFrames(client->get(), server->get());
}

TEST(PtlBase, ListensOnBothTransportsUsockFirst) {
  TempDir tmp;
  auto info = TmpdirInfo(tmp.path());
  auto listeners = Listen(info);
  ASSERT_TRUE(listeners.ok()) << listeners.status().code();
  ASSERT_EQ(listeners->size(), 2u);
  EXPECT_STREQ((*listeners)[0].module()->name, "usock");
  EXPECT_STREQ((*listeners)[1].module()->name, "tcp");
  EXPECT_EQ((*listeners)[0].uri().rfind("usock:" + tmp.path() + "/", 0), 0u);
  EXPECT_EQ((*listeners)[1].uri().rfind("tcp4://127.0.0.1:", 0), 0u);
  for (const Listener& listener : *listeners) ConnectAcceptExchange(listener);
  auto none = Accept((*listeners)[0]);
  EXPECT_EQ(none.status().code(), PMIX_ERR_WOULD_BLOCK);
}

TEST(PtlBase, DestroyingAListenerUnlistens) {
  TempDir tmp;
  auto info = TmpdirInfo(tmp.path());
  std::string uri;
  {
    auto listeners = Listen(info);
    ASSERT_TRUE(listeners.ok());
    uri = (*listeners)[0].uri();
    std::vector<Listener> moved = std::move(*listeners);  // moves do not unlisten
    ASSERT_EQ(::access(uri.substr(6).c_str(), F_OK), 0);
  }
  EXPECT_NE(::access(uri.substr(6).c_str(), F_OK), 0);
  EXPECT_EQ(Connect(uri, kWait).status().code(), PMIX_ERR_UNREACH);
}

TEST(PtlBase, AFailingTransportFailsListenAndLeavesNothingBehind) {
  TempDir tmp;
  std::vector<pmix_info_t> info = {StringInfo(PMIX_SERVER_TMPDIR, tmp.path().c_str()),
                                   StringInfo(PMIX_TCP_IF_INCLUDE, "pmixx-no-such0")};
  EXPECT_EQ(Listen(info).status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(::rmdir(tmp.path().c_str()), 0) << "the usock socket was left in the tmpdir";
  ::mkdir(tmp.path().c_str(), 0700);
}

TEST(PtlBase, ListenWithoutTmpdirIsBadParam) {
  EXPECT_EQ(Listen({}).status().code(), PMIX_ERR_BAD_PARAM);
}

TEST(PtlBase, ConnectToAnUnknownSchemeIsNotSupported) {
  EXPECT_EQ(Connect("shm://x", kWait).status().code(), PMIX_ERR_NOT_SUPPORTED);
}

TEST(PtlBase, MaxMsgSizeDefaultsTo64MiB) {
  auto limits = PeerLimits();
  ASSERT_TRUE(limits.ok());
  EXPECT_EQ(limits->max_msg_size, kDefaultMaxMsgSize);
  EXPECT_EQ(limits->max_msg_size, size_t{64} << 20);
}

TEST(PtlBase, MaxMsgSizeComesFromItsParameter) {
  EXPECT_EXIT(
      {
        setenv("PMIX_MCA_ptl_base_max_msg_size", "1k", 1);
        auto limits = PeerLimits();
        std::exit(limits.ok() && limits->max_msg_size == 1024 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(PtlBase, AnIncludeListKeepsOnlyTheNamedTransport) {
  EXPECT_EXIT(
      {
        setenv("PMIX_MCA_ptl", "usock", 1);
        // In a function, so that the temp dir and listener are gone before exit().
        auto check = [] {
          TempDir tmp;
          auto info = TmpdirInfo(tmp.path());
          auto listeners = Listen(info);
          return listeners.ok() && listeners->size() == 1 &&
                 std::string((*listeners)[0].module()->name) == "usock" &&
                 Connect("tcp4://127.0.0.1:1", kWait).status().code() == PMIX_ERR_NOT_SUPPORTED;
        };
        std::exit(check() ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(PtlBase, TcpParametersComeFromTheEnvironment) {
  EXPECT_EXIT(
      {
        setenv("PMIX_MCA_ptl", "tcp", 1);
        setenv("PMIX_MCA_ptl_tcp_if_include", "pmixx-no-such0", 1);
        bool refused = Listen({}).status().code() == PMIX_ERR_BAD_PARAM;
        std::vector<pmix_info_t> info = {StringInfo(PMIX_TCP_IF_INCLUDE, "lo")};
        bool overridden = Listen(info).ok();
        std::exit(refused && overridden ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace pmix::ptl::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  return RUN_ALL_TESTS();
}
