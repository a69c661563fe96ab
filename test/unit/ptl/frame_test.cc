// The frame format and the incremental reader: round trips in arbitrary
// chunkings, size limits without large allocations, malformed streams.
#include "mca/ptl/base/frame.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "mca/ptl/base/ptl_base.h"

namespace pmix::ptl {
namespace {

using Bytes = std::vector<uint8_t>;

Frame MakeFrame(std::mt19937& rng, size_t size) {
  Frame frame;
  frame.flags = static_cast<uint8_t>(rng());
  frame.type = static_cast<uint16_t>(rng());
  frame.tag = static_cast<uint32_t>(rng());
  frame.payload.resize(size);
  for (uint8_t& byte : frame.payload) byte = static_cast<uint8_t>(rng());
  return frame;
}

Bytes Encode(const Frame& frame) {
  auto bytes = EncodeFrame(frame);
  EXPECT_TRUE(bytes.ok());
  return bytes.ok() ? *bytes : Bytes{};
}

// Feeds stream in chunks of 1..max_chunk bytes; returns the frames popped.
std::vector<Frame> FeedInChunks(FrameReader& reader, const Bytes& stream, std::mt19937& rng,
                                size_t max_chunk) {
  std::vector<Frame> frames;
  size_t at = 0;
  while (at < stream.size()) {
    size_t n = std::min(stream.size() - at, 1 + rng() % max_chunk);
    Status status = reader.Feed(std::span<const uint8_t>(stream.data() + at, n));
    at += n;
    while (auto frame = reader.Pop()) frames.push_back(std::move(*frame));
    if (!status.ok()) break;
  }
  return frames;
}

TEST(FrameHeader, HasTheDocumentedLittleEndianLayout) {
  auto header = EncodeFrameHeader(0x5A, 0x1234, 0xA1B2C3D4u, 0x01020304u);
  ASSERT_TRUE(header.ok());
  const FrameHeader expected = {0x50, 0x58, 0x01, 0x5A, 0x34, 0x12, 0x00, 0x00,
                                0xD4, 0xC3, 0xB2, 0xA1, 0x04, 0x03, 0x02, 0x01};
  EXPECT_EQ(*header, expected);
}

TEST(FrameHeader, RejectsPayloadOver32Bits) {
  EXPECT_EQ(EncodeFrameHeader(0, 0, 0, size_t{1} << 32).status().code(), PMIX_ERR_BAD_PARAM);
}

TEST(FrameReader, RoundTripsManyFramesInAnyChunking) {
  std::mt19937 rng(42);
  std::vector<Frame> sent;
  Bytes stream;
  for (int i = 0; i < 300; ++i) {
    size_t size = i % 50 == 0 ? 100000 + rng() % 100000 : rng() % (i % 3 == 0 ? 8 : 3000);
    sent.push_back(MakeFrame(rng, size));
    Bytes bytes = Encode(sent.back());
    stream.insert(stream.end(), bytes.begin(), bytes.end());
  }
  for (size_t max_chunk : {size_t{1}, size_t{2}, size_t{17}, size_t{4096}, size_t{1} << 20}) {
    FrameReader reader(1 << 20);
    std::vector<Frame> got = FeedInChunks(reader, stream, rng, max_chunk);
    EXPECT_TRUE(reader.status().ok());
    EXPECT_FALSE(reader.Partial());
    ASSERT_EQ(got.size(), sent.size()) << "max_chunk " << max_chunk;
    EXPECT_TRUE(got == sent) << "max_chunk " << max_chunk;
  }
}

TEST(FrameReader, ZeroLengthPayloadCompletesWithTheHeader) {
  Frame frame{1, 2, 3, {}};
  Bytes bytes = Encode(frame);
  ASSERT_EQ(bytes.size(), kFrameHeaderSize);
  FrameReader reader(0);
  ASSERT_TRUE(reader.Feed(std::span<const uint8_t>(bytes.data(), bytes.size() - 1)).ok());
  EXPECT_FALSE(reader.Pop());
  ASSERT_TRUE(reader.Feed(std::span<const uint8_t>(&bytes.back(), 1)).ok());
  auto got = reader.Pop();
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, frame);
  EXPECT_FALSE(reader.Partial());
}

TEST(FrameReader, AcceptsExactlyTheMaximum) {
  std::mt19937 rng(7);
  Frame frame = MakeFrame(rng, 4096);
  FrameReader reader(4096);
  Bytes bytes = Encode(frame);
  ASSERT_TRUE(reader.Feed(bytes).ok());
  auto got = reader.Pop();
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, frame);
}

