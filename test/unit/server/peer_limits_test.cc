// What a peer that has not authenticated can make the server hold, and
// what a connected one can (server_accept.h, docs/security.md), against a
// real server in this process and peers that speak the wire by hand.
//
// The limits are lowered for this program (before the ptl framework opens):
// 4 connections without a hello at a time, 5 s to say hello, 1 MiB of
// decoded values per message, 1 MiB queued for a peer that does not read.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

#include "pmix.h"
#include "pmix_server.h"
#include "mca/bfrops/base/bfrops_base.h"
#include "src/runtime/context.h"
#include "src/wire/buffer.h"
#include "test/unit/server/in_process_server.h"
#include "test/unit/server/raw_peer.h"

namespace pmix::server {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using test_support::RawPeer;

constexpr int kMaxUnauthenticated = 4;

const bool g_env = [] {
  setenv("PMIX_MCA_ptl_base_max_unauthenticated", "4", 1);
  setenv("PMIX_MCA_ptl_base_hello_timeout", "5", 1);
  setenv("PMIX_MCA_ptl_base_max_decoded_size", "1M", 1);
  setenv("PMIX_MCA_ptl_base_max_send_queue", "1M", 1);
  return true;
}();

// A frame header of `type` announcing `length` payload bytes.
std::vector<uint8_t> Header(uint16_t type, uint32_t length) {
  auto h = ptl::EncodeFrameHeader(0, type, 1, length);
  return std::vector<uint8_t>(h->begin(), h->end());
}

class PeerLimits : public test_support::InProcessServer {
 protected:
  void SetUp() override {
    ASSERT_TRUE(g_env);
    StartServer(false, {});
    uri_ = test_support::RegisterJob("limits", 4);
    ASSERT_FALSE(uri_.empty());
  }
  std::string uri_;
};

// Before the hello is accepted a peer gets a few KiB: a hello frame larger
// than ptl_base_max_hello_size closes the connection at its header (it
// used to be buffered up to 64 MiB).
TEST_F(PeerLimits, OversizeHelloClosesTheConnectionAtItsHeader) {
  RawPeer p;
  ASSERT_TRUE(p.Connect(uri_));
  auto h = Header(static_cast<uint16_t>(wire::Msg::kHello), 9 * 1024);
  ASSERT_TRUE(p.SendRaw(h.data(), h.size()));
  EXPECT_TRUE(p.ClosedWithin(seconds(10)));
  // A hello of an ordinary size is still welcome.
  RawPeer ok;
  ASSERT_TRUE(ok.Connect(uri_));
  auto reply = ok.Hello("limits", 0, seconds(10));
  ASSERT_TRUE(reply.has_value());
  EXPECT_EQ((*reply)[0], "0");
}

// Once connected, the frame limit is the connected one.
TEST_F(PeerLimits, ConnectedPeersMaySendLargeMessages) {
  RawPeer p;
  ASSERT_TRUE(p.Connect(uri_));
  auto reply = p.Hello("limits", 1, seconds(10));
  ASSERT_TRUE(reply.has_value());
  ASSERT_EQ((*reply)[0], "0");
  // An unknown request of 1 MiB is answered (NOT_SUPPORTED), not cut off.
  std::vector<uint8_t> big(1 << 20, 0x5a);
  ASSERT_TRUE(p.Send(999, 7, big));
  auto answer = p.Recv(milliseconds(10000));
  ASSERT_TRUE(answer.has_value());
  EXPECT_EQ(answer->tag, 7u);
}

// At most ptl_base_max_unauthenticated connections wait for their hello;
// the next one waits in the backlog, unrefused, until one of them leaves.
TEST_F(PeerLimits, UnauthenticatedConnectionsAreBoundedNotRefused) {
  std::vector<RawPeer> idle(kMaxUnauthenticated);
  for (auto& p : idle) ASSERT_TRUE(p.Connect(uri_));
  RawPeer late;
  ASSERT_TRUE(late.Connect(uri_));
  wire::Hello h;
  h.version = "test";
  h.role = "client";
  h.codec = "native1";
  h.psec = "native";
  h.nspace = "limits";
  h.rank = 2;
  ASSERT_TRUE(late.Send(static_cast<uint16_t>(wire::Msg::kHello), 1, h.Encode()));
  EXPECT_FALSE(late.Recv(milliseconds(1000)).has_value()) << "accepted beyond the limit";
  idle[0].Close();
  auto reply = late.Recv(milliseconds(10000));
  ASSERT_TRUE(reply.has_value()) << "not accepted after a slot freed";
  auto fields = wire::DecodeFields(reply->payload);
  ASSERT_TRUE(fields.ok());
  EXPECT_EQ((*fields)[0], "0");
}

// A connection that never says hello is closed after ptl_base_hello_timeout.
TEST_F(PeerLimits, SilentConnectionsAreClosed) {
  RawPeer p;
  ASSERT_TRUE(p.Connect(uri_));
  EXPECT_TRUE(p.ClosedWithin(seconds(30)));
}

// A connected peer's message may only take ptl_base_max_decoded_size once
// decoded: an abort request naming 60,000 procs (480 KB on the wire, 15 MiB
// as pmix_proc_t) is refused with PMIX_ERR_OUT_OF_RESOURCE before the host
// hears of it, and the peer stays connected.
TEST_F(PeerLimits, DecodingIsBoundedPerMessage) {
  RawPeer p;
  ASSERT_TRUE(p.Connect(uri_));
  auto reply = p.Hello("limits", 3, seconds(10));
  ASSERT_TRUE(reply.has_value());
  ASSERT_EQ((*reply)[0], "0");
  auto codec = bfrops::CodecByName("native1");
  ASSERT_TRUE(codec.ok());
  std::vector<pmix_proc_t> procs(60000);
  for (size_t i = 0; i < procs.size(); ++i) PMIx_Load_procid(&procs[i], "", static_cast<pmix_rank_t>(i));
  wire::Writer w(*codec);
  w.I32(1).Str("bye").Procs(procs);
  auto body = w.Take();
  ASSERT_TRUE(body.ok());
  ASSERT_LT(body->size(), size_t{1} << 20);
  ASSERT_TRUE(p.Send(static_cast<uint16_t>(wire::Msg::kAbort), 9, *body));
  auto answer = p.Recv(milliseconds(10000));
  ASSERT_TRUE(answer.has_value());
  wire::Reader r(*codec, answer->payload);
  EXPECT_EQ(r.Status(), PMIX_ERR_OUT_OF_RESOURCE);
  // Still connected: a small request is answered.
  ASSERT_TRUE(p.Send(999, 10, {}));
  auto again = p.Recv(milliseconds(10000));
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->tag, 10u);
}

