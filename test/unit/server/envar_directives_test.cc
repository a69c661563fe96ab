// Envar directives (src/server/envar_directives.h): reading them from
// infos, applying them to an environment array, harvesting.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "pmix.h"
#include "src/server/envar_directives.h"

namespace pmix::server::envars {
namespace {

// An environment array as setup_fork grows it (malloc'd argv).
class Env {
 public:
  explicit Env(const std::vector<std::string>& entries) {
    for (const auto& e : entries) PMIx_Argv_append_nosize(&env_, e.c_str());
  }
  ~Env() { PMIx_Argv_free(env_); }
  char*** ptr() { return &env_; }
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (size_t i = 0; env_ != nullptr && env_[i] != nullptr; ++i) out.emplace_back(env_[i]);
    return out;
  }

 private:
  char** env_ = nullptr;
};

Directive D(Kind kind, const char* name, const char* value = "", char sep = ':') {
  return Directive{kind, name, value, sep};
}

struct ApplyCase {
  const char* what;
  std::vector<std::string> before;
  Directive directive;
  std::vector<std::string> after;
};

TEST(EnvarDirectives, ApplyEachKind) {
  const ApplyCase cases[] = {
      {"set new", {"A=1"}, D(Kind::kSet, "B", "2"), {"A=1", "B=2"}},
      {"set replaces", {"A=1"}, D(Kind::kSet, "A", "2"), {"A=2"}},
      {"add keeps", {"A=1"}, D(Kind::kAdd, "A", "2"), {"A=1"}},
      {"add new", {}, D(Kind::kAdd, "A", "2"), {"A=2"}},
      {"unset", {"A=1", "B=2", "C=3"}, D(Kind::kUnset, "B"), {"A=1", "C=3"}},
      {"unset absent", {"A=1"}, D(Kind::kUnset, "Z"), {"A=1"}},
      {"prepend", {"P=/b"}, D(Kind::kPrepend, "P", "/a"), {"P=/a:/b"}},
      {"prepend new", {}, D(Kind::kPrepend, "P", "/a"), {"P=/a"}},
      {"append sep", {"P=x"}, D(Kind::kAppend, "P", "y", ','), {"P=x,y"}},
      {"first", {"P=/b:/a:/c"}, D(Kind::kFirst, "P", "/a"), {"P=/a:/b:/c"}},
      {"prefix is not the name", {"AB=1"}, D(Kind::kUnset, "A"), {"AB=1"}},
  };
  for (const auto& c : cases) {
    Env env(c.before);
    ASSERT_TRUE(Apply(c.directive, env.ptr()).ok()) << c.what;
    EXPECT_EQ(env.entries(), c.after) << c.what;
  }
}

TEST(EnvarDirectives, ApplyToNullArrayStartsOne) {
  char** env = nullptr;
  ASSERT_TRUE(Apply(D(Kind::kSet, "X", "1"), &env).ok());
  ASSERT_NE(env, nullptr);
  EXPECT_STREQ(env[0], "X=1");
  EXPECT_EQ(env[1], nullptr);
  PMIx_Argv_free(env);
  EXPECT_EQ(Apply(D(Kind::kSet, "X", "1"), nullptr).code(), PMIX_ERR_BAD_PARAM);
}

TEST(EnvarDirectives, ReadsInfosInOrderAndSkipsOthers) {
  pmix_envar_t set{const_cast<char*>("S"), const_cast<char*>("v"), ','};
  pmix_info_t info[3];
  PMIx_Info_load(&info[0], PMIX_SET_ENVAR, &set, PMIX_ENVAR);
  PMIx_Info_load(&info[1], PMIX_HOSTNAME, "h", PMIX_STRING);
  PMIx_Info_load(&info[2], PMIX_UNSET_ENVAR, "U", PMIX_STRING);
  auto d = FromInfos(info);
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(d->size(), 2u);
  EXPECT_EQ((*d)[0].kind, Kind::kSet);
  EXPECT_EQ((*d)[0].name, "S");
  EXPECT_EQ((*d)[0].value, "v");
  EXPECT_EQ((*d)[0].separator, ',');
  EXPECT_EQ((*d)[1].kind, Kind::kUnset);
  EXPECT_EQ((*d)[1].name, "U");
  // and back to infos
  wire::Infos out;
  for (const auto& x : *d) ASSERT_TRUE(AppendInfo(x, out).ok());
  auto again = FromInfos(out.view());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)[0].value, "v");
  EXPECT_EQ((*again)[1].name, "U");
  for (auto& i : info) PMIx_Info_destruct(&i);
}

TEST(EnvarDirectives, RejectsWrongTypeOrBadName) {
  pmix_info_t info;
  PMIx_Info_load(&info, PMIX_SET_ENVAR, "not-an-envar", PMIX_STRING);
  EXPECT_EQ(FromInfos({&info, 1}).status().code(), PMIX_ERR_BAD_PARAM);
  PMIx_Info_destruct(&info);
  pmix_envar_t bad{const_cast<char*>("A=B"), const_cast<char*>("v"), ':'};
  PMIx_Info_load(&info, PMIX_SET_ENVAR, &bad, PMIX_ENVAR);
  EXPECT_EQ(FromInfos({&info, 1}).status().code(), PMIX_ERR_BAD_PARAM);
  PMIx_Info_destruct(&info);
}

TEST(EnvarDirectives, HarvestsByPrefix) {
  char a[] = "PMIX_MCA_ptl=tcp", b[] = "PMIX_RANK=3", c[] = "PMIX_MCA_x=a=b", d[] = "junk";
  char* environ_array[] = {a, b, c, d, nullptr};
  const std::string_view prefixes[] = {"PMIX_MCA_"};
  auto got = Harvest(environ_array, prefixes);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].name, "PMIX_MCA_ptl");
  EXPECT_EQ(got[0].value, "tcp");
  EXPECT_EQ(got[1].name, "PMIX_MCA_x");
  EXPECT_EQ(got[1].value, "a=b");
  EXPECT_EQ(got[1].kind, Kind::kSet);
}

}  // namespace
}  // namespace pmix::server::envars
