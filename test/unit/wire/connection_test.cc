// Connection: framed messages over a socket pair on a real progress
// engine, request/reply matching, and closing on bad input or peer loss.
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <chrono>
#include <vector>

#include "mca/bfrops/base/bfrops_base.h"
#include "mca/ptl/base/frame_io.h"
#include "src/runtime/progress.h"
#include "src/wire/connection.h"
#include "test/unit/ptl/fd_test_util.h"

namespace pmix::wire {
namespace {

using namespace std::chrono_literals;

class ConnectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    int sv[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv), 0);
    ours_ = sv[0];
    theirs_ = ptl::Fd(sv[1]);
    ASSERT_TRUE(engine_.Start(runtime::ProgressEngine::Mode::kThread).ok());
  }
  void TearDown() override {
    OnEngine([this] {
      if (conn_) conn_->Close(PMIX_ERR_INIT);
      conn_.reset();
    });
    engine_.Stop();
  }
  // Runs fn on the progress thread and waits for it.
  void OnEngine(std::function<void()> fn) {
    runtime::Completion<int> done;
    ASSERT_TRUE(engine_.Post([&] {
      fn();
      done.Set(0);
    }).ok());
    ASSERT_TRUE(done.WaitFor(5000ms).has_value());
  }
  void StartConnection(size_t max_fds = 0) {
    OnEngine([this, max_fds] {
      conn_ = Connection::Create(engine_, ptl::Fd(ours_), ptl::FrameReader(1024, max_fds),
                                 bfrops::DefaultCodec().value());
      ASSERT_TRUE(conn_->Start([this](ptl::Frame&& f) { messages_.Set(std::move(f)); },
                               [this](Status why) { closed_.Set(why.code()); }).ok());
    });
  }

  runtime::ProgressEngine engine_;
  int ours_ = -1;
  ptl::Fd theirs_;
  std::shared_ptr<Connection> conn_;
  runtime::Completion<ptl::Frame> messages_;
  runtime::Completion<pmix_status_t> closed_;
};

TEST_F(ConnectionTest, DeliversMessagesAndMatchesReplies) {
  StartConnection();
  ptl::FrameReader reader(1 << 20);
  ASSERT_TRUE(ptl::SendFrame(theirs_.get(), ptl::Frame{0, 5, 0, {1, 2}}, 1000ms).ok());
  auto got = messages_.WaitFor(5000ms);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->type, 5);
  EXPECT_EQ(got->payload, (Bytes{1, 2}));

  runtime::Completion<Bytes> reply;
  OnEngine([&] {
    ASSERT_TRUE(conn_->Request(6, {9}, [&](Status st, ptl::Frame&& f) {
      EXPECT_TRUE(st.ok());
      reply.Set(f.payload);
    }).ok());
  });
  auto req = ptl::RecvFrame(theirs_.get(), reader, 5000ms);
  ASSERT_TRUE(req.ok());
  EXPECT_EQ(req->type, 6);
  ASSERT_TRUE(ptl::SendFrame(theirs_.get(), ptl::Frame{kFlagReply, 6, req->tag, {7}}, 1000ms).ok());
  auto r = reply.WaitFor(5000ms);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(*r, (Bytes{7}));
}

TEST_F(ConnectionTest, PeerLossFailsPendingRequests) {
  StartConnection();
  runtime::Completion<pmix_status_t> reply;
  OnEngine([&] {
    ASSERT_TRUE(conn_->Request(6, {}, [&](Status st, ptl::Frame&&) { reply.Set(st.code()); }).ok());
  });
  theirs_.Reset();
  auto r = reply.WaitFor(5000ms);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(*r, PMIX_ERR_LOST_CONNECTION);
  auto c = closed_.WaitFor(5000ms);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(*c, PMIX_ERR_LOST_CONNECTION);
}

TEST_F(ConnectionTest, GarbageAndOversizeFramesCloseTheConnection) {
  StartConnection();
  const char junk[] = "GET / HTTP/1.0\r\n\r\n";
  ASSERT_GT(::send(theirs_.get(), junk, sizeof junk, MSG_NOSIGNAL), 0);
  auto c = closed_.WaitFor(5000ms);
  ASSERT_TRUE(c.has_value());
  EXPECT_NE(*c, PMIX_SUCCESS);
}