TEST(FrameReader, RejectsOneOverTheMaximumAtTheHeader) {
  auto header = EncodeFrameHeader(0, 1, 1, 4097);
  ASSERT_TRUE(header.ok());
  FrameReader reader(4096);
  EXPECT_EQ(reader.Feed(*header).code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(reader.PartialCapacity(), 0u);
  // Sticky: nothing more is parsed.
  Bytes more = Encode(Frame{0, 1, 2, {}});
  EXPECT_EQ(reader.Feed(more).code(), PMIX_ERR_BAD_PARAM);
  EXPECT_FALSE(reader.Pop());
}

TEST(FrameReader, LyingHeaderCostsNoLargeAllocation) {
  // A header announcing the production maximum, followed by a trickle.
  auto header = EncodeFrameHeader(0, 1, 1, kDefaultMaxMsgSize);
  ASSERT_TRUE(header.ok());
  FrameReader reader(kDefaultMaxMsgSize);
  ASSERT_TRUE(reader.Feed(*header).ok());
  EXPECT_EQ(reader.PartialCapacity(), 0u);
  Bytes some(100, 0xEE);
  ASSERT_TRUE(reader.Feed(some).ok());
  EXPECT_LE(reader.PartialCapacity(), size_t{64} * 1024);
  EXPECT_TRUE(reader.Partial());
  EXPECT_FALSE(reader.Pop());
}

TEST(FrameReader, ATrustedPeersFrameIsReadIntoOneBufferOfItsSize) {
  std::mt19937 rng(5);
  const size_t size = 300007;
  Frame frame = MakeFrame(rng, size);
  Bytes bytes = Encode(frame);
  FrameReader reader(kDefaultMaxMsgSize);
  reader.set_reserve_declared(true);
  ASSERT_TRUE(reader.Feed(std::span<const uint8_t>(bytes.data(), kFrameHeaderSize)).ok());
  EXPECT_EQ(reader.PartialCapacity(), size);
  for (size_t at = kFrameHeaderSize; at < bytes.size(); at += 4099) {
    size_t n = std::min<size_t>(4099, bytes.size() - at);
    ASSERT_TRUE(reader.Feed(std::span<const uint8_t>(bytes.data() + at, n)).ok());
    if (at + n < bytes.size()) {
      EXPECT_EQ(reader.PartialCapacity(), size);  // never regrown
    }
  }
  auto got = reader.Pop();
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, frame);
}

TEST(FrameReader, PayloadBufferNeverExceedsTheDeclaredLength) {
  std::mt19937 rng(3);
  const size_t size = 1000003;
  Bytes bytes = Encode(MakeFrame(rng, size));
  FrameReader reader(size);
  for (size_t at = 0; at < bytes.size(); at += 4099) {
    size_t n = std::min<size_t>(4099, bytes.size() - at);
    ASSERT_TRUE(reader.Feed(std::span<const uint8_t>(bytes.data() + at, n)).ok());
    EXPECT_LE(reader.PartialCapacity(), size);
  }
  auto got = reader.Pop();
  ASSERT_TRUE(got);
  EXPECT_EQ(got->payload.size(), size);
}

struct BadHeaderCase {
  const char* what;
  size_t offset;
  uint8_t value;
};

TEST(FrameReader, RejectsMalformedHeadersStickily) {
  const BadHeaderCase kCases[] = {
      {"magic 0", 0, 0x00},   {"magic 1", 1, 0x59},     {"version 0", 2, 0x00},
      {"version 2", 2, 0x02}, {"reserved", 7, 0x80},
  };
  // (Byte 6 counts descriptors: fd_passing_test.cc checks it.)
  for (const BadHeaderCase& c : kCases) {
    Bytes good = Encode(Frame{0, 9, 9, {1, 2, 3}});
    Bytes stream = good;
    Bytes bad = good;
    bad[c.offset] = c.value;
    stream.insert(stream.end(), bad.begin(), bad.end());
    stream.insert(stream.end(), good.begin(), good.end());
    FrameReader reader(1024);
    EXPECT_EQ(reader.Feed(stream).code(), PMIX_ERR_UNPACK_FAILURE) << c.what;
    // The frame before the bad header is delivered, nothing after it.
    EXPECT_TRUE(reader.Pop()) << c.what;
    EXPECT_FALSE(reader.Pop()) << c.what;
    EXPECT_EQ(reader.Feed(good).code(), PMIX_ERR_UNPACK_FAILURE) << c.what;
    EXPECT_EQ(reader.status().code(), PMIX_ERR_UNPACK_FAILURE) << c.what;
  }
}

TEST(FrameReader, FlagsAndTypesPassThroughUnchanged) {
  Frame frame{0xFF, 0xFFFF, 0xFFFFFFFFu, {0}};
  FrameReader reader(16);
  ASSERT_TRUE(reader.Feed(Encode(frame)).ok());
  EXPECT_EQ(*reader.Pop(), frame);
}

TEST(FrameReader, SurvivesGarbageStreams) {
  std::mt19937 rng(2026);
  for (int round = 0; round < 200; ++round) {
    Bytes stream(1 + rng() % 5000);
    for (uint8_t& byte : stream) byte = static_cast<uint8_t>(rng());
    if (round % 2 == 0) {  // a valid prefix, so headers further in get parsed
      stream[0] = kFrameMagic0;
      stream[1] = kFrameMagic1;
      stream[2] = kFrameVersion;
      stream[6] = stream[7] = 0;
    }
    FrameReader reader(round % 3 == 0 ? kDefaultMaxMsgSize : 2048);
    (void)FeedInChunks(reader, stream, rng, 1 + round % 64);
    EXPECT_LE(reader.PartialCapacity(), std::max<size_t>(stream.size(), 64 * 1024));
  }
}

TEST(FrameReader, SurvivesCorruptedValidStreams) {
  std::mt19937 rng(99);
  Bytes clean;
  for (int i = 0; i < 20; ++i) {
    Bytes bytes = Encode(MakeFrame(rng, rng() % 300));
    clean.insert(clean.end(), bytes.begin(), bytes.end());
  }
  for (int round = 0; round < 300; ++round) {
    Bytes stream = clean;
    for (int flips = 0; flips < 3; ++flips) stream[rng() % stream.size()] ^= 1u << (rng() % 8);
    FrameReader reader(512);
    std::vector<Frame> got = FeedInChunks(reader, stream, rng, 1 + round % 40);
    EXPECT_LE(got.size(), 20u);
  }
}

}  // namespace
}  // namespace pmix::ptl
