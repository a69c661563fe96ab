// Descriptors travelling with frames: the reader hands each frame the
// descriptors its header announces and refuses any other; SendFrame and
// RecvFrame carry them over Unix socketpairs (close-on-exec on arrival),
// refuse them on TCP, and a peer that sends descriptors it should not
// breaks only its stream, leaking nothing.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "mca/ptl/base/fd_passing.h"
#include "mca/ptl/base/frame.h"
#include "mca/ptl/base/frame_io.h"
#include "test/unit/ptl/fd_test_util.h"

namespace pmix::ptl {
namespace {

using Bytes = std::vector<uint8_t>;
using std::chrono::milliseconds;
using test::Files;
using test::Numbers;
using test::OpenFdCount;

constexpr milliseconds kWait{5000};

Bytes Encoded(uint16_t type, size_t payload, size_t nfds) {
  Frame frame{0, type, 7, Bytes(payload, 0x5a)};
  frame.fds = Files(nfds);
  auto bytes = EncodeFrame(frame);
  EXPECT_TRUE(bytes.ok());
  return bytes.ok() ? *bytes : Bytes{};
}

std::span<const uint8_t> Span(const Bytes& b, size_t from = 0, size_t n = SIZE_MAX) {
  return std::span<const uint8_t>(b).subspan(from, std::min(n, b.size() - from));
}

struct Pair {
  Fd a, b;
  Pair() {
    int fds[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
    a.Reset(fds[0]);
    b.Reset(fds[1]);
  }
};

TEST(FrameHeaderFds, CountsDescriptorsInByteSixUpToTheMaximum) {
  auto header = EncodeFrameHeader(0, 1, 2, 3, 5);
  ASSERT_TRUE(header.ok());
  EXPECT_EQ((*header)[6], 5);
  EXPECT_EQ((*header)[7], 0);
  EXPECT_EQ(EncodeFrameHeader(0, 1, 2, 3, kMaxFrameFds + 1).status().code(), PMIX_ERR_BAD_PARAM);
}

TEST(FrameReaderFds, GivesEachFrameTheDescriptorsItAnnounces) {
  FrameReader reader(1024, kMaxFrameFds);
  std::vector<Fd> first = Files(2), second = Files(1);
  std::vector<int> first_numbers = Numbers(first), second_numbers = Numbers(second);
  Bytes a = Encoded(1, 10, 2), none = Encoded(2, 0, 0), b = Encoded(3, 100, 1);
  ASSERT_TRUE(reader.Feed(Span(a), std::move(first)).ok());
  ASSERT_TRUE(reader.Feed(Span(none)).ok());
  // Descriptors come with the chunk where their header starts, which may
  // end before the header does.
  ASSERT_TRUE(reader.Feed(Span(b, 0, 5), std::move(second)).ok());
  ASSERT_TRUE(reader.Feed(Span(b, 5, 3)).ok());
  ASSERT_TRUE(reader.Feed(Span(b, 8)).ok());
  auto f1 = reader.Pop(), f2 = reader.Pop(), f3 = reader.Pop();
  ASSERT_TRUE(f1 && f2 && f3);
  EXPECT_EQ(Numbers(f1->fds), first_numbers);
  EXPECT_TRUE(f2->fds.empty());
  EXPECT_EQ(Numbers(f3->fds), second_numbers);
  EXPECT_EQ(f3->payload.size(), 100u);
}

// Each case: what a peer sends (bytes in pieces, descriptors with some
// piece); the reader's verdict is PMIX_ERR_BAD_PARAM and every descriptor
// it was given is closed.
struct Hostile {
  const char* what;
  size_t max_fds;
  size_t announce;     // in the header
  size_t send;         // descriptors actually sent
  size_t with_offset;  // the stream offset of the piece they come with
};

const Hostile kHostile[] = {
    {"descriptors to a reader that takes none", 0, 1, 1, 0},
    {"a header announcing more than arrived", kMaxFrameFds, 2, 1, 0},
    {"a header announcing none, with descriptors", kMaxFrameFds, 0, 1, 0},
    {"descriptors more than announced", kMaxFrameFds, 1, 2, 0},
    {"descriptors with payload bytes", kMaxFrameFds, 0, 1, kFrameHeaderSize + 4},
    {"descriptors with a header's later bytes", kMaxFrameFds, 0, 1, 3},
    {"more than the reader's maximum at once", 2, 2, 3, 0},
};

TEST(FrameReaderFds, RefusesAndClosesDescriptorsNoHeaderClaims) {
  for (const Hostile& h : kHostile) {
    FrameReader reader(1024, h.max_fds);
    Bytes stream = Encoded(1, 32, h.announce);
    stream.resize(stream.size() + 1, 0x50);  // a next frame begins
    std::vector<Fd> fds = Files(h.send);
    std::vector<int> numbers = Numbers(fds);
    Status status = reader.Feed(Span(stream, 0, h.with_offset));
    if (status.ok()) status = reader.Feed(Span(stream, h.with_offset, 1), std::move(fds));
    if (status.ok()) status = reader.Feed(Span(stream, h.with_offset + 1));
    EXPECT_EQ(status.code(), PMIX_ERR_BAD_PARAM) << h.what;
    EXPECT_EQ(reader.Feed(Span(stream)).code(), PMIX_ERR_BAD_PARAM) << h.what << ": sticky";
    while (auto frame = reader.Pop()) frame->fds.clear();
    for (int fd : numbers) EXPECT_FALSE(test::IsOpen(fd)) << h.what << ": " << fd << " kept";
  }
}

TEST(FrameIoFds, DescriptorsTravelWithTheirFramesCloseOnExec) {
  Pair pair;
  size_t before = OpenFdCount();
  {
    std::vector<Frame> sent;
    for (size_t i = 0; i < 6; ++i) {
      // Payloads larger than a socket buffer: frames leave in many pieces.
      Frame frame{0, static_cast<uint16_t>(i), static_cast<uint32_t>(i), Bytes(300000 * (i % 2))};
      frame.fds = Files(i % 3 == 0 ? 0 : i);
      sent.push_back(std::move(frame));
    }
    Status sent_status;
    std::thread sender([&] {
      for (const Frame& f : sent) {
        sent_status = SendFrame(pair.a.get(), f, kWait);
        if (!sent_status.ok()) return;
      }
    });
    FrameReader reader(1 << 20, kMaxFrameFds);
    for (size_t i = 0; i < sent.size(); ++i) {
      auto got = RecvFrame(pair.b.get(), reader, kWait);
      ASSERT_TRUE(got.ok()) << i << ": " << got.status().code();
      EXPECT_EQ(*got, sent[i]);
      ASSERT_EQ(got->fds.size(), sent[i].fds.size()) << i;
      for (size_t k = 0; k < got->fds.size(); ++k) {
        EXPECT_TRUE(test::SameFile(got->fds[k].get(), sent[i].fds[k].get())) << i << "/" << k;
        EXPECT_NE(got->fds[k].get(), sent[i].fds[k].get());
        EXPECT_TRUE(test::IsCloexec(got->fds[k].get()));
      }
    }
    sender.join();
    EXPECT_TRUE(sent_status.ok());
    for (const Frame& f : sent) {
      for (const Fd& fd : f.fds) EXPECT_TRUE(test::IsOpen(fd.get())) << "SendFrame borrows";
    }
  }
  EXPECT_EQ(OpenFdCount(), before);
}

TEST(FrameIoFds, APeerSendingUnwantedDescriptorsBreaksTheStreamAndLeaksNothing) {
  for (const Hostile& h : kHostile) {
    Pair pair;
    size_t before = OpenFdCount();
    {
      Bytes stream = Encoded(1, 32, h.announce);
      std::vector<Fd> fds = Files(h.send);
      size_t cut = std::min(h.with_offset, stream.size());
      if (cut > 0) {
        ASSERT_TRUE(test::SendRaw(pair.a.get(), Span(stream, 0, cut), {}));
      }
      if (cut < stream.size()) {
        ASSERT_TRUE(test::SendRaw(pair.a.get(), Span(stream, cut), Numbers(fds)));
      } else {
        Bytes next = Encoded(2, 0, 0);
        ASSERT_TRUE(test::SendRaw(pair.a.get(), Span(next), Numbers(fds)));
      }
      FrameReader reader(1024, h.max_fds);
      Status status;
      for (int i = 0; i < 3 && status.ok(); ++i) {
        auto got = RecvFrame(pair.b.get(), reader, milliseconds(200));
        status = got.status();
      }
      EXPECT_EQ(status.code(), PMIX_ERR_BAD_PARAM) << h.what;
    }
    EXPECT_EQ(OpenFdCount(), before) << h.what;
  }
}

TEST(FrameIoFds, TooManyDescriptorsInOneMessageAreRefused) {
  Pair pair;
  size_t before = OpenFdCount();
  {
    Bytes stream = Encoded(1, 0, 0);
    stream[6] = kMaxFrameFds;  // announces the maximum, brings far more
    std::vector<Fd> fds = Files(40);
    ASSERT_TRUE(test::SendRaw(pair.a.get(), Span(stream), Numbers(fds)));
    FrameReader reader(1024, kMaxFrameFds);
    EXPECT_EQ(RecvFrame(pair.b.get(), reader, kWait).status().code(), PMIX_ERR_BAD_PARAM);
  }
  EXPECT_EQ(OpenFdCount(), before);
}

TEST(FrameIoFds, TcpCarriesNoDescriptors) {
  Fd listener(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  ASSERT_TRUE(listener.valid());
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  ASSERT_EQ(::bind(listener.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(listener.get(), 1), 0);
  ASSERT_EQ(::getsockname(listener.get(), reinterpret_cast<sockaddr*>(&addr), &len), 0);
  Fd client(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  ASSERT_EQ(::connect(client.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  Fd server(::accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC));
  ASSERT_TRUE(server.valid());
  EXPECT_FALSE(CanPassFds(client.get()));
  Pair unix_pair;
  EXPECT_TRUE(CanPassFds(unix_pair.a.get()));

  Frame frame{0, 1, 1, Bytes{1, 2, 3}};
  frame.fds = Files(1);
  EXPECT_EQ(SendFrame(client.get(), frame, kWait).code(), PMIX_ERR_NOT_SUPPORTED);
  // Nothing left: the next frame is the first the peer sees.
  frame.fds.clear();
  frame.type = 2;
  ASSERT_TRUE(SendFrame(client.get(), frame, kWait).ok());
  FrameReader reader(1024, kMaxFrameFds);
  auto got = RecvFrame(server.get(), reader, kWait);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->type, 2);
}

}  // namespace
}  // namespace pmix::ptl
