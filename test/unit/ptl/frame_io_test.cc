// Whole-frame I/O with deadlines over a Unix socketpair.
#include "mca/ptl/base/frame_io.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "mca/ptl/base/fd.h"

namespace pmix::ptl {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kWait{5000};
constexpr milliseconds kShort{50};

struct Pair {
  Fd a, b;
  Pair() {
    int fds[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
    a.Reset(fds[0]);
    b.Reset(fds[1]);
  }
};

Frame Sized(size_t size) {
  Frame frame{1, 2, 3, std::vector<uint8_t>(size)};
  for (size_t i = 0; i < size; ++i) frame.payload[i] = static_cast<uint8_t>(i ^ (i >> 8));
  return frame;
}

TEST(FrameIo, SendsAndReceivesFramesLargerThanTheSocketBuffer) {
  Pair pair;
  Frame frame = Sized(3 << 20);
  Status sent;
  std::thread sender([&] { sent = SendFrame(pair.a.get(), frame, kWait); });
  FrameReader reader(4 << 20);
  auto got = RecvFrame(pair.b.get(), reader, kWait);
  sender.join();
  ASSERT_TRUE(sent.ok());
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, frame);
}

TEST(FrameIo, KeepsBytesOfTheNextFrameInTheReader) {
  Pair pair;
  ASSERT_TRUE(SendFrame(pair.a.get(), Sized(10), kWait).ok());
  ASSERT_TRUE(SendFrame(pair.a.get(), Sized(20), kWait).ok());
  pair.a.Reset();  // the second frame must come from the reader's buffer
  FrameReader reader(100);
  auto first = RecvFrame(pair.b.get(), reader, kWait);
  auto second = RecvFrame(pair.b.get(), reader, kWait);
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(first->payload.size(), 10u);
  EXPECT_EQ(second->payload.size(), 20u);
  EXPECT_EQ(RecvFrame(pair.b.get(), reader, kWait).status().code(), PMIX_ERR_LOST_CONNECTION);
}

TEST(FrameIo, ReceiveTimesOut) {
  Pair pair;
  FrameReader reader(100);
  EXPECT_EQ(RecvFrame(pair.b.get(), reader, kShort).status().code(), PMIX_ERR_TIMEOUT);
}

TEST(FrameIo, ReceiveOfAPartialFrameTimesOut) {
  Pair pair;
  auto header = EncodeFrameHeader(0, 0, 0, 10);
  ASSERT_TRUE(header.ok());
  ASSERT_EQ(::write(pair.a.get(), header->data(), header->size()), 16);
  FrameReader reader(100);
  EXPECT_EQ(RecvFrame(pair.b.get(), reader, kShort).status().code(), PMIX_ERR_TIMEOUT);
  EXPECT_TRUE(reader.Partial());
}

TEST(FrameIo, SendTimesOutWhenThePeerDoesNotRead) {
  Pair pair;
  EXPECT_EQ(SendFrame(pair.a.get(), Sized(16 << 20), kShort).code(), PMIX_ERR_TIMEOUT);
}

TEST(FrameIo, SendToAClosedPeerFailsWithoutSigpipe) {
  Pair pair;
  pair.b.Reset();
  EXPECT_EQ(SendFrame(pair.a.get(), Sized(100), kWait).code(), PMIX_ERR_LOST_CONNECTION);
}

TEST(FrameIo, OversizeFrameIsTheReadersError) {
  Pair pair;
  ASSERT_TRUE(SendFrame(pair.a.get(), Sized(101), kWait).ok());
  FrameReader reader(100);
  EXPECT_EQ(RecvFrame(pair.b.get(), reader, kWait).status().code(), PMIX_ERR_BAD_PARAM);
}

TEST(FrameIo, GarbageIsTheReadersError) {
  Pair pair;
  const char kJunk[] = "GET / HTTP/1.1\r\n\r\n";
  ASSERT_GT(::write(pair.a.get(), kJunk, sizeof kJunk), 0);
  FrameReader reader(100);
  EXPECT_EQ(RecvFrame(pair.b.get(), reader, kWait).status().code(), PMIX_ERR_UNPACK_FAILURE);
}

TEST(FrameIo, WorksOnNonBlockingSockets) {
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds), 0);
  Fd a(fds[0]), b(fds[1]);
  Frame frame = Sized(1 << 20);
  Status sent;
  std::thread sender([&] { sent = SendFrame(a.get(), frame, kWait); });
  FrameReader reader(1 << 20);
  auto got = RecvFrame(b.get(), reader, kWait);
  sender.join();
  ASSERT_TRUE(sent.ok());
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, frame);
}

}  // namespace
}  // namespace pmix::ptl
