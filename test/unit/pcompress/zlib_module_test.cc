// The zlib pcompress module, driven through its component descriptor
// (compiled into this binary): round trips and refusal of bad blocks.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "pmix/mca/mca.h"
#include "pmix/mca/pcompress.h"
#include "plugins/pcompress/zlib/zlib_module.h"

extern "C" pmix_mca_component_t pmix_mca_pcompress_zlib_component;

namespace {

using Bytes = std::vector<uint8_t>;

// Opens the component with the given max_size and returns its module.
const pmix_pcompress_module_t* OpenModule(size_t max_size = size_t{1} << 30) {
  pmix_mca_component_t& c = pmix_mca_pcompress_zlib_component;
  EXPECT_EQ(c.nparams, 2u);
  pmix_mca_param_value_t values[2] = {};
  values[0].type = PMIX_MCA_PARAM_SIZE;
  values[0].value.size = max_size;
  values[1].type = PMIX_MCA_PARAM_INT;
  values[1].value.integer = -1;
  void* context = nullptr;
  EXPECT_EQ(c.open(nullptr, values, &context), PMIX_SUCCESS);
  const void* module = nullptr;
  int priority = 0;
  EXPECT_EQ(c.query(context, &module, &priority), PMIX_SUCCESS);
  EXPECT_EQ(priority, 50);
  return static_cast<const pmix_pcompress_module_t*>(module);
}

bool Compress(const Bytes& in, Bytes* out) {
  uint8_t* raw = nullptr;
  size_t len = 0;
  if (!OpenModule()->compress(in.data(), in.size(), &raw, &len)) return false;
  out->assign(raw, raw + len);
  std::free(raw);
  return true;
}

// Decompresses; on failure checks that the outputs were left untouched.
bool Decompress(const Bytes& block, Bytes* out) {
  uint8_t* raw = reinterpret_cast<uint8_t*>(0x1);
  size_t len = 12345;
  if (!pmix::pcompress::zlib::kModule.decompress(block.data(), block.size(), &raw, &len)) {
    EXPECT_EQ(raw, reinterpret_cast<uint8_t*>(0x1));
    EXPECT_EQ(len, 12345u);
    return false;
  }
  out->assign(raw, raw + len);
  std::free(raw);
  return true;
}

Bytes RandomBytes(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  Bytes bytes(n);
  for (auto& b : bytes) b = static_cast<uint8_t>(gen());
  return bytes;
}

Bytes Compressible(size_t n) {
  Bytes bytes(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>("node0123,"[i % 9]);
  return bytes;
}

TEST(ZlibModule, DescriptorMatchesTheFramework) {
  const pmix_mca_component_t& c = pmix_mca_pcompress_zlib_component;
  EXPECT_STREQ(c.framework, "pcompress");
  EXPECT_STREQ(c.name, "zlib");
  EXPECT_EQ(c.mca_major, unsigned{PMIX_MCA_BASE_VERSION_MAJOR});
  EXPECT_EQ(c.framework_major, unsigned{PMIX_PCOMPRESS_INTERFACE_MAJOR});
  EXPECT_EQ(c.default_priority, 50);
}

TEST(ZlibModule, RoundTripsAssortedBlocks) {
  const std::vector<Bytes> cases = {
      {}, {0x00}, {0xff}, RandomBytes(1 << 20, 7), Compressible(1 << 20), Bytes(100000, 0)};
  for (const Bytes& data : cases) {
    Bytes block, back;
    ASSERT_TRUE(Compress(data, &block)) << data.size();
    ASSERT_GE(block.size(), pmix::pcompress::zlib::kHeaderSize);
    EXPECT_EQ(std::memcmp(block.data(), "PMZ1", 4), 0);
    ASSERT_TRUE(Decompress(block, &back)) << data.size();
    EXPECT_EQ(back, data);
  }
}

TEST(ZlibModule, CompressibleDataShrinks) {
  Bytes block;
  ASSERT_TRUE(Compress(Compressible(1 << 20), &block));
  EXPECT_LT(block.size(), size_t{1} << 14);
}

TEST(ZlibModule, EmptyInputMayBeNull) {
  uint8_t* out = nullptr;
  size_t len = 0;
  ASSERT_TRUE(OpenModule()->compress(nullptr, 0, &out, &len));
  Bytes block(out, out + len), back{1};
  std::free(out);
  ASSERT_TRUE(Decompress(block, &back));
  EXPECT_TRUE(back.empty());
}

TEST(ZlibModule, RefusesNullArguments) {
  const auto* m = OpenModule();
  uint8_t* out = nullptr;
  size_t len = 0;
  uint8_t byte = 1;
  EXPECT_FALSE(m->compress(nullptr, 1, &out, &len));
  EXPECT_FALSE(m->compress(&byte, 1, nullptr, &len));
  EXPECT_FALSE(m->compress(&byte, 1, &out, nullptr));
  EXPECT_FALSE(m->decompress(nullptr, 0, &out, &len));
  EXPECT_FALSE(m->decompress(&byte, 1, nullptr, &len));
  char* str = nullptr;
  EXPECT_FALSE(m->compress_string(nullptr, &out, &len));
  EXPECT_FALSE(m->decompress_string(&byte, 1, nullptr));
  EXPECT_FALSE(m->decompress_string(nullptr, 0, &str));
}

TEST(ZlibModule, RefusesEveryTruncation) {
  Bytes block, back;
  ASSERT_TRUE(Compress(RandomBytes(3000, 3), &block));
  for (size_t n = 0; n < block.size(); ++n) {
    EXPECT_FALSE(Decompress(Bytes(block.begin(), block.begin() + n), &back)) << n;
  }
}

TEST(ZlibModule, RefusesEveryFlippedByte) {
  Bytes data = Compressible(5000), block, back;
  ASSERT_TRUE(Compress(data, &block));
  for (size_t i = 0; i < block.size(); ++i) {
    Bytes bad = block;
    bad[i] ^= 0x5a;
    // Adler-32 and the exact-size rule catch every single-byte change.
    EXPECT_FALSE(Decompress(bad, &back)) << i;
  }
}

TEST(ZlibModule, RefusesTrailingBytes) {
  Bytes block, back;
  ASSERT_TRUE(Compress(Compressible(100), &block));
  block.push_back(0);
  EXPECT_FALSE(Decompress(block, &back));
}

void SetClaimedSize(Bytes& block, uint64_t size) {
  for (int i = 0; i < 8; ++i) block[4 + i] = static_cast<uint8_t>(size >> (8 * i));
}

TEST(ZlibModule, RefusesWrongSizeClaims) {
  Bytes data = Compressible(1000), block, back;
  ASSERT_TRUE(Compress(data, &block));
  for (uint64_t claim : {uint64_t{0}, uint64_t{999}, uint64_t{1001}, uint64_t{1} << 40,
                         UINT64_MAX}) {
    Bytes bad = block;
    SetClaimedSize(bad, claim);
    EXPECT_FALSE(Decompress(bad, &back)) << claim;
  }
}

TEST(ZlibModule, HonoursTheMaxSizeParameter) {
  const auto* m = OpenModule(1000);
  Bytes small = Compressible(1000), big = Compressible(1001), block, back;
  uint8_t* out = nullptr;
  size_t len = 0;
  EXPECT_FALSE(m->compress(big.data(), big.size(), &out, &len));
  ASSERT_TRUE(m->compress(small.data(), small.size(), &out, &len));
  block.assign(out, out + len);
  std::free(out);
  ASSERT_TRUE(Decompress(block, &back));
  OpenModule(999);
  EXPECT_FALSE(Decompress(block, &back));
  OpenModule();
}

TEST(ZlibModule, StringsKeepTheirTerminator) {
  const auto* m = OpenModule();
  for (const std::string& text : {std::string(), std::string("x"), std::string(50000, 'q')}) {
    uint8_t* out = nullptr;
    size_t len = 0;
    ASSERT_TRUE(m->compress_string(text.c_str(), &out, &len));
    char* back = nullptr;
    ASSERT_TRUE(m->decompress_string(out, len, &back));
    EXPECT_EQ(text, back);
    std::free(back);
    std::free(out);
  }
}

TEST(ZlibModule, DecompressStringRefusesBlocksThatAreNotOneString) {
  const auto* m = OpenModule();
  for (const Bytes& data : {Bytes{}, Bytes{'a', 'b'}, Bytes{'a', 0, 'b', 0}}) {
    uint8_t* out = nullptr;
    size_t len = 0;
    ASSERT_TRUE(m->compress(data.data(), data.size(), &out, &len));
    char* str = reinterpret_cast<char*>(0x1);
    EXPECT_FALSE(m->decompress_string(out, len, &str));
    EXPECT_EQ(str, reinterpret_cast<char*>(0x1));
    std::free(out);
  }
}

TEST(ZlibModule, RejectsBadLevel) {
  pmix_mca_param_value_t values[2] = {};
  values[0].value.size = 100;
  values[1].value.integer = 10;
  void* context = nullptr;
  EXPECT_EQ(pmix_mca_pcompress_zlib_component.open(nullptr, values, &context),
            PMIX_ERR_BAD_PARAM);
}

}  // namespace
