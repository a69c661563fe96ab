// psec native over TCP: the /proc/net/tcp{,6} line parser and owner search
// on fixed tables (IPv4, IPv6, IPv4-mapped, sockets that must not count,
// malformed lines), then the native module on real loopback connections
// made in this process (our own uid must be found) and on the connections
// it must refuse to judge.
#include <arpa/inet.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <optional>
#include <string>
#include <vector>

#include "plugins/psec/common/proc_net_tcp.h"
#include "plugins/psec/common/tcp_peer.h"
#include "test/unit/psec/psec_harness.h"


namespace pmix::psec::test {
namespace {

using util::TcpEndpoint;

TcpEndpoint Endpoint(const char* text, uint16_t port) {
  TcpEndpoint e;
  e.port = port;
  in_addr v4{};
  if (inet_pton(AF_INET, text, &v4) == 1) {
    e.addr[10] = e.addr[11] = 0xff;
    std::memcpy(&e.addr[12], &v4, 4);
  } else {
    EXPECT_EQ(inet_pton(AF_INET6, text, e.addr.data()), 1) << text;
  }
  return e;
}

// The tables below are what a little-endian kernel prints.
bool LittleEndian() { return std::endian::native == std::endian::little; }

constexpr const char* kHeader =
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  "
    "timeout inode";
constexpr const char* kV4 =
    "   1: 0100007F:A1B2 0100007F:0CEA 01 00000000:00000000 00:00000000 00000000  1000        0 "
    "12345 1 0000000000000000 20 4 30 10 -1";
constexpr const char* kV6 =
    "   0: 00000000000000000000000001000000:1F90 00000000000000000000000001000000:D431 01 "
    "00000000:00000000 00:00000000 00000000  1001        0 5555 1 0000000000000000 20 4 1 10 -1";
constexpr const char* kV4Mapped =
    "   2: 0000000000000000FFFF00000100007F:0CEA 0000000000000000FFFF00000100007F:A1B2 01 "
    "00000000:00000000 00:00000000 00000000  1002        0 777 1 0000000000000000 20 4 1 10 -1";

TEST(ProcNetTcpLine, ParsesIpv4Ipv6AndMappedLines) {
  if (!LittleEndian()) GTEST_SKIP() << "tables written for a little-endian kernel";
  auto v4 = util::ParseProcNetTcpLine(kV4);
  ASSERT_TRUE(v4.has_value());
  EXPECT_EQ(v4->local, Endpoint("127.0.0.1", 0xA1B2));
  EXPECT_EQ(v4->remote, Endpoint("127.0.0.1", 3306));
  EXPECT_EQ(v4->state, util::kTcpEstablished);
  EXPECT_EQ(v4->uid, 1000u);
  EXPECT_EQ(v4->inode, 12345u);
  auto v6 = util::ParseProcNetTcpLine(kV6);
  ASSERT_TRUE(v6.has_value());
  EXPECT_EQ(v6->local, Endpoint("::1", 8080));
  EXPECT_EQ(v6->remote, Endpoint("::1", 0xD431));
  EXPECT_EQ(v6->uid, 1001u);
  auto mapped = util::ParseProcNetTcpLine(kV4Mapped);
  ASSERT_TRUE(mapped.has_value());
  EXPECT_EQ(mapped->local, Endpoint("127.0.0.1", 3306));  // same bytes as an IPv4 entry's
  EXPECT_EQ(mapped->remote, Endpoint("::ffff:127.0.0.1", 0xA1B2));
}

TEST(ProcNetTcpLine, RefusesHeadersAndMalformedLines) {
  const char* const kBad[] = {
      kHeader,
      "",
      "   ",
      "   1: 0100007F:A1B2 0100007F:0CEA 01",                                        // short
      "   1 0100007F:A1B2 0100007F:0CEA 01 0:0 0:0 0 1000 0 12345",                  // no ':'
      "   1: 0100007G:A1B2 0100007F:0CEA 01 0:0 0:0 0 1000 0 12345",                 // not hex
      "   1: 00007F:A1B2 0100007F:0CEA 01 0:0 0:0 0 1000 0 12345",                   // 6 digits
      "   1: 0100007F:A1B 0100007F:0CEA 01 0:0 0:0 0 1000 0 12345",                  // port 3
      "   1: 0100007F 0100007F:0CEA 01 0:0 0:0 0 1000 0 12345",                      // no port
      "   1: 0100007F:A1B2 0100007F:0CEA 1 0:0 0:0 0 1000 0 12345",                  // state
      "   1: 0100007F:A1B2 0100007F:0CEA 01 0:0 0:0 0 -1 0 12345",                   // uid
      "   1: 0100007F:A1B2 0100007F:0CEA 01 0:0 0:0 0 10x0 0 12345",                 // uid
      "   1: 0100007F:A1B2 0100007F:0CEA 01 0:0 0:0 0 1000 0 -5",                    // inode
      "   1: 0100007F:A1B2 0100007F:0CEA 01 0:0 0:0 0 99999999999 0 5",              // uid range
      "   1: 000000000000000000000000010000:1F90 0100007F:0CEA 01 0:0 0:0 0 1 0 5",  // 30 digits
      "   1: 00000000000000000000000001000000:+F90 0100007F:0CEA 01 0:0 0:0 0 1 0 5",
  };
  for (const char* line : kBad) {
    EXPECT_FALSE(util::ParseProcNetTcpLine(line).has_value()) << line;
  }
}

TEST(ProcNetTcpTable, FindsOnlyTheEstablishedSocketWithAnInode) {
  if (!LittleEndian()) GTEST_SKIP() << "tables written for a little-endian kernel";
  std::string table =
      std::string(kHeader) + "\n" +
      // listening on 3306: not a connection
      "   0: 0100007F:0CEA 00000000:0000 0A 00000000:00000000 00:00000000 00000000  27 0 99 1\n" +
      // the same pair in TIME_WAIT (uid 0, no inode) and as an orphan
      "   3: 0100007F:A1B2 0100007F:0CEA 06 00000000:00000000 03:00001000 00000000  0 0 0 3\n" +
      "   4: 0100007F:A1B2 0100007F:0CEA 01 00000000:00000000 00:00000000 00000000  7 0 0 3\n" +
      "garbage line\n" + kV4;  // no final newline
  EXPECT_EQ(
      util::FindSocketOwner(table, Endpoint("127.0.0.1", 0xA1B2), Endpoint("127.0.0.1", 3306)),
      std::optional<uid_t>(1000));
  // the other direction, or another port: nobody
  EXPECT_FALSE(
      util::FindSocketOwner(table, Endpoint("127.0.0.1", 3306), Endpoint("127.0.0.1", 0xA1B2))
          .has_value());
  EXPECT_FALSE(
      util::FindSocketOwner(table, Endpoint("127.0.0.1", 0xA1B3), Endpoint("127.0.0.1", 3306))
          .has_value());
  std::string only_stale =
      std::string(kHeader) + "\n" +
      "   3: 0100007F:A1B2 0100007F:0CEA 06 00000000:00000000 03:00001000 00000000  0 0 0 3\n";
  EXPECT_FALSE(
      util::FindSocketOwner(only_stale, Endpoint("127.0.0.1", 0xA1B2), Endpoint("127.0.0.1", 3306))
          .has_value());
  EXPECT_FALSE(util::FindSocketOwner("", Endpoint("127.0.0.1", 1), Endpoint("127.0.0.1", 2)));
}

TEST(ProcNetTcpTable, MappedEntriesMatchIpv4Endpoints) {
  if (!LittleEndian()) GTEST_SKIP() << "tables written for a little-endian kernel";
  std::string table = std::string(kHeader) + "\n" + kV6 + "\n" + kV4Mapped + "\n";
  EXPECT_EQ(
      util::FindSocketOwner(table, Endpoint("127.0.0.1", 3306), Endpoint("127.0.0.1", 0xA1B2)),
      std::optional<uid_t>(1002));
  EXPECT_EQ(util::FindSocketOwner(table, Endpoint("::1", 8080), Endpoint("::1", 0xD431)),
            std::optional<uid_t>(1001));
}

TEST(TcpEndpoints, LoopbackIsTheLoopbackNetsOnly) {
  for (const char* yes : {"127.0.0.1", "127.255.3.4", "::1", "::ffff:127.0.0.1"}) {
    EXPECT_TRUE(util::IsLoopback(Endpoint(yes, 1))) << yes;
  }
  for (const char* no : {"10.0.0.1", "128.0.0.1", "::2", "::ffff:10.0.0.1", "::127.0.0.1",
                         "fe80::1", "0.0.0.0", "::"}) {
    EXPECT_FALSE(util::IsLoopback(Endpoint(no, 1))) << no;
  }
}

TEST(TcpEndpoints, SocketAddressesOfBothFamilies) {
  sockaddr_in v4{};
  v4.sin_family = AF_INET;
  v4.sin_port = htons(80);
  inet_pton(AF_INET, "127.0.0.2", &v4.sin_addr);
  EXPECT_EQ(util::EndpointOf(reinterpret_cast<sockaddr*>(&v4), sizeof v4),
            std::optional(Endpoint("127.0.0.2", 80)));
  EXPECT_FALSE(util::EndpointOf(reinterpret_cast<sockaddr*>(&v4), sizeof v4 - 1).has_value());
  sockaddr_in6 v6{};
  v6.sin6_family = AF_INET6;
  v6.sin6_port = htons(443);
  v6.sin6_addr = in6addr_loopback;
  EXPECT_EQ(util::EndpointOf(reinterpret_cast<sockaddr*>(&v6), sizeof v6),
            std::optional(Endpoint("::1", 443)));
  sockaddr unix_address{};
  unix_address.sa_family = AF_UNIX;
  EXPECT_FALSE(util::EndpointOf(&unix_address, sizeof unix_address).has_value());
  EXPECT_FALSE(util::EndpointOf(nullptr, 0).has_value());
}

// --- groups --------------------------------------------------------------

// A gid neither we nor our user (by passwd and group) are members of.
gid_t ForeignGid() {
  std::vector<gid_t> ours(static_cast<size_t>(std::max(getgroups(0, nullptr), 0)) + 1);
  ours.resize(
      static_cast<size_t>(std::max(getgroups(static_cast<int>(ours.size()), ours.data()), 0)));
  ours.push_back(getegid());
  if (passwd* pw = getpwuid(geteuid()); pw != nullptr) {
    int n = 256;
    std::vector<gid_t> listed(static_cast<size_t>(n));
    if (getgrouplist(pw->pw_name, pw->pw_gid, listed.data(), &n) >= 0)
      ours.insert(ours.end(), listed.begin(), listed.begin() + n);
  }
  gid_t gid = 54321;
  while (std::find(ours.begin(), ours.end(), gid) != ours.end()) ++gid;
  return gid;
}

TEST(TcpPeerGroup, OurUidIsInOurGroupsOnly) {
  EXPECT_EQ(util::GroupFor(geteuid(), std::nullopt), std::optional(getegid()));
  EXPECT_EQ(util::GroupFor(geteuid(), getegid()), std::optional(getegid()));
  EXPECT_EQ(util::GroupFor(geteuid(), ForeignGid()), std::optional(getegid()));
}

TEST(TcpPeerGroup, UsersOfThePasswdFileGetTheirGroups) {
  passwd* root = getpwuid(0);
  if (root == nullptr) GTEST_SKIP() << "no passwd entry for uid 0";
  gid_t primary = root->pw_gid;
  EXPECT_EQ(util::GroupFor(0, primary), std::optional(primary));
  if (geteuid() != 0) {
    EXPECT_EQ(util::GroupFor(0, std::nullopt), std::optional(primary));
  }
}

TEST(TcpPeerGroup, AUidWithoutEntryHasNoGroup) {
  const uid_t kNobodyKnows = 2147480000u;
  if (getpwuid(kNobodyKnows) != nullptr || geteuid() == kNobodyKnows) GTEST_SKIP();
  EXPECT_FALSE(util::GroupFor(kNobodyKnows, std::nullopt).has_value());
  EXPECT_FALSE(util::GroupFor(kNobodyKnows, 0).has_value());
}

}  // namespace
}  // namespace pmix::psec::test
