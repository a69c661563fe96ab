// The pcompress framework path: selection of the real zlib component (a
// plugin on the build tree's component path, or built in), the
// pcompress_base_limit parameter, the internal wrappers and the public API.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <span>
#include <vector>

#include "mca/pcompress/base/pcompress_base.h"
#include "pmix.h"

namespace {

using Bytes = std::vector<uint8_t>;

Bytes RandomBytes(size_t n) {
  std::mt19937 gen(11);
  Bytes bytes(n);
  for (auto& b : bytes) b = static_cast<uint8_t>(gen());
  return bytes;
}

class PcompressBase : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(PcompressBase, SelectsZlib) {
  auto module = pmix::pcompress::SelectedModule();
  ASSERT_TRUE(module.ok()) << module.status().code();
  EXPECT_NE(*module, nullptr);
}

TEST_F(PcompressBase, DefaultLimitIs4096) {
  EXPECT_FALSE(pmix::pcompress::ShouldCompress(0));
  EXPECT_FALSE(pmix::pcompress::ShouldCompress(4095));
  EXPECT_TRUE(pmix::pcompress::ShouldCompress(4096));
}

TEST_F(PcompressBase, LimitComesFromTheEnvironment) {
  EXPECT_EXIT(
      {
        setenv("PMIX_MCA_pcompress_base_limit", "1k", 1);
        bool ok = !pmix::pcompress::ShouldCompress(1023) && pmix::pcompress::ShouldCompress(1024);
        std::exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST_F(PcompressBase, NothingIsCompressedWithoutAComponent) {
  EXPECT_EXIT(
      {
        setenv("PMIX_MCA_pcompress", "^zlib", 1);
        uint8_t* out = nullptr;
        size_t len = 0;
        bool ok = !pmix::pcompress::ShouldCompress(1 << 20) &&
                  !PMIx_Data_compress(reinterpret_cast<const uint8_t*>("abc"), 3, &out, &len) &&
                  out == nullptr && len == 0;
        std::exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST_F(PcompressBase, ZlibMaxSizeComesFromItsParameter) {
  EXPECT_EXIT(
      {
        setenv("PMIX_MCA_pcompress_zlib_max_size", "100", 1);
        Bytes data(101, 'x');
        bool ok = pmix::pcompress::Compress(std::span(data).first(100)).ok() &&
                  !pmix::pcompress::Compress(data).ok();
        std::exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST_F(PcompressBase, WrappersRoundTrip) {
  for (const Bytes& data : {Bytes{}, Bytes{7}, RandomBytes(100000), Bytes(1 << 20, 'a')}) {
    auto block = pmix::pcompress::Compress(data);
    ASSERT_TRUE(block.ok());
    auto back = pmix::pcompress::Decompress(*block);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, data);
  }
  Bytes garbage = RandomBytes(100);
  EXPECT_EQ(pmix::pcompress::Decompress(garbage).status().code(), PMIX_ERR_BAD_PARAM);
}

TEST_F(PcompressBase, ApiRoundTrips) {
  for (const Bytes& data : {Bytes{}, Bytes{0}, RandomBytes(1 << 20), Bytes(1 << 20, 0)}) {
    uint8_t* block = nullptr;
    size_t len = 0;
    ASSERT_TRUE(PMIx_Data_compress(data.data(), data.size(), &block, &len));
    uint8_t* back = nullptr;
    size_t back_len = 1;
    ASSERT_TRUE(PMIx_Data_decompress(block, len, &back, &back_len));
    ASSERT_NE(back, nullptr);
    EXPECT_EQ(Bytes(back, back + back_len), data);
    std::free(back);
    std::free(block);
  }
}

TEST_F(PcompressBase, ApiTreatsNullEmptyInputAsEmpty) {
  uint8_t* block = nullptr;
  size_t len = 0;
  ASSERT_TRUE(PMIx_Data_compress(nullptr, 0, &block, &len));
  uint8_t* back = nullptr;
  size_t back_len = 1;
  ASSERT_TRUE(PMIx_Data_decompress(block, len, &back, &back_len));
  EXPECT_EQ(back_len, 0u);
  std::free(back);
  std::free(block);
}

TEST_F(PcompressBase, ApiFailuresClearTheOutputs) {
  uint8_t byte = 1;
  uint8_t* out = &byte;
  size_t len = 5;
  EXPECT_FALSE(PMIx_Data_compress(nullptr, 1, &out, &len));
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(len, 0u);
  EXPECT_FALSE(PMIx_Data_compress(&byte, 1, nullptr, &len));
  EXPECT_FALSE(PMIx_Data_compress(&byte, 1, &out, nullptr));
  out = &byte;
  len = 5;
  EXPECT_FALSE(PMIx_Data_decompress(nullptr, 0, &out, &len));
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(len, 0u);
  EXPECT_FALSE(PMIx_Data_decompress(&byte, 1, nullptr, &len));
}

TEST_F(PcompressBase, ApiRefusesTruncatedAndCorruptBlocks) {
  Bytes data = RandomBytes(2000);
  uint8_t* block = nullptr;
  size_t len = 0;
  ASSERT_TRUE(PMIx_Data_compress(data.data(), data.size(), &block, &len));
  for (size_t n = 0; n < len; n += 7) {
    uint8_t* out = nullptr;
    size_t out_len = 0;
    EXPECT_FALSE(PMIx_Data_decompress(block, n, &out, &out_len)) << n;
    EXPECT_EQ(out, nullptr);
  }
  block[len / 2] ^= 0xff;
  uint8_t* out = nullptr;
  size_t out_len = 0;
  EXPECT_FALSE(PMIx_Data_decompress(block, len, &out, &out_len));
  std::free(block);
}

}  // namespace