// A connected peer that stops reading its socket while the server keeps
// sending (events here; collective results and forwarded output queue the
// same way) is disconnected once more than ptl_base_max_send_queue bytes
// wait for it; it used to be buffered without bound. A peer that reads is
// not disconnected, and the server goes on serving.
TEST_F(PeerLimits, PeerThatDoesNotReadIsDisconnected) {
  RawPeer stalled;
  ASSERT_TRUE(stalled.Connect(uri_));
  auto reply = stalled.Hello("limits", 1, seconds(10));
  ASSERT_TRUE(reply.has_value());
  ASSERT_EQ((*reply)[0], "0");
  // 8 MiB of events (128 x 64 KiB): far beyond the 1 MiB bound plus
  // what the kernel's socket buffers hold.
  std::vector<char> blob(64 << 10, 'x');
  pmix_byte_object_t bo{blob.data(), blob.size()};
  // Not cached: the reader below is not sent them again when it connects.
  pmix_info_t info[2];
  PMIx_Info_load(&info[0], "limits.blob", &bo, PMIX_BYTE_OBJECT);
  bool yes = true;
  PMIx_Info_load(&info[1], PMIX_EVENT_DO_NOT_CACHE, &yes, PMIX_BOOL);
  pmix_proc_t source;
  PMIx_Load_procid(&source, "limits", PMIX_RANK_WILDCARD);
  for (int i = 0; i < 128; ++i)
    ASSERT_EQ(PMIx_Notify_event(PMIX_EVENT_JOB_END, &source, PMIX_RANGE_GLOBAL, info, 2,
                                nullptr, nullptr),
              PMIX_SUCCESS);
  PMIx_Info_destruct(&info[0]);
  EXPECT_TRUE(stalled.ClosedWithin(seconds(20))) << "a peer that does not read was kept";
  // The server still serves, and a peer that reads gets what is sent.
  RawPeer reader;
  ASSERT_TRUE(reader.Connect(uri_));
  reply = reader.Hello("limits", 2, seconds(10));
  ASSERT_TRUE(reply.has_value());
  ASSERT_EQ((*reply)[0], "0");
  std::vector<char> small(4 << 10, 'y');
  pmix_byte_object_t sbo{small.data(), small.size()};
  PMIx_Info_load(&info[0], "limits.blob", &sbo, PMIX_BYTE_OBJECT);
  ASSERT_EQ(PMIx_Notify_event(PMIX_EVENT_JOB_END, &source, PMIX_RANGE_GLOBAL, info, 2, nullptr,
                              nullptr),
            PMIX_SUCCESS);
  PMIx_Info_destruct(&info[0]);
  auto ev = reader.Recv(milliseconds(10000));
  ASSERT_TRUE(ev.has_value()) << "a reading peer got nothing";
  EXPECT_EQ(ev->type, static_cast<uint16_t>(wire::Msg::kEvent));
}

