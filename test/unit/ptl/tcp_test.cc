// The tcp component through its descriptor, on loopback only.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "mca/ptl/base/fd.h"
#include "pmix/mca/ptl.h"
#include "test/unit/ptl/ptl_test_util.h"

extern "C" pmix_mca_component_t pmix_mca_ptl_tcp_component;

namespace pmix::ptl::test {
namespace {

// Parameter values in the component's table order.
struct Params {
  const char* if_include = "lo";
  long long ipv4_port = 0;
  long long ipv6_port = 0;
  bool disable_ipv4 = false;
  bool disable_ipv6 = false;
};

const pmix_ptl_module_t* Tcp(const Params& p = Params()) {
  pmix_mca_param_value_t values[5] = {};
  values[0].type = PMIX_MCA_PARAM_STRING;
  values[0].value.string = p.if_include;
  values[1].type = values[2].type = PMIX_MCA_PARAM_INT;
  values[1].value.integer = p.ipv4_port;
  values[2].value.integer = p.ipv6_port;
  values[3].type = values[4].type = PMIX_MCA_PARAM_BOOL;
  values[3].value.flag = p.disable_ipv4;
  values[4].value.flag = p.disable_ipv6;
  EXPECT_EQ(pmix_mca_ptl_tcp_component.nparams, 5u);
  return OpenModule(pmix_mca_ptl_tcp_component, values);
}

struct Listening {
  const pmix_ptl_module_t* module = nullptr;
  int fd = -1;
  std::string uri;
  ~Listening() {
    if (fd >= 0) module->unlisten(fd, uri.c_str());
  }
};

pmix_status_t Listen(const std::vector<pmix_info_t>& info, Listening* out,
                     const Params& params = Params()) {
  out->module = Tcp(params);
  char* uri = nullptr;
  pmix_status_t rc = out->module->listen(info.data(), info.size(), &out->fd, &uri);
  if (rc == PMIX_SUCCESS) {
    out->uri = uri;
    std::free(uri);
  }
  return rc;
}

int PortOf(const std::string& uri) { return std::stoi(uri.substr(uri.rfind(':') + 1)); }

void ConnectAcceptExchange(const Listening& listening) {
  int raw = -1;
  ASSERT_EQ(listening.module->connect(listening.uri.c_str(), 5000, &raw), PMIX_SUCCESS);
  Fd client(raw);
  EXPECT_TRUE(IsCloexec(client.get()) && IsNonblocking(client.get()) && HasNoDelay(client.get()));
  ASSERT_TRUE(WaitReadable(listening.fd));
  ASSERT_EQ(listening.module->accept(listening.fd, &raw), PMIX_SUCCESS);
  Fd server(raw);
  EXPECT_TRUE(IsCloexec(server.get()) && IsNonblocking(server.get()) && HasNoDelay(server.get()));
  ExchangeFrames(client.get(), server.get());
}

TEST(Tcp, ListensOnIpv4LoopbackByDefault) {
  Listening listening;
  ASSERT_EQ(Listen({}, &listening), PMIX_SUCCESS);
  EXPECT_EQ(listening.uri.rfind("tcp4://127.0.0.1:", 0), 0u) << listening.uri;
  EXPECT_GT(PortOf(listening.uri), 0);
  EXPECT_TRUE(IsCloexec(listening.fd) && IsNonblocking(listening.fd));
  ConnectAcceptExchange(listening);
  int fd = -1;
  EXPECT_EQ(listening.module->accept(listening.fd, &fd), PMIX_ERR_WOULD_BLOCK);
}

TEST(Tcp, ListensOnIpv6LoopbackWhenIpv4IsDisabled) {
  Listening listening;
  pmix_status_t rc = Listen({BoolInfo(PMIX_TCP_DISABLE_IPV4, true)}, &listening);
  if (rc == PMIX_ERR_NOT_SUPPORTED) GTEST_SKIP() << "no IPv6 loopback address";
  ASSERT_EQ(rc, PMIX_SUCCESS);
  EXPECT_EQ(listening.uri.rfind("tcp6://[::1]:", 0), 0u) << listening.uri;
  ConnectAcceptExchange(listening);
}

TEST(Tcp, Ipv6DisabledByParameterStillListensOnIpv4) {
  Params params;
  params.disable_ipv6 = true;
  Listening listening;
  ASSERT_EQ(Listen({}, &listening, params), PMIX_SUCCESS);
  EXPECT_EQ(listening.uri.rfind("tcp4://", 0), 0u);
}

TEST(Tcp, BothFamiliesDisabledDeclines) {
  Listening listening;
  EXPECT_EQ(Listen({BoolInfo(PMIX_TCP_DISABLE_IPV4, true), BoolInfo(PMIX_TCP_DISABLE_IPV6, true)},
                   &listening),
            PMIX_ERR_NOT_SUPPORTED);
}

TEST(Tcp, HonoursTheRequestedPort) {
  int port = 0;
  {
    Listening probe;
    ASSERT_EQ(Listen({}, &probe), PMIX_SUCCESS);
    port = PortOf(probe.uri);
  }
  Listening listening;
  ASSERT_EQ(Listen({IntInfo(PMIX_TCP_IPV4_PORT, port)}, &listening), PMIX_SUCCESS);
  EXPECT_EQ(listening.uri, "tcp4://127.0.0.1:" + std::to_string(port));
  // The port is now taken: a second listener there is refused.
  Listening second;
  EXPECT_EQ(Listen({IntInfo(PMIX_TCP_IPV4_PORT, port)}, &second), PMIX_ERR_EXISTS);
}

TEST(Tcp, RejectsOutOfRangePorts) {
  for (int port : {-1, 65536}) {
    Listening listening;
    EXPECT_EQ(Listen({IntInfo(PMIX_TCP_IPV4_PORT, port)}, &listening), PMIX_ERR_BAD_PARAM);
  }
}

TEST(Tcp, UnknownInterfaceIsAClearError) {
  Listening by_info;
  EXPECT_EQ(Listen({StringInfo(PMIX_TCP_IF_INCLUDE, "lo,pmixx-no-such0")}, &by_info),
            PMIX_ERR_BAD_PARAM);
  Params params;
  params.if_include = "pmixx-no-such0";
  Listening by_param;
  EXPECT_EQ(Listen({}, &by_param, params), PMIX_ERR_BAD_PARAM);
  // The directive overrides the parameter.
  Listening overridden;
  EXPECT_EQ(Listen({StringInfo(PMIX_TCP_IF_INCLUDE, " lo ")}, &overridden, params), PMIX_SUCCESS);
}

TEST(Tcp, ConnectToAClosedPortFailsFast) {
  int port = 0;
  {
    Listening probe;
    ASSERT_EQ(Listen({}, &probe), PMIX_SUCCESS);
    port = PortOf(probe.uri);
  }
  int fd = -1;
  std::string uri = "tcp4://127.0.0.1:" + std::to_string(port);
  EXPECT_EQ(Tcp()->connect(uri.c_str(), 60000, &fd), PMIX_ERR_UNREACH);
  EXPECT_EQ(fd, -1);
}

TEST(Tcp, ParsesOnlyItsOwnWellFormedUris) {
  const struct {
    const char* uri;
    pmix_status_t expected;
  } kCases[] = {
      {"usock:/tmp/x", PMIX_ERR_NOT_SUPPORTED},
      {"tcp://127.0.0.1:1", PMIX_ERR_NOT_SUPPORTED},
      {"", PMIX_ERR_NOT_SUPPORTED},
      {"tcp4://127.0.0.1", PMIX_ERR_BAD_PARAM},
      {"tcp4://127.0.0.1:0", PMIX_ERR_BAD_PARAM},
      {"tcp4://127.0.0.1:70000", PMIX_ERR_BAD_PARAM},
      {"tcp4://127.0.0.1:12x", PMIX_ERR_BAD_PARAM},
      {"tcp4://localhost:80", PMIX_ERR_BAD_PARAM},
      {"tcp4://::1:80", PMIX_ERR_BAD_PARAM},
      {"tcp6://::1:80", PMIX_ERR_BAD_PARAM},
      {"tcp6://[127.0.0.1]:80", PMIX_ERR_BAD_PARAM},
      {"tcp6://[::1]:", PMIX_ERR_BAD_PARAM},
  };
  for (const auto& c : kCases) {
    int fd = -1;
    EXPECT_EQ(Tcp()->connect(c.uri, 100, &fd), c.expected) << c.uri;
    EXPECT_EQ(fd, -1) << c.uri;
  }
}

}  // namespace
}  // namespace pmix::ptl::test
