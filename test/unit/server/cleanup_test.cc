// Cleanup registrations (src/server/server_cleanup.h): splitting the
// directives, the registry, and removal in a private temp tree.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "pmix.h"
#include "src/server/server_cleanup.h"

namespace pmix::server::cleanup {
namespace {

class TempTree : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/pmixx_cleanup_XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    root_ = tmpl;
  }
  void TearDown() override {
    std::string cmd = "rm -rf '" + root_ + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
  }
  std::string Path(const std::string& rel) const { return root_ + "/" + rel; }
  void Dir(const std::string& rel) const { ASSERT_EQ(::mkdir(Path(rel).c_str(), 0700), 0); }
  void File(const std::string& rel) const {
    FILE* f = std::fopen(Path(rel).c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fclose(f);
  }
  bool Exists(const std::string& rel) const {
    struct stat st;
    return ::lstat(Path(rel).c_str(), &st) == 0;
  }
  Request Req() const {
    Request r;
    r.owner = ::getuid();
    return r;
  }
  std::string root_;
};

pmix_info_t StringInfo(const char* key, const char* value) {
  pmix_info_t info;
  PMIX_INFO_LOAD(&info, key, value, PMIX_STRING);
  return info;
}

TEST(CleanupSplit, SeparatesCleanupFromOtherDirectives) {
  pmix_info_t infos[4];
  PMIX_INFO_LOAD(&infos[0], PMIX_REGISTER_CLEANUP_DIR, "/tmp/a, /tmp/b/", PMIX_STRING);
  PMIX_INFO_LOAD(&infos[1], PMIX_CLEANUP_RECURSIVE, nullptr, PMIX_UNDEF);  // UNDEF reads as true
  PMIX_INFO_LOAD(&infos[2], PMIX_JOB_CTRL_KILL, nullptr, PMIX_BOOL);
  infos[2].value.data.flag = true;
  PMIX_INFO_LOAD(&infos[3], PMIX_REGISTER_CLEANUP, "/tmp/f", PMIX_STRING);
  Request req;
  wire::Infos rest;
  ASSERT_TRUE(Split(infos, &req, &rest).ok());
  EXPECT_EQ(req.dirs, (std::vector<std::string>{"/tmp/a", "/tmp/b"}));
  EXPECT_EQ(req.files, (std::vector<std::string>{"/tmp/f"}));
  EXPECT_TRUE(req.recursive);
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_STREQ(rest.view()[0].key, PMIX_JOB_CTRL_KILL);
  for (auto& i : infos) PMIX_INFO_DESTRUCT(&i);
}

TEST(CleanupSplit, RefusesUnsafePathsAndWrongTypes) {
  const char* bad[] = {"relative/dir", "/", "/tmp/../etc", "/tmp/./x"};
  for (const char* path : bad) {
    pmix_info_t info = StringInfo(PMIX_REGISTER_CLEANUP_DIR, path);
    Request req;
    wire::Infos rest;
    EXPECT_EQ(Split({&info, 1}, &req, &rest).code(), PMIX_ERR_BAD_PARAM) << path;
    PMIX_INFO_DESTRUCT(&info);
  }
  pmix_info_t num;
  int v = 3;
  PMIX_INFO_LOAD(&num, PMIX_REGISTER_CLEANUP, &v, PMIX_INT);
  Request req;
  wire::Infos rest;
  EXPECT_EQ(Split({&num, 1}, &req, &rest).code(), PMIX_ERR_BAD_PARAM);
}

TEST(CleanupRegistry, TakesByProcNamespaceAndAll) {
  Registry reg;
  pmix_proc_t a, b, w, other;
  PMIX_LOAD_PROCID(&a, "ns", 0);
  PMIX_LOAD_PROCID(&b, "ns", 1);
  PMIX_LOAD_PROCID(&w, "ns", PMIX_RANK_WILDCARD);
  PMIX_LOAD_PROCID(&other, "ns2", 0);
  reg.Add(a, Request{});
  reg.Add(a, Request{});
  reg.Add(b, Request{});
  reg.Add(w, Request{});
  reg.Add(other, Request{});
  EXPECT_EQ(reg.TakeProc(a).size(), 2u);
  EXPECT_EQ(reg.TakeProc(a).size(), 0u);
  EXPECT_EQ(reg.TakeNamespace("ns").size(), 2u);
  EXPECT_EQ(reg.size(), 1u);
  EXPECT_EQ(reg.TakeAll().size(), 1u);
  EXPECT_EQ(reg.size(), 0u);
}

TEST_F(TempTree, RecursiveRemovesTheTree) {
  Dir("top");
  Dir("top/sub");
  File("top/sub/f");
  File("top/g");
  Request req = Req();
  req.dirs = {Path("top")};
  req.recursive = true;
  EXPECT_EQ(Execute(req), 4u);
  EXPECT_FALSE(Exists("top"));
}

TEST_F(TempTree, NonRecursiveLeavesSubdirectories) {
  Dir("top");
  Dir("top/sub");
  File("top/g");
  Request req = Req();
  req.dirs = {Path("top")};
  Execute(req);
  EXPECT_FALSE(Exists("top/g"));
  EXPECT_TRUE(Exists("top/sub"));
}

TEST_F(TempTree, OptionsIgnoreEmptyOnlyLeaveTop) {
  Dir("top");
  Dir("top/empty");
  Dir("top/full");
  File("top/full/keep.me");
  File("top/full/data");
  Request req = Req();
  req.dirs = {Path("top")};
  req.recursive = true;
  req.leave_topdir = true;
  req.ignore = {"keep.me"};
  Execute(req);
  EXPECT_TRUE(Exists("top"));
  EXPECT_FALSE(Exists("top/empty"));
  EXPECT_TRUE(Exists("top/full/keep.me"));
  EXPECT_FALSE(Exists("top/full/data"));

  File("top/full/data2");
  req.empty_only = true;
  req.ignore.clear();
  Execute(req);
  EXPECT_TRUE(Exists("top/full/data2"));
}

TEST_F(TempTree, SymlinksAreNotFollowed) {
  Dir("outside");
  File("outside/precious");
  Dir("top");
  ASSERT_EQ(::symlink(Path("outside").c_str(), Path("top/link").c_str()), 0);
  Request req = Req();
  req.dirs = {Path("top")};
  req.recursive = true;
  Execute(req);
  EXPECT_FALSE(Exists("top"));
  EXPECT_TRUE(Exists("outside/precious"));
}

TEST_F(TempTree, FilesAndOwnership) {
  File("f1");
  Dir("d");
  Request req = Req();
  req.files = {Path("f1"), Path("d"), Path("missing")};
  EXPECT_EQ(Execute(req), 1u);
  EXPECT_FALSE(Exists("f1"));
  EXPECT_TRUE(Exists("d"));  // a file registration never removes a directory
  if (::getuid() == 0) {
    File("f2");
    ASSERT_EQ(::chown(Path("f2").c_str(), 12345, 12345), 0);
    Request other = Req();
    other.owner = 54321;  // not the owner, not root: left alone
    other.files = {Path("f2")};
    EXPECT_EQ(Execute(other), 0u);
    EXPECT_TRUE(Exists("f2"));
  }
}

}  // namespace
}  // namespace pmix::server::cleanup
