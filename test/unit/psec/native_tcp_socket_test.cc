// psec native on real TCP connections made in this process: over loopback
// (IPv4, IPv6, an IPv4 client of a dual-stack listener) it finds our own
// uid in the kernel's table and checks the host's expectations; it must
// not judge a remote-looking peer, a peer that closed, an unconnected or
// a UDP socket.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "test/unit/psec/psec_harness.h"


namespace pmix::psec::test {
namespace {

sockaddr_storage Address(int family, const char* text) {
  sockaddr_storage s{};
  if (family == AF_INET) {
    auto* v4 = reinterpret_cast<sockaddr_in*>(&s);
    v4->sin_family = AF_INET;
    EXPECT_EQ(inet_pton(AF_INET, text, &v4->sin_addr), 1);
  } else {
    auto* v6 = reinterpret_cast<sockaddr_in6*>(&s);
    v6->sin6_family = AF_INET6;
    EXPECT_EQ(inet_pton(AF_INET6, text, &v6->sin6_addr), 1);
  }
  return s;
}

socklen_t LengthOf(const sockaddr_storage& s) {
  return s.ss_family == AF_INET ? sizeof(sockaddr_in) : sizeof(sockaddr_in6);
}

// A listener on `listen_at` (port 0) and a client of family `client_family`
// connected to it at `connect_to`; both ends and the listener closed on
// destruction. ok() is false when this machine cannot make such a pair.
class TcpPair {
 public:
  TcpPair(const sockaddr_storage& listen_at, bool dual_stack, int client_family,
          const char* connect_to) {
    listener_ = socket(listen_at.ss_family, SOCK_STREAM, 0);
    if (listener_ < 0) return;
    int v6only = dual_stack ? 0 : 1;
    if (listen_at.ss_family == AF_INET6)
      setsockopt(listener_, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof v6only);
    sockaddr_storage bound = listen_at;
    socklen_t len = LengthOf(bound);
    if (bind(listener_, reinterpret_cast<sockaddr*>(&bound), len) != 0 ||
        listen(listener_, 4) != 0 ||
        getsockname(listener_, reinterpret_cast<sockaddr*>(&bound), &len) != 0)
      return;
    uint16_t port = bound.ss_family == AF_INET ? reinterpret_cast<sockaddr_in*>(&bound)->sin_port
                                               : reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port;
    sockaddr_storage target = Address(client_family, connect_to);
    if (client_family == AF_INET)
      reinterpret_cast<sockaddr_in*>(&target)->sin_port = port;
    else
      reinterpret_cast<sockaddr_in6*>(&target)->sin6_port = port;
    client_ = socket(client_family, SOCK_STREAM, 0);
    if (client_ < 0 ||
        connect(client_, reinterpret_cast<sockaddr*>(&target), LengthOf(target)) != 0)
      return;
    server_ = accept(listener_, nullptr, nullptr);
  }
  ~TcpPair() {
    for (int fd : {listener_, client_, server_})
      if (fd >= 0) close(fd);
  }
  TcpPair(const TcpPair&) = delete;
  TcpPair& operator=(const TcpPair&) = delete;

  bool ok() const { return server_ >= 0; }
  int server() const { return server_; }
  int client() const { return client_; }
  void CloseClient() {
    close(client_);
    client_ = -1;
  }