TEST_F(ConnectionTest, OversizeHeaderIsRefused) {
  StartConnection();
  auto header = ptl::EncodeFrameHeader(0, 1, 1, 4096);  // reader allows 1024
  ASSERT_TRUE(header.ok());
  ASSERT_GT(::send(theirs_.get(), header->data(), header->size(), MSG_NOSIGNAL), 0);
  auto c = closed_.WaitFor(5000ms);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(*c, PMIX_ERR_BAD_PARAM);
}

TEST_F(ConnectionTest, LargeMessagesArriveWhole) {
  OnEngine([this] {
    conn_ = Connection::Create(engine_, ptl::Fd(ours_), ptl::FrameReader(1 << 20),
                               bfrops::DefaultCodec().value());
    ASSERT_TRUE(conn_->Start([](ptl::Frame&&) {}, [](Status) {}).ok());
    Bytes big(512 * 1024, 0xab);  // more than a socket buffer: queued, then drained
    ASSERT_TRUE(conn_->Send(3, 0, big).ok());
  });
  ptl::FrameReader reader(1 << 20);
  auto f = ptl::RecvFrame(theirs_.get(), reader, 5000ms);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->payload.size(), 512u * 1024);
}

TEST_F(ConnectionTest, FramesCarryDescriptorsBothWays) {
  StartConnection(ptl::kMaxFrameFds);
  // In: a frame with two descriptors reaches the handler owning them.
  ptl::Frame in{0, 5, 0, {1}};
  in.fds = ptl::test::Files(2);
  ASSERT_TRUE(ptl::SendFrame(theirs_.get(), in, 1000ms).ok());
  auto got = messages_.WaitFor(5000ms);
  ASSERT_TRUE(got.has_value());
  ASSERT_EQ(got->fds.size(), 2u);
  EXPECT_TRUE(ptl::test::SameFile(got->fds[1].get(), in.fds[1].get()));
  EXPECT_TRUE(ptl::test::IsCloexec(got->fds[0].get()));
  // Out: queued behind a large frame, so it leaves from the write queue.
  std::vector<ptl::Fd> out = ptl::test::Files(3);
  std::vector<int> numbers = ptl::test::Numbers(out);
  std::vector<ptl::Fd> dups;
  for (int fd : numbers) dups.emplace_back(::fcntl(fd, F_DUPFD_CLOEXEC, 0));
  EXPECT_TRUE(conn_->can_pass_fds());
  OnEngine([&] {
    ASSERT_TRUE(conn_->Send(3, 0, Bytes(512 * 1024, 1)).ok());
    ASSERT_TRUE(conn_->SendWithFds(4, 0, {2}, std::move(dups)).ok());
  });
  ptl::FrameReader reader(1 << 20, ptl::kMaxFrameFds);
  auto big = ptl::RecvFrame(theirs_.get(), reader, 5000ms);
  ASSERT_TRUE(big.ok());
  EXPECT_TRUE(big->fds.empty());
  auto small = ptl::RecvFrame(theirs_.get(), reader, 5000ms);
  ASSERT_TRUE(small.ok());
  ASSERT_EQ(small->fds.size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(ptl::test::SameFile(small->fds[i].get(), numbers[i]));
}

TEST_F(ConnectionTest, DescriptorsToAConnectionTakingNoneCloseIt) {
  StartConnection(0);
  size_t before = ptl::test::OpenFdCount();
  {
    ptl::Frame in{0, 5, 0, {1}};
    in.fds = ptl::test::Files(1);
    ASSERT_TRUE(ptl::SendFrame(theirs_.get(), in, 1000ms).ok());
  }
  auto c = closed_.WaitFor(5000ms);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(*c, PMIX_ERR_BAD_PARAM);
  EXPECT_FALSE(messages_.WaitFor(100ms).has_value());
  EXPECT_LE(ptl::test::OpenFdCount(), before);  // what came was closed (and our end)
}

TEST_F(ConnectionTest, TwoPartBodiesShareTheirTailAndArriveInOrder) {
  auto tail = std::make_shared<Bytes>(300 * 1024);  // more than a socket buffer
  for (size_t i = 0; i < tail->size(); ++i) (*tail)[i] = static_cast<uint8_t>(i * 7);
  std::weak_ptr<const Bytes> watch = tail;
  OnEngine([&] {
    conn_ = Connection::Create(engine_, ptl::Fd(ours_), ptl::FrameReader(1 << 20),
                               bfrops::DefaultCodec().value());
    ASSERT_TRUE(conn_->Start([](ptl::Frame&&) {}, [](Status) {}).ok());
    std::shared_ptr<const Bytes> shared = tail;
    ASSERT_TRUE(conn_->SendBody(4, 0, Body(Bytes{1, 2, 3}, shared)).ok());
    ASSERT_TRUE(conn_->SendBody(5, 0, Body(Bytes{}, shared)).ok());
    ASSERT_TRUE(conn_->SendBody(6, 0, Body(Bytes{9})).ok());  // no tail
  });
  Bytes expect_first{1, 2, 3};
  expect_first.insert(expect_first.end(), tail->begin(), tail->end());
  tail.reset();  // the queued messages keep it
  ptl::FrameReader reader(1 << 20);
  auto first = ptl::RecvFrame(theirs_.get(), reader, 5000ms);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->type, 4);
  EXPECT_EQ(first->payload, expect_first);
  auto second = ptl::RecvFrame(theirs_.get(), reader, 5000ms);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->type, 5);
  EXPECT_EQ(second->payload, Bytes(expect_first.begin() + 3, expect_first.end()));
  auto third = ptl::RecvFrame(theirs_.get(), reader, 5000ms);
  ASSERT_TRUE(third.ok());
  EXPECT_EQ(third->payload, Bytes{9});
  OnEngine([] {});
  EXPECT_TRUE(watch.expired());  // released once written
}