// accept() failing with EMFILE leaves the connection pending and the
// listener readable: the server must not be woken for it again and again
// (it used to spin at 100% CPU), and must accept it once descriptors free.
TEST(AcceptLoop, OutOfDescriptorsBacksOffAndRecovers) {
  ASSERT_TRUE(g_env);
  pmix_info_t info;
  bool yes = true;
  PMIx_Info_load(&info, PMIX_EXTERNAL_PROGRESS, &yes, PMIX_BOOL);
  ASSERT_EQ(PMIx_server_init(nullptr, &info, 1), PMIX_SUCCESS);
  PMIx_Info_destruct(&info);
  std::string uri = test_support::ServerUri();
  ASSERT_FALSE(uri.empty());
  runtime::ProgressEngine* engine = runtime::Engine();
  ASSERT_NE(engine, nullptr);

  rlimit saved{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &saved), 0);
  int probe = ::open("/dev/null", O_RDONLY);
  ASSERT_GE(probe, 0);
  ::close(probe);
  rlimit low = saved;
  low.rlim_cur = static_cast<rlim_t>(probe + 16);
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
  std::vector<int> fillers;
  for (int fd; (fd = ::open("/dev/null", O_RDONLY)) >= 0;) fillers.push_back(fd);
  ::close(fillers.back());  // room for the client's socket only
  fillers.pop_back();
  RawPeer peer;
  bool connected = peer.Connect(uri);
  int runs = 0;
  for (int i = 0; i < 200; ++i) {
    runs += engine->RunOnce();
    std::this_thread::sleep_for(milliseconds(5));
  }
  for (int fd : fillers) ::close(fd);
  setrlimit(RLIMIT_NOFILE, &saved);
  ASSERT_TRUE(connected);
  // A few back-off timers and retries, not one wake-up per loop pass.
  EXPECT_LT(runs, 40) << "the accept loop spins while out of descriptors";

  wire::Hello h;
  h.nspace = "nobody";
  ASSERT_TRUE(peer.Send(static_cast<uint16_t>(wire::Msg::kHello), 1, h.Encode()));
  std::optional<ptl::Frame> reply;
  for (int i = 0; i < 2000 && !reply; ++i) {
    engine->RunOnce();
    reply = peer.Recv(milliseconds(5));
  }
  EXPECT_TRUE(reply.has_value()) << "the pending connection was never accepted";
  EXPECT_EQ(PMIx_server_finalize(), PMIX_SUCCESS);
}

}  // namespace
}  // namespace pmix::server
