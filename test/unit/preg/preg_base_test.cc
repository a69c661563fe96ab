// The internal preg API the server uses: generate, then parse back through
// the selected modules; foreign strings read as plain lists.
//
// This binary links the core library, so it must not load a plugin that
// links libpmix: main() drops the compress plugin's directory from the
// component path (built-in components are unaffected).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "mca/preg/base/preg_base.h"
#include "test/unit/preg/preg_cases.h"

namespace {

using Names = std::vector<std::string>;
using Procs = std::vector<std::vector<pmix_rank_t>>;

Names SplitNames(const std::string& list) {
  Names names;
  if (list.empty()) return names;
  size_t start = 0, at;
  while ((at = list.find(',', start)) != std::string::npos) {
    names.push_back(list.substr(start, at - start));
    start = at + 1;
  }
  names.push_back(list.substr(start));
  return names;
}

void ExpectRoundTrip(const std::string& input) {
  auto regex = pmix::preg::GenerateNodeRegex(input);
  ASSERT_TRUE(regex.ok()) << input;
  auto names = pmix::preg::ParseNodes(*regex);
  ASSERT_TRUE(names.ok()) << *regex;
  EXPECT_EQ(*names, SplitNames(input)) << *regex;
}

TEST(PregBase, NodeListsRoundTrip) {
  for (const std::string& input : pmix::preg::test::NodeCases()) ExpectRoundTrip(input);
  ExpectRoundTrip("n1");
  ExpectRoundTrip(pmix::preg::test::HundredNodesAndFriends());
  ExpectRoundTrip(pmix::preg::test::MixedNodes(10000, 5));
}

TEST(PregBase, PpnRoundTrips) {
  auto regex = pmix::preg::GeneratePpn("0,1,2;3;;5,4");
  ASSERT_TRUE(regex.ok());
  auto procs = pmix::preg::ParseProcs(*regex);
  ASSERT_TRUE(procs.ok());
  EXPECT_EQ(*procs, (Procs{{0, 1, 2}, {3}, {}, {5, 4}}));
  auto big_regex = pmix::preg::GeneratePpn(pmix::preg::test::RegularPpn(10000, 4));
  ASSERT_TRUE(big_regex.ok());
  auto big = pmix::preg::ParseProcs(*big_regex);
  ASSERT_TRUE(big.ok());
  ASSERT_EQ(big->size(), 10000u);
  EXPECT_EQ(big->back(), (std::vector<pmix_rank_t>{39996, 39997, 39998, 39999}));
}

TEST(PregBase, ForeignNodeStringsArePlainLists) {
  const std::pair<const char*, Names> cases[] = {
      {"a,b,c", {"a", "b", "c"}},
      {"", {}},
      {"n[1],x", {"n[1]", "x"}},
      {"raw:x,y", {"x", "y"}},
      {"pmix[node[3:1-2],login]", {"node001", "node002", "login"}},
  };
  for (const auto& [regex, expected] : cases) {
    auto names = pmix::preg::ParseNodes(regex);
    ASSERT_TRUE(names.ok()) << regex;
    EXPECT_EQ(*names, expected) << regex;
  }
}

TEST(PregBase, ForeignPpnStringsArePlainLists) {
  const std::pair<const char*, Procs> cases[] = {
      {"0,1;2,3", {{0, 1}, {2, 3}}},
      {"0-3;4", {{0, 1, 2, 3}, {4}}},
      {"raw:5;6,7", {{5}, {6, 7}}},
      {"", {}},
  };
  for (const auto& [regex, expected] : cases) {
    auto procs = pmix::preg::ParseProcs(regex);
    ASSERT_TRUE(procs.ok()) << regex;
    EXPECT_EQ(*procs, expected) << regex;
  }
}

TEST(PregBase, MalformedInputIsBadParam) {
  for (const char* regex : {"pmix[n[1:1-]]", "pmix[a"}) {
    EXPECT_EQ(pmix::preg::ParseNodes(regex).status().code(), PMIX_ERR_BAD_PARAM) << regex;
  }
  for (const char* regex : {"a;b", "0,,1", "3-1", "4294967295", "0-99999999999", "pmix[0-]",
                            "0-4294967200"}) {
    EXPECT_EQ(pmix::preg::ParseProcs(regex).status().code(), PMIX_ERR_BAD_PARAM) << regex;
  }
}

TEST(PregBase, NativeMaxEntriesComesFromItsParameter) {
  EXPECT_EXIT(
      {
        setenv("PMIX_MCA_preg_native_max_entries", "3", 1);
        bool ok = pmix::preg::ParseNodes("pmix[n[1:1-3]]").ok() &&
                  pmix::preg::ParseNodes("pmix[n[1:1-4]]").status().code() == PMIX_ERR_BAD_PARAM;
        std::exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace

int main(int argc, char** argv) {
  if (const char* path = std::getenv("PMIX_MCA_mca_base_component_path")) {
    std::string kept, dir;
    std::string all = std::string(path) + ":";
    for (char c : all) {
      if (c != ':') {
        dir += c;
        continue;
      }
      if (!dir.empty() && dir.find("/preg/compress") == std::string::npos) {
        kept += (kept.empty() ? "" : ":") + dir;
      }
      dir.clear();
    }
    setenv("PMIX_MCA_mca_base_component_path", kept.c_str(), 1);
  }
  ::testing::InitGoogleTest(&argc, argv);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  return RUN_ALL_TESTS();
}
