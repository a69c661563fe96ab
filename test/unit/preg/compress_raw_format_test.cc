// preg/compress and preg/raw: their exact framing and what their parsers
// refuse.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "pmix.h"
#include "pmix/mca/mca.h"
#include "pmix/mca/preg.h"
#include "plugins/preg/compress/compress_module.h"
#include "plugins/preg/raw/raw_module.h"

namespace {

using pmix::preg::compress::Base64Decode;
using pmix::preg::compress::Base64Encode;

TEST(Base64, MatchesRfc4648Vectors) {
  const std::pair<const char*, const char*> vectors[] = {
      {"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(Base64Encode(plain), encoded);
    auto back = Base64Decode(encoded);
    ASSERT_TRUE(back.has_value()) << encoded;
    EXPECT_EQ(*back, plain);
  }
  std::string all;
  for (int i = 0; i < 256; ++i) all += static_cast<char>(i);
  EXPECT_EQ(Base64Decode(Base64Encode(all)), all);
}

TEST(Base64, RefusesNonCanonicalText) {
  for (const char* bad : {"Z", "Zg=", "Zg", "Z===", "=Zg=", "Zg==Zg==", "Zm9*", "Zh==", "Zm9=",
                          "Zm\n9v", "Zm 9v"}) {
    EXPECT_FALSE(Base64Decode(bad).has_value()) << bad;
  }
}

pmix_status_t ParseNodes(const pmix_preg_module_t& m, const std::string& regex) {
  char** argv = nullptr;
  pmix_status_t rc = m.parse_nodes(regex.c_str(), &argv);
  for (char** p = argv; rc == PMIX_SUCCESS && *p != nullptr; ++p) std::free(*p);
  std::free(argv);
  return rc;
}

std::string Generate(const pmix_preg_module_t& m, const char* input) {
  char* out = nullptr;
  EXPECT_EQ(m.generate_node_regex(input, &out), PMIX_SUCCESS);
  std::string text = out != nullptr ? out : "";
  std::free(out);
  return text;
}

TEST(CompressFormat, IsBase64OfACompressedBlock) {
  const auto& m = pmix::preg::compress::kModule;
  std::string regex = Generate(m, "a*b,[c]");
  ASSERT_EQ(regex.rfind("blob:", 0), 0u);
  auto block = Base64Decode(regex.substr(5));
  ASSERT_TRUE(block.has_value());
  EXPECT_EQ(block->substr(0, 4), "PMZ1");
}

TEST(CompressFormat, RefusesBadBlobs) {
  const auto& m = pmix::preg::compress::kModule;
  std::string good = Generate(m, "node1,node2,node3");
  std::string nul_inside = Generate(m, "x");
  for (const std::string& bad :
       {std::string("blob:"), std::string("blob:!!!!"), std::string("blob:QUJD"),
        good.substr(0, good.size() - 4), good + "AAAA", good.substr(0, 5) + "A" + good.substr(6)}) {
    EXPECT_EQ(ParseNodes(m, bad), PMIX_ERR_BAD_PARAM) << bad;
  }
  EXPECT_EQ(ParseNodes(m, good), PMIX_SUCCESS);
  EXPECT_EQ(ParseNodes(m, nul_inside), PMIX_SUCCESS);
}

TEST(CompressFormat, RefusesBlobsHoldingNul) {
  const auto& m = pmix::preg::compress::kModule;
  uint8_t* block = nullptr;
  size_t len = 0;
  // The shim (or libpmix) compresses two names separated by a NUL.
  ASSERT_TRUE(PMIx_Data_compress(reinterpret_cast<const uint8_t*>("a\0b"), 3, &block, &len));
  std::string regex = "blob:" + Base64Encode(std::string(reinterpret_cast<char*>(block), len));
  std::free(block);
  EXPECT_EQ(ParseNodes(m, regex), PMIX_ERR_BAD_PARAM);
}

TEST(RawFormat, IsTheInputBehindItsPrefix) {
  const auto& m = pmix::preg::raw::kModule;
  EXPECT_EQ(Generate(m, "n1,n2;x"), "raw:n1,n2;x");
  EXPECT_EQ(Generate(m, ""), "raw:");
  char* ppn = nullptr;
  ASSERT_EQ(m.generate_ppn("0,1;2", &ppn), PMIX_SUCCESS);
  EXPECT_STREQ(ppn, "raw:0,1;2");
  std::free(ppn);
}

}  // namespace
