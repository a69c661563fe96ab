#include "mca/base/var.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "test/unit/mca/env_fixture.h"

namespace pmix::mca {
namespace {

using ::testing::internal::CaptureStderr;
using ::testing::internal::GetCapturedStderr;

class Vars : public testing::MCAEnvTest {
 protected:
  Var MustRegister(const VarSpec& spec) {
    auto var = RegisterVar(spec);
    EXPECT_TRUE(var.ok()) << spec.name;
    return var.ok() ? *var : Var{};
  }
  VarSpec IntSpec(const std::string& name, const std::string& synonym = "") {
    return {name, PMIX_MCA_PARAM_INT, "1", "a test variable", synonym};
  }
};

size_t Count(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t pos = haystack.find(needle); pos != std::string::npos;
       pos = haystack.find(needle, pos + 1)) {
    ++n;
  }
  return n;
}

// Each row: which of the four sources hold a value, and who must win.
struct PrecedenceCase {
  bool override_file, env, user_file, system_file;
  long long expected;
  VarSource source;
};

const PrecedenceCase kPrecedence[] = {
    {true, true, true, true, 4, VarSource::kOverride},
    {false, true, true, true, 3, VarSource::kEnvironment},
    {false, false, true, true, 2, VarSource::kFile},
    {false, false, false, true, 5, VarSource::kFile},
    {false, false, false, false, 1, VarSource::kDefault},
    {true, false, false, false, 4, VarSource::kOverride},
    {false, true, false, true, 3, VarSource::kEnvironment},
};

TEST_F(Vars, PrecedenceIsOverrideThenEnvironmentThenUserThenSystemThenDefault) {
  for (const PrecedenceCase& c : kPrecedence) {
    WriteFile("override.conf", c.override_file ? "test_p = 4\n" : "");
    WriteFile("user.conf", c.user_file ? "test_p = 2\n" : "");
    WriteFile("system.conf", c.system_file ? "test_p=5\n" : "");
    if (c.env) {
      SetEnv("PMIX_MCA_test_p", "3");
    } else {
      UnsetEnv("PMIX_MCA_test_p");
    }
    ResetVarsForTesting();
    Var var = MustRegister(IntSpec("test_p"));
    EXPECT_EQ(var.parsed.value.integer, c.expected);
    EXPECT_EQ(var.source, c.source);
  }
}

TEST_F(Vars, ReportsSourceAndOrigin) {
  WriteFile("user.conf", "# a comment\n\n  test_src_file = \"hello world\"  \n");
  SetEnv("PMIX_MCA_test_src_env", "7");
  WriteFile("override.conf", "test_src_over = 9\n");
  ResetVarsForTesting();
  Var file = MustRegister({"test_src_file", PMIX_MCA_PARAM_STRING, nullptr, "h", ""});
  EXPECT_EQ(file.text.value_or("?"), "hello world");
  EXPECT_STREQ(file.CValue().value.string, "hello world");
  EXPECT_EQ(file.SourceText(), "file:" + dir_ + "/user.conf");
  Var env = MustRegister(IntSpec("test_src_env"));
  EXPECT_EQ(env.SourceText(), "environment");
  EXPECT_EQ(env.origin, "PMIX_MCA_test_src_env");
  Var over = MustRegister(IntSpec("test_src_over"));
  EXPECT_EQ(over.SourceText(), "override");
  EXPECT_EQ(over.origin, dir_ + "/override.conf");
  Var def = MustRegister(IntSpec("test_src_default"));
  EXPECT_EQ(def.SourceText(), "default");
  EXPECT_EQ(def.text.value_or("?"), "1");
  Var null_string = MustRegister({"test_src_null", PMIX_MCA_PARAM_STRING, nullptr, "h", ""});
  EXPECT_FALSE(null_string.text.has_value());
  EXPECT_EQ(null_string.CValue().value.string, nullptr);
}

TEST_F(Vars, AcceptsTheLongEnvironmentFormButTheShortOneWins) {
  SetEnv("PMIX_MCA_pmix_test_long", "11");
  Var var = MustRegister(IntSpec("test_long"));
  EXPECT_EQ(var.parsed.value.integer, 11);
  EXPECT_EQ(var.origin, "PMIX_MCA_pmix_test_long");
  SetEnv("PMIX_MCA_test_long", "12");
  ResetVarsForTesting();
  EXPECT_EQ(MustRegister(IntSpec("test_long")).parsed.value.integer, 12);
}

TEST_F(Vars, BadEnvironmentValueIsReportedAndTheNextSourceUsed) {
  WriteFile("system.conf", "test_bad = 8\n");
  SetEnv("PMIX_MCA_test_bad", "eight");
  ResetVarsForTesting();
  CaptureStderr();
  Var var = MustRegister(IntSpec("test_bad"));
  Var again = MustRegister(IntSpec("test_bad"));
  std::string err = GetCapturedStderr();
  EXPECT_EQ(var.parsed.value.integer, 8);
  EXPECT_EQ(var.source, VarSource::kFile);
  EXPECT_EQ(again.parsed.value.integer, 8);
  EXPECT_EQ(Count(err, "ignoring value"), 1u) << err;
  EXPECT_NE(err.find("PMIX_MCA_test_bad"), std::string::npos) << err;
  EXPECT_NE(err.find("environment"), std::string::npos) << err;
  EXPECT_NE(err.find("'eight'"), std::string::npos) << err;
}

TEST_F(Vars, BadValuesEverywhereFallBackToTheDefault) {
  WriteFile("override.conf", "test_all_bad = x\n");
  WriteFile("user.conf", "test_all_bad = y\n");
  SetEnv("PMIX_MCA_test_all_bad", "z");
  ResetVarsForTesting();
  CaptureStderr();
  Var var = MustRegister({"test_all_bad", PMIX_MCA_PARAM_BOOL, "yes", "h", ""});
  std::string err = GetCapturedStderr();
  EXPECT_TRUE(var.parsed.value.flag);
  EXPECT_EQ(var.source, VarSource::kDefault);
  EXPECT_EQ(Count(err, "ignoring value"), 3u) << err;
}

TEST_F(Vars, SynonymIsAcceptedFromEverySourceWithOneWarning) {
  const char* kSources[] = {"override.conf", "env", "user.conf", "system.conf"};
  for (const char* where : kSources) {
    for (const char* file : {"override.conf", "user.conf", "system.conf"}) WriteFile(file, "");
    UnsetEnv("PMIX_MCA_test_old");
    if (std::string(where) == "env") {
      SetEnv("PMIX_MCA_test_old", "21");
    } else {
      WriteFile(where, "test_old = 21\n");
    }
    ResetVarsForTesting();
    CaptureStderr();
    Var var = MustRegister(IntSpec("test_new", "test_old"));
    std::string err = GetCapturedStderr();
    EXPECT_EQ(var.parsed.value.integer, 21) << where;
    EXPECT_EQ(var.synonyms, std::vector<std::string>{"test_old"});
    EXPECT_EQ(Count(err, "deprecated"), 1u) << where << ": " << err;
    EXPECT_NE(err.find("use test_new"), std::string::npos) << err;
  }
}

TEST_F(Vars, DeprecationWarningIsGivenOncePerProcess) {
  SetEnv("PMIX_MCA_test_old2", "bad");  // examined and refused
  WriteFile("user.conf", "test_old2 = 5\n");  // examined and used
  ResetVarsForTesting();
  CaptureStderr();
  Var var = MustRegister(IntSpec("test_new2", "test_old2"));
  Var other = MustRegister(IntSpec("test_new2_also", "test_old2"));
  std::string err = GetCapturedStderr();
  EXPECT_EQ(var.parsed.value.integer, 5);
  EXPECT_EQ(other.parsed.value.integer, 5);
  EXPECT_EQ(Count(err, "deprecated"), 1u) << err;
}

TEST_F(Vars, NewNameWinsOverItsSynonym) {
  SetEnv("PMIX_MCA_test_old3", "1000");
  SetEnv("PMIX_MCA_test_new3", "3");
  WriteFile("user.conf", "test_old3 = 1000\ntest_new3 = 4\n");
  ResetVarsForTesting();
  CaptureStderr();
  EXPECT_EQ(MustRegister(IntSpec("test_new3", "test_old3")).parsed.value.integer, 3);
  UnsetEnv("PMIX_MCA_test_old3");
  UnsetEnv("PMIX_MCA_test_new3");
  ResetVarsForTesting();
  EXPECT_EQ(MustRegister(IntSpec("test_new3", "test_old3")).parsed.value.integer, 4);
  std::string err = GetCapturedStderr();
  EXPECT_EQ(Count(err, "deprecated"), 0u) << err;
}

TEST_F(Vars, RefusesABadDefaultAndATypeConflict) {
  CaptureStderr();
  auto bad = RegisterVar({"test_bad_default", PMIX_MCA_PARAM_INT, "many", "h", ""});
  EXPECT_EQ(bad.status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_TRUE(RegisterVar(IntSpec("test_twice")).ok());
  auto conflict = RegisterVar({"test_twice", PMIX_MCA_PARAM_STRING, "x", "h", ""});
  EXPECT_EQ(conflict.status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(RegisterVar({"", PMIX_MCA_PARAM_INT, "1", "h", ""}).status().code(),
            PMIX_ERR_BAD_PARAM);
  std::string err = GetCapturedStderr();
  EXPECT_NE(err.find("test_bad_default"), std::string::npos) << err;
  EXPECT_NE(err.find("test_twice"), std::string::npos) << err;
}

TEST_F(Vars, MalformedFileLineIsReportedWithItsLocation) {
  WriteFile("user.conf", "test_ok = 1\njust words\n");
  ResetVarsForTesting();
  CaptureStderr();
  EXPECT_EQ(MustRegister(IntSpec("test_ok")).source, VarSource::kFile);
  std::string err = GetCapturedStderr();
  EXPECT_NE(err.find(dir_ + "/user.conf:2"), std::string::npos) << err;
}

TEST_F(Vars, ListsEveryVariableForPmixInfo) {
  MustRegister({"test_list_b", PMIX_MCA_PARAM_SIZE, "4k", "size help", "test_list_old"});
  MustRegister(IntSpec("test_list_a"));
  std::vector<Var> all = ListVars();
  auto find = [&](const std::string& name) {
    return std::find_if(all.begin(), all.end(), [&](const Var& v) { return v.name == name; });
  };
  ASSERT_NE(find("test_list_a"), all.end());
  auto b = find("test_list_b");
  ASSERT_NE(b, all.end());
  EXPECT_EQ(b->type, PMIX_MCA_PARAM_SIZE);
  EXPECT_EQ(b->text.value_or(""), "4k");
  EXPECT_EQ(b->parsed.value.size, 4096u);
  EXPECT_EQ(b->help, "size help");
  EXPECT_EQ(b->synonyms, std::vector<std::string>{"test_list_old"});
  EXPECT_LT(find("test_list_a"), b);  // sorted by name
  auto files = find("mca_base_param_files");
  ASSERT_NE(files, all.end());
  EXPECT_EQ(files->source, VarSource::kEnvironment);
  EXPECT_NE(find("mca_base_override_param_file"), all.end());
  EXPECT_TRUE(FindVar("test_list_a").has_value());
  EXPECT_FALSE(FindVar("test_list_zzz").has_value());
}

}  // namespace
}  // namespace pmix::mca
