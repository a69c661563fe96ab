// PMIx_generate_regex / PMIx_generate_ppn through libpmix and the real
// preg plugins (the component path make check exports, or built in), and
// how PMIX_MCA_preg changes which representation comes out.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "pmix_server.h"

namespace {

// "rc=<status>" on failure, else the output.
std::string Regex(const char* input) {
  char* out = nullptr;
  pmix_status_t rc = PMIx_generate_regex(input, &out);
  if (rc != PMIX_SUCCESS) return "rc=" + std::to_string(rc);
  std::string text(out);
  std::free(out);
  return text;
}

std::string Ppn(const char* input) {
  char* out = nullptr;
  pmix_status_t rc = PMIx_generate_ppn(input, &out);
  if (rc != PMIX_SUCCESS) return "rc=" + std::to_string(rc);
  std::string text(out);
  std::free(out);
  return text;
}

const char kNodes[] = "node001,node002,node003,login,gpu1,gpu2,gpu3";

class PregApi : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(PregApi, RefusesNullArguments) {
  char* out = nullptr;
  EXPECT_EQ(PMIx_generate_regex(nullptr, &out), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_generate_regex("a", nullptr), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_generate_ppn(nullptr, &out), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_generate_ppn("0", nullptr), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(out, nullptr);
}

TEST_F(PregApi, NativeAnswersByDefault) {
  EXPECT_EQ(Regex(kNodes), "pmix[node[3:1-3],login,gpu[1:1-3]]");
  EXPECT_EQ(Ppn("0,1,2,3;4,5,6,7"), "pmix[0-3;4-7]");
}

TEST_F(PregApi, WhatNativeDeclinesFallsThroughToCompress) {
  EXPECT_EQ(Regex("a*b,c").rfind("blob:", 0), 0u);
  EXPECT_EQ(Ppn("007;1").rfind("blob:", 0), 0u);
}

// Runs `body` in a fresh process with PMIX_MCA_preg=selection; it must
// exit 0.
#define EXPECT_WITH_SELECTION(selection, body)                             \
  EXPECT_EXIT(                                                             \
      {                                                                    \
        setenv("PMIX_MCA_preg", selection, 1);                             \
        std::exit((body) ? 0 : 1);                                         \
      },                                                                   \
      ::testing::ExitedWithCode(0), "")

TEST_F(PregApi, ExcludingNativeSelectsCompress) {
  EXPECT_WITH_SELECTION("^native", Regex(kNodes).rfind("blob:", 0) == 0);
  EXPECT_WITH_SELECTION("^native", Ppn("0,1;2").rfind("blob:", 0) == 0);
}

TEST_F(PregApi, IncludeAndExcludeListsSelect) {
  EXPECT_WITH_SELECTION("raw", Regex(kNodes) == std::string("raw:") + kNodes);
  EXPECT_WITH_SELECTION("compress,raw", Regex("a,b").rfind("blob:", 0) == 0);
  EXPECT_WITH_SELECTION("^native,compress", Ppn("0,1;2") == "raw:0,1;2");
}

// An include list is an order: raw (priority 10) before native (50).
TEST_F(PregApi, IncludeListOrderBeatsPriority) {
  EXPECT_WITH_SELECTION("raw,native", Regex("a,b") == "raw:a,b");
  EXPECT_WITH_SELECTION("native,raw", Regex("a,b").rfind("pmix[", 0) == 0);
}

TEST_F(PregApi, NoModuleTakingTheInputIsNotSupported) {
  std::string expected = "rc=" + std::to_string(PMIX_ERR_NOT_SUPPORTED);
  EXPECT_WITH_SELECTION("native,raw", Regex("a*b") == expected);
}

TEST_F(PregApi, BadSelectionIsAnError) {
  EXPECT_WITH_SELECTION("native,^raw", Regex("a").rfind("rc=", 0) == 0);
  EXPECT_WITH_SELECTION("nosuchcomponent", Regex("a").rfind("rc=", 0) == 0);
}

}  // namespace