 private:
  int listener_ = -1, client_ = -1, server_ = -1;
};

class NativeTcp : public NativeFixture {
 protected:
  std::vector<pmix_info_t> Ours() {
    return {Uint32Info(PMIX_USERID, geteuid()), Uint32Info(PMIX_GRPID, getegid())};
  }
  // Both ends of a pair are ours: each finds us at the other end.
  void ExpectBothEndsAreUs(const TcpPair& pair) {
    for (int fd : {pair.server(), pair.client()}) {
      EXPECT_EQ(Validate(fd, Ours()), PMIX_SUCCESS);
      EXPECT_EQ(uid_, geteuid());
      EXPECT_EQ(gid_, getegid());
      EXPECT_EQ(Validate(fd), PMIX_SUCCESS);
      EXPECT_EQ(uid_, geteuid());
      EXPECT_EQ(gid_, getegid());
    }
  }
};

TEST_F(NativeTcp, Ipv4LoopbackPeerIsUs) {
  TcpPair pair(Address(AF_INET, "127.0.0.1"), false, AF_INET, "127.0.0.1");
  ASSERT_TRUE(pair.ok());
  ExpectBothEndsAreUs(pair);
}

TEST_F(NativeTcp, Ipv6LoopbackPeerIsUs) {
  TcpPair pair(Address(AF_INET6, "::1"), false, AF_INET6, "::1");
  if (!pair.ok()) GTEST_SKIP() << "no IPv6 loopback here";
  ExpectBothEndsAreUs(pair);
}

TEST_F(NativeTcp, Ipv4ClientOfADualStackListenerIsUs) {
  TcpPair pair(Address(AF_INET6, "::"), true, AF_INET, "127.0.0.1");
  if (!pair.ok()) GTEST_SKIP() << "no dual-stack IPv6 here";
  ExpectBothEndsAreUs(pair);  // the server end sees ::ffff:127.0.0.1
}

TEST_F(NativeTcp, ExpectationsOfAnotherUserOrGroupAreNoPermissions) {
  TcpPair pair(Address(AF_INET, "127.0.0.1"), false, AF_INET, "127.0.0.1");
  ASSERT_TRUE(pair.ok());
  EXPECT_EQ(Validate(pair.server(), {Uint32Info(PMIX_USERID, geteuid() + 1)}),
            PMIX_ERR_NO_PERMISSIONS);
  EXPECT_EQ(Validate(pair.server(),
                     {Uint32Info(PMIX_USERID, geteuid()), Uint32Info(PMIX_GRPID, 2147480000u)}),
            PMIX_ERR_NO_PERMISSIONS);
  char text[] = "MUNGE:xyz";
  pmix_byte_object_t cred{text, sizeof text - 1};
  EXPECT_EQ(Validate(pair.server(), Ours(), &cred), PMIX_ERR_INVALID_CRED);
}

TEST_F(NativeTcp, APeerThatClosedIsNotJudged) {
  TcpPair pair(Address(AF_INET, "127.0.0.1"), false, AF_INET, "127.0.0.1");
  ASSERT_TRUE(pair.ok());
  pair.CloseClient();  // its socket leaves ESTABLISHED at once (FIN sent)
  EXPECT_EQ(Validate(pair.server(), Ours()), PMIX_ERR_NOT_SUPPORTED);
}

// The first IPv4 address of an up, non-loopback interface.
std::optional<std::string> NonLoopbackAddress() {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return std::nullopt;
  std::optional<std::string> found;
  for (ifaddrs* i = list; i != nullptr && !found; i = i->ifa_next) {
    if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET) continue;
    char text[INET_ADDRSTRLEN];
    auto* v4 = reinterpret_cast<sockaddr_in*>(i->ifa_addr);
    if ((ntohl(v4->sin_addr.s_addr) >> 24) == 127) continue;
    if (inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text) != nullptr) found = text;
  }
  freeifaddrs(list);
  return found;
}

TEST_F(NativeTcp, APeerAtANonLoopbackAddressIsNotJudged) {
  auto address = NonLoopbackAddress();
  if (!address) GTEST_SKIP() << "no non-loopback IPv4 address here";
  TcpPair pair(Address(AF_INET, address->c_str()), false, AF_INET, address->c_str());
  if (!pair.ok()) GTEST_SKIP() << "cannot connect to " << *address;
  EXPECT_EQ(Validate(pair.server(), Ours()), PMIX_ERR_NOT_SUPPORTED);
}

TEST_F(NativeTcp, UnconnectedAndUdpSocketsAreNotJudged) {
  int tcp = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(tcp, 0);
  EXPECT_EQ(Validate(tcp), PMIX_ERR_NOT_SUPPORTED);
  close(tcp);
  int udp = socket(AF_INET, SOCK_DGRAM, 0);
  ASSERT_GE(udp, 0);
  sockaddr_storage to = Address(AF_INET, "127.0.0.1");
  reinterpret_cast<sockaddr_in*>(&to)->sin_port = htons(9);
  ASSERT_EQ(connect(udp, reinterpret_cast<sockaddr*>(&to), sizeof(sockaddr_in)), 0);
  EXPECT_EQ(Validate(udp), PMIX_ERR_NOT_SUPPORTED);
  close(udp);
}

}  // namespace
}  // namespace pmix::psec::test
