#include "mca/base/selection.h"

#include <gtest/gtest.h>

namespace pmix::mca {
namespace {

struct Case {
  const char* text;
  bool exclude;
  std::vector<std::string> names;
};

const Case kCases[] = {
    {nullptr, false, {}},
    {"", false, {}},
    {"a", false, {"a"}},
    {"a,b", false, {"a", "b"}},
    {" a , ,b ,", false, {"a", "b"}},
    {"^a", true, {"a"}},
    {"^a,b", true, {"a", "b"}},
    {" ^ a", true, {"a"}},
    {"^", true, {}},
};

TEST(SelectionList, ParsesIncludeAndExcludeLists) {
  for (const Case& c : kCases) {
    auto list = ParseSelectionList("toy", c.text);
    ASSERT_TRUE(list.ok()) << (c.text ? c.text : "(null)");
    EXPECT_EQ(list->exclude, c.exclude) << (c.text ? c.text : "(null)");
    EXPECT_EQ(list->names, c.names) << (c.text ? c.text : "(null)");
  }
}

TEST(SelectionList, RefusesNegationAnywhereButFirst) {
  for (const char* text : {"a,^b", "^a,^b", "a^", "a,b^c"}) {
    ::testing::internal::CaptureStderr();
    auto list = ParseSelectionList("toy", text);
    std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(list.status().code(), PMIX_ERR_BAD_PARAM) << text;
    EXPECT_NE(err.find("PMIX_MCA_toy"), std::string::npos) << err;
    EXPECT_NE(err.find(text), std::string::npos) << err;
  }
}

}  // namespace
}  // namespace pmix::mca