// SendNow (any thread): a frame written at once, in order with what the
// progress thread sends; a frame the socket takes only part of is finished
// before anything else; nothing is written once closed.
class SendNowTest : public ConnectionTest {
 protected:
  // Frames from the peer's side until `n` came (bounded).
  std::vector<ptl::Frame> Read(ptl::FrameReader& reader, size_t n) {
    std::vector<ptl::Frame> got;
    while (got.size() < n) {
      auto f = ptl::RecvFrame(theirs_.get(), reader, 5000ms);
      if (!f.ok()) break;
      got.push_back(std::move(*f));
    }
    return got;
  }
};

TEST_F(SendNowTest, WritesFromAnyThreadInOrder) {
  StartConnection();
  ptl::FrameReader reader(1 << 20);
  EXPECT_TRUE(conn_->SendNow(3, 11, Bytes{1}));  // this thread is not the progress thread
  OnEngine([&] { ASSERT_TRUE(conn_->Send(4, 12, Bytes{2}).ok()); });
  EXPECT_TRUE(conn_->SendNow(5, 13, Bytes{3}));
  auto got = Read(reader, 3);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].tag, 11u);
  EXPECT_EQ(got[1].tag, 12u);
  EXPECT_EQ(got[2].tag, 13u);
  EXPECT_EQ(got[2].payload, Bytes{3});
}

TEST_F(SendNowTest, APartlyWrittenFrameIsFinishedFirst) {
  StartConnection();
  // Fill the socket so that the next frame fits only in part.
  int sndbuf = 4096;
  ASSERT_EQ(::setsockopt(ours_, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf), 0);
  Bytes filler(512, 0xab);
  size_t sent_frames = 0;
  while (conn_->SendNow(1, static_cast<uint32_t>(sent_frames), filler)) ++sent_frames;
  ASSERT_GT(sent_frames, 0u);
  // The last one may have gone in part; a frame from the progress thread
  // queued now must come after its rest, and so must a later SendNow.
  OnEngine([&] { ASSERT_TRUE(conn_->Send(2, 1000, Bytes{7}).ok()); });
  ptl::FrameReader reader(1 << 20);
  auto got = Read(reader, sent_frames + 1);
  ASSERT_EQ(got.size(), sent_frames + 1);
  for (size_t i = 0; i < sent_frames; ++i) {
    EXPECT_EQ(got[i].tag, i);
    EXPECT_EQ(got[i].payload, filler);
  }
  EXPECT_EQ(got.back().tag, 1000u);
  EXPECT_TRUE(conn_->SendNow(3, 2000, Bytes{8}));
  got = Read(reader, 1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].tag, 2000u);
}

TEST_F(SendNowTest, NothingIsWrittenOnceClosed) {
  StartConnection();
  OnEngine([&] { conn_->Close(PMIX_ERR_INIT); });
  EXPECT_FALSE(conn_->SendNow(3, 1, Bytes{1}));
}

}  // namespace
}  // namespace pmix::wire
