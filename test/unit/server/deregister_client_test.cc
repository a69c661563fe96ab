// PMIx_server_deregister_client of a client that never connected (its
// PMIx_Init was refused, it crashed before): the fences waiting for it go
// on among the others (PMIX_ERR_PARTIAL_SUCCESS), as for a participant that
// finalized without contributing, and later fences do not wait for it. A
// refused connection claiming its rank changes nothing: a local user of
// another uid must not be able to disrupt a job's fences.
//
// Against a real server in this process (no host upcalls: every fence is
// local) and clients that speak the wire by hand (raw_peer.h).
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <vector>

#include "mca/bfrops/base/bfrops_base.h"
#include "pmix.h"
#include "pmix_server.h"
#include "src/wire/buffer.h"
#include "test/unit/gds/region_test_util.h"
#include "test/unit/server/in_process_server.h"
#include "test/unit/server/raw_peer.h"

namespace pmix::server {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using test_support::RawPeer;
using test_support::RunOp;

constexpr const char* kJob = "dereg";

pmix_proc_t Rank(pmix_rank_t r) {
  pmix_proc_t p;
  PMIx_Load_procid(&p, kJob, r);
  return p;
}

class DeregisterClient : public test_support::InProcessServer {
 protected:
  void SetUp() override {
    StartServer(false, {});
    // Three ranks on this node; rank 1 belongs to another uid (as the test
    // host's --refuse-rank).
    ASSERT_EQ(test_support::RegisterLocalJob(
                  kJob, 3, [](pmix_rank_t r) { return ::getuid() + (r == 1 ? 1 : 0); }),
              PMIX_SUCCESS);
    uri_ = test_support::ServerUri();
    ASSERT_FALSE(uri_.empty());
    auto codec = bfrops::CodecByName("native1");
    ASSERT_TRUE(codec.ok());
    codec_ = *codec;
  }

  void Join(RawPeer& p, pmix_rank_t rank) { ASSERT_TRUE(test_support::JoinAs(p, uri_, kJob, rank)); }

  // A fence over the whole job, as PMIx_Fence(NULL, 0, NULL, 0) sends it.
  void SendFence(RawPeer& p, uint32_t tag) {
    pmix_proc_t all = Rank(PMIX_RANK_WILDCARD);
    wire::Writer w(codec_);
    w.Procs(std::vector<pmix_proc_t>{all}).InfoArray({});
    auto body = w.Take();
    ASSERT_TRUE(body.ok());
    ASSERT_TRUE(p.Send(static_cast<uint16_t>(wire::Msg::kFence), tag, *body));
  }

  // The fence's answer (its status), or nullopt when none came in `wait`.
  std::optional<pmix_status_t> FenceAnswer(RawPeer& p, uint32_t tag, milliseconds wait) {
    return test_support::NextStatus(p, codec_, tag, wait);
  }

  std::string uri_;
  const pmix_bfrops_module_t* codec_ = nullptr;
};

TEST_F(DeregisterClient, PendingAndLaterFencesGoOnWithoutIt) {
  RawPeer zero, two;
  Join(zero, 0);
  Join(two, 2);
  SendFence(zero, 5);
  SendFence(two, 5);
  // An impostor (this uid, rank 1 is another's) is refused; the fence
  // still waits for the real rank 1.
  RawPeer impostor;
  ASSERT_TRUE(impostor.Connect(uri_));
  auto refused = impostor.Hello(kJob, 1, seconds(10));
  ASSERT_TRUE(refused.has_value());
  EXPECT_NE((*refused)[0], "0") << "a client of another uid was admitted";
  EXPECT_TRUE(impostor.ClosedWithin(seconds(10)));
  EXPECT_FALSE(FenceAnswer(zero, 5, milliseconds(500)).has_value())
      << "a refused connection completed the real rank's fence";
  // The host saw rank 1 end: the fence goes on among the others.
  pmix_proc_t one = Rank(1);
  ASSERT_EQ(RunOp([&](pmix_op_cbfunc_t cb, void* cbdata) {
              PMIx_server_deregister_client(&one, cb, cbdata);
              return PMIX_SUCCESS;
            }),
            PMIX_SUCCESS);
  EXPECT_EQ(FenceAnswer(zero, 5, milliseconds(10000)), PMIX_ERR_PARTIAL_SUCCESS);
  EXPECT_EQ(FenceAnswer(two, 5, milliseconds(10000)), PMIX_ERR_PARTIAL_SUCCESS);
  // A fence begun afterwards does not wait for it either.
  SendFence(zero, 6);
  EXPECT_FALSE(FenceAnswer(zero, 6, milliseconds(200)).has_value()) << "rank 2 is still awaited";
  SendFence(two, 6);
  EXPECT_EQ(FenceAnswer(zero, 6, milliseconds(10000)), PMIX_ERR_PARTIAL_SUCCESS);
  EXPECT_EQ(FenceAnswer(two, 6, milliseconds(10000)), PMIX_ERR_PARTIAL_SUCCESS);
  // Registered again, it is awaited again.
  ASSERT_EQ(RunOp([&](pmix_op_cbfunc_t cb, void* cbdata) {
              return PMIx_server_register_client(&one, ::getuid(), ::getgid(), nullptr, cb, cbdata);
            }),
            PMIX_SUCCESS);
  SendFence(zero, 7);
  SendFence(two, 7);
  EXPECT_FALSE(FenceAnswer(zero, 7, milliseconds(500)).has_value())
      << "a registered rank was not awaited";
  RawPeer back;
  Join(back, 1);
  SendFence(back, 7);
  EXPECT_EQ(FenceAnswer(zero, 7, milliseconds(10000)), PMIX_SUCCESS);
  EXPECT_EQ(FenceAnswer(two, 7, milliseconds(10000)), PMIX_SUCCESS);
  EXPECT_EQ(FenceAnswer(back, 7, milliseconds(10000)), PMIX_SUCCESS);
}

// Whether a pnet component is loaded in this process.
bool PnetLoaded() { return gds::test::MappingCount("pmix_mca_pnet_") > 0; }

// Deregistering a job that used no fabric support leaves the pnet framework
// closed: opening it there scanned every component directory and loaded
// the pnet plugins at each job's end.
TEST_F(DeregisterClient, NamespaceGoneWithoutOpeningPnet) {
  if (PnetLoaded()) GTEST_SKIP() << "another test of this program loaded pnet";
  ASSERT_EQ(RunOp([&](pmix_op_cbfunc_t cb, void* cbdata) {
              PMIx_server_deregister_nspace(kJob, cb, cbdata);
              return PMIX_SUCCESS;
            }),
            PMIX_SUCCESS);
  EXPECT_FALSE(PnetLoaded());
}

}  // namespace
}  // namespace pmix::server
