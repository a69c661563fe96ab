#include "src/hwloc/cpuset_text.h"

#include <gtest/gtest.h>

namespace pmix::hwloc {
namespace {

TEST(CpusetText, ParsesListsAndPrintsThemBack) {
  for (const char* text : {"0", "0-3,8", "1,3,5", "0-15", "", "65535"}) {
    auto b = ParseList(text);
    ASSERT_TRUE(b.ok()) << text;
    EXPECT_EQ(ListText(b->get()), text);
  }
}

TEST(CpusetText, NormalizesOverlaps) {
  auto b = ParseList("3,0-2,2-4");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(ListText(b->get()), "0-4");
}

TEST(CpusetText, RefusesMalformedOrHugeLists) {
  for (const char* text : {"x", "1,", ",1", "3-1", "1-", "-1", "0x3", "1 2", "65537",
                           "99999999999999999999", "0-4294967295", "1,,2"}) {
    EXPECT_EQ(ParseList(text).status().code(), PMIX_ERR_BAD_PARAM) << text;
  }
  EXPECT_EQ(ParseList(std::string(kMaxCpusetText + 1, '1')).status().code(), PMIX_ERR_BAD_PARAM);
}

TEST(CpusetText, CpusetStringsCarryTheHwlocSource) {
  auto b = ParseList("0-1");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(CpusetString(b->get()), "hwloc:0-1");  // OpenPMIx 4.2.2's form
  for (const char* text : {"hwloc:0-1", "HWLOC:0-1", "hwloc:2.9.0:0-1"}) {
    auto parsed = ParseCpusetString(text);
    if (std::string(text).find("2.9") != std::string::npos) {
      EXPECT_FALSE(parsed.ok()) << text;  // "<source>:<list>": the version is not a list
      continue;
    }
    ASSERT_TRUE(parsed.ok()) << text;
    EXPECT_EQ(ListText(parsed->get()), "0-1");
  }
  EXPECT_EQ(ParseCpusetString("0-1").status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(ParseCpusetString("other:0-1").status().code(), PMIX_ERR_NOT_SUPPORTED);
  EXPECT_EQ(ParseCpusetString("hwloc:0-").status().code(), PMIX_ERR_BAD_PARAM);
}

TEST(CpusetText, RecognizesHwlocSources) {
  EXPECT_TRUE(IsHwlocSource("hwloc"));
  EXPECT_TRUE(IsHwlocSource("HWLOC"));
  EXPECT_TRUE(IsHwlocSource("hwloc:2.9.0"));
  EXPECT_FALSE(IsHwlocSource("hwlocx"));
  EXPECT_FALSE(IsHwlocSource(nullptr));
  EXPECT_FALSE(IsHwlocSource("pmix"));
}

}  // namespace
}  // namespace pmix::hwloc
