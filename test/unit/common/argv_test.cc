// PMIx_Argv_* and PMIx_Setenv, with the results of OpenPMIx 4.2.2's inline
// pmix_argv_* / pmix_setenv as expectations.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "pmix.h"

namespace {

using Strings = std::vector<std::string>;

// nullopt for a NULL array.
std::optional<Strings> ToVector(char** argv) {
  if (argv == nullptr) return std::nullopt;
  Strings out;
  for (char** p = argv; *p != nullptr; ++p) out.emplace_back(*p);
  return out;
}

struct ScopedArgv {
  char** argv = nullptr;
  ~ScopedArgv() { PMIx_Argv_free(argv); }
};

struct SplitCase {
  const char* input;
  bool include_empty;
  std::optional<Strings> expected;
};

TEST(ArgvSplit, MatchesOpenPmixOnDelimiterEdgeCases) {
  const SplitCase cases[] = {
      {"a:b:c", false, Strings{"a", "b", "c"}},
      {"a:b:c", true, Strings{"a", "b", "c"}},
      {"a::b", false, Strings{"a", "b"}},
      {"a::b", true, Strings{"a", "", "b"}},
      {":a", false, Strings{"a"}},
      {":a", true, Strings{"", "a"}},
      {"a:", true, Strings{"a"}},  // never a trailing empty element
      {"a:::", true, Strings{"a", "", ""}},
      {":", false, std::nullopt},
      {":", true, Strings{""}},
      {"::", true, Strings{"", ""}},
      {"", true, std::nullopt},
      {"abc", false, Strings{"abc"}},
      {nullptr, true, std::nullopt},
  };
  for (const SplitCase& c : cases) {
    ScopedArgv a;
    a.argv = PMIx_Argv_split_inter(c.input, ':', c.include_empty);
    EXPECT_EQ(ToVector(a.argv), c.expected)
        << (c.input ? c.input : "NULL") << " include_empty=" << c.include_empty;
  }
}

TEST(ArgvSplit, WrappersAndLongTokens) {
  std::string long_token(2000, 'x');
  std::string input = "a," + long_token + ",,b";
  ScopedArgv plain;
  plain.argv = PMIx_Argv_split(input.c_str(), ',');
  EXPECT_EQ(ToVector(plain.argv), (Strings{"a", long_token, "b"}));
  ScopedArgv with_empty;
  with_empty.argv = PMIx_Argv_split_with_empty(input.c_str(), ',');
  EXPECT_EQ(ToVector(with_empty.argv), (Strings{"a", long_token, "", "b"}));
}

TEST(ArgvJoin, JoinsWithTheDelimiterAndGivesEmptyStringForNothing) {
  char* joined = PMIx_Argv_join(nullptr, ',');
  EXPECT_STREQ(joined, "");
  std::free(joined);
  char* empty[] = {nullptr};
  joined = PMIx_Argv_join(empty, ',');
  EXPECT_STREQ(joined, "");
  std::free(joined);
  char a[] = "a", e[] = "", b[] = "b";
  char* three[] = {a, e, b, nullptr};
  joined = PMIx_Argv_join(three, ',');
  EXPECT_STREQ(joined, "a,,b");
  std::free(joined);
  char* one[] = {a, nullptr};
  joined = PMIx_Argv_join(one, ',');
  EXPECT_STREQ(joined, "a");
  std::free(joined);
}

TEST(ArgvEdit, AppendPrependUniqueCountCopy) {
  ScopedArgv a;
  EXPECT_EQ(PMIx_Argv_count(a.argv), 0);
  ASSERT_EQ(PMIx_Argv_append_nosize(&a.argv, "x"), PMIX_SUCCESS);
  ASSERT_EQ(PMIx_Argv_append_unique_nosize(&a.argv, "x"), PMIX_SUCCESS);
  ASSERT_EQ(PMIx_Argv_prepend_nosize(&a.argv, "y"), PMIX_SUCCESS);
  ASSERT_EQ(PMIx_Argv_append_unique_nosize(&a.argv, "z"), PMIX_SUCCESS);
  ASSERT_EQ(PMIx_Argv_append_nosize(&a.argv, ""), PMIX_SUCCESS);
  EXPECT_EQ(ToVector(a.argv), (Strings{"y", "x", "z", ""}));
  EXPECT_EQ(PMIx_Argv_count(a.argv), 4);

  ScopedArgv copy;
  copy.argv = PMIx_Argv_copy(a.argv);
  EXPECT_EQ(ToVector(copy.argv), ToVector(a.argv));
  EXPECT_NE(copy.argv[0], a.argv[0]);
  EXPECT_EQ(PMIx_Argv_copy(nullptr), nullptr);
  char* empty[] = {nullptr};
  ScopedArgv empty_copy;
  empty_copy.argv = PMIx_Argv_copy(empty);
  ASSERT_NE(empty_copy.argv, nullptr);  // an empty but valid array
  EXPECT_EQ(PMIx_Argv_count(empty_copy.argv), 0);
}

TEST(ArgvEdit, PrependToNothingAndManyAppends) {
  ScopedArgv a;
  ASSERT_EQ(PMIx_Argv_prepend_nosize(&a.argv, "only"), PMIX_SUCCESS);
  EXPECT_EQ(ToVector(a.argv), Strings{"only"});
  for (int i = 0; i < 500; ++i) {
    ASSERT_EQ(PMIx_Argv_append_nosize(&a.argv, std::to_string(i).c_str()),
              PMIX_SUCCESS);
  }
  EXPECT_EQ(PMIx_Argv_count(a.argv), 501);
  EXPECT_STREQ(a.argv[500], "499");
}

TEST(ArgvEdit, RefusesNullArguments) {
  ScopedArgv a;
  EXPECT_EQ(PMIx_Argv_append_nosize(nullptr, "x"), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_Argv_append_nosize(&a.argv, nullptr), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_Argv_prepend_nosize(&a.argv, nullptr), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_Argv_append_unique_nosize(nullptr, "x"), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(a.argv, nullptr);
  PMIx_Argv_free(nullptr);
}

TEST(Setenv, AddsReplacesOrRefusesLikeOpenPmix) {
  ScopedArgv env;
  EXPECT_EQ(PMIx_Setenv("A", "1", false, &env.argv), PMIX_SUCCESS);
  EXPECT_EQ(PMIx_Setenv("A", "2", false, &env.argv), PMIX_ERR_EXISTS);
  EXPECT_EQ(PMIx_Setenv("A", "3", true, &env.argv), PMIX_SUCCESS);
  EXPECT_EQ(PMIx_Setenv("B", nullptr, true, &env.argv), PMIX_SUCCESS);
  EXPECT_EQ(PMIx_Setenv("AB", "x", false, &env.argv), PMIX_SUCCESS);  // not "A"
  EXPECT_EQ(ToVector(env.argv), (Strings{"A=3", "B=", "AB=x"}));
  EXPECT_EQ(PMIx_Setenv("A", "1", true, nullptr), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_Setenv(nullptr, "1", true, &env.argv), PMIX_ERR_BAD_PARAM);
  std::string big(200000, 'v');  // no length limit (OpenPMIx: 100000)
  EXPECT_EQ(PMIx_Setenv("BIG", big.c_str(), true, &env.argv), PMIX_SUCCESS);
  EXPECT_EQ(std::strlen(env.argv[3]), big.size() + 4);
}

TEST(Setenv, TheProcessEnvironmentGoesThroughSetenv) {
  ASSERT_EQ(PMIx_Setenv("PMIXX_ARGV_TEST", "on", true, &environ), PMIX_SUCCESS);
  EXPECT_STREQ(std::getenv("PMIXX_ARGV_TEST"), "on");
  ASSERT_EQ(PMIx_Setenv("PMIXX_ARGV_TEST", "off", false, &environ),
            PMIX_SUCCESS);
  EXPECT_STREQ(std::getenv("PMIXX_ARGV_TEST"), "on");  // not overwritten
  ASSERT_EQ(PMIx_Setenv("PMIXX_ARGV_TEST", nullptr, true, &environ),
            PMIX_SUCCESS);
  EXPECT_EQ(std::getenv("PMIXX_ARGV_TEST"), nullptr);  // NULL value unsets
}

}  // namespace
