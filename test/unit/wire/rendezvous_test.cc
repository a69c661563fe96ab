// Rendezvous file names, format and exclusive creation (src/wire/rendezvous.h).
#include "src/wire/rendezvous.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace pmix::wire {
namespace {

class RendezvousDir : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* base = std::getenv("TMPDIR");
    dir_ = std::string(base != nullptr && *base == '/' ? base : "/tmp") + "/rndz-test.XXXXXX";
    ASSERT_NE(::mkdtemp(dir_.data()), nullptr);
  }
  void TearDown() override {
    std::string cmd = "rm -rf '" + dir_ + "'";
    (void)std::system(cmd.c_str());
  }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }
  static std::string Read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  static Rendezvous Sample(pid_t pid) {
    Rendezvous r;
    PMIx_Load_procid(&r.server, "pmixrun.42", 0);
    r.uri = "tcp4://127.0.0.1:5000";
    r.version = "9.9.9";
    r.pid = pid;
    r.uid = 1000;
    r.gid = 100;
    return r;
  }
  std::string dir_;
};

TEST(RendezvousNames, AreOpenPmixs) {
  EXPECT_EQ(PidFileName("node1", 77), "pmix.node1.tool.77");
  EXPECT_EQ(NspaceFileName("node1", "prterun-x@0"), "pmix.node1.tool.prterun-x@0");
  EXPECT_EQ(SessionFileName("node1"), "pmix.node1.tool");
  EXPECT_EQ(SystemFileName("node1"), "pmix.sys.node1");
}

TEST(ServerUri, ParsesNspaceRankAndUriWithDotsInBoth) {
  pmix_proc_t p;
  std::string uri;
  ASSERT_TRUE(ParseServerUri("prte.host.1234@0.3;tcp4://10.0.0.1:999", &p, &uri).ok());
  EXPECT_STREQ(p.nspace, "prte.host.1234@0");
  EXPECT_EQ(p.rank, 3u);
  EXPECT_EQ(uri, "tcp4://10.0.0.1:999");
  ASSERT_TRUE(ParseServerUri("usock:/tmp/x", &p, &uri).ok());
  EXPECT_STREQ(p.nspace, "");
  EXPECT_EQ(p.rank, PMIX_RANK_UNDEF);
  EXPECT_EQ(uri, "usock:/tmp/x");
  EXPECT_EQ(ParseServerUri("", &p, &uri).code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(ParseServerUri("norank;tcp4://x:1", &p, &uri).code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(ParseServerUri("ns.x;tcp4://x:1", &p, &uri).code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(ParseServerUri("ns.0;", &p, &uri).code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(FormatServerUri(p, "u"), ".4294967295;u");  // rank PMIX_RANK_UNDEF
}

TEST(RendezvousFormat, HasOpenPmixsFiveLinesAndRoundTrips) {
  Rendezvous r;
  PMIx_Load_procid(&r.server, "ns", 2);
  r.uri = "tcp4://127.0.0.1:1";
  r.version = "1.2.3";
  r.pid = 4321;
  r.uid = 7;
  r.gid = 8;
  std::string text = FormatRendezvous(r);
  EXPECT_EQ(text.rfind("ns.2;tcp4://127.0.0.1:1\n1.2.3\n4321\n7:8\n", 0), 0u) << text;
  EXPECT_EQ(text.substr(text.size() - 2), "\n\n");  // ctime's newline, then the line's
  auto back = ParseRendezvous(text);
  ASSERT_TRUE(back.ok());
  EXPECT_STREQ(back->server.nspace, "ns");
  EXPECT_EQ(back->server.rank, 2u);
  EXPECT_EQ(back->uri, r.uri);
  EXPECT_EQ(back->version, "1.2.3");
  EXPECT_EQ(back->pid, 4321);
  EXPECT_EQ(back->uid, 7u);
  EXPECT_EQ(back->gid, 8u);
  auto two = ParseRendezvous("ns.0;usock:/p\nv4.2.2\n");  // a --report-uri file
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two->pid, 0);
  EXPECT_FALSE(ParseRendezvous("").ok());
}

TEST_F(RendezvousDir, CreatesExclusivelyWithTheModeAndRefusesALiveOwner) {
  std::string path = Path("pmix.h.tool");
  ASSERT_TRUE(WriteRendezvousFile(path, Sample(getpid()), 0600).ok());
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  std::string before = Read(path);
  // Our own (live) pid owns it: a second server is refused, nothing changes.
  EXPECT_EQ(WriteRendezvousFile(path, Sample(getpid() + 0), 0640).code(), PMIX_EXISTS);
  EXPECT_EQ(Read(path), before);
  auto back = ReadRendezvousFile(path);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->pid, getpid());
}

TEST_F(RendezvousDir, ReclaimsAStaleFile) {
  pid_t dead = fork();
  if (dead == 0) _exit(0);
  ASSERT_GT(dead, 0);
  ASSERT_EQ(waitpid(dead, nullptr, 0), dead);
  std::string path = Path("pmix.sys.h");
  ASSERT_TRUE(WriteRendezvousFile(path, Sample(dead), 0640).ok());
  ASSERT_TRUE(WriteRendezvousFile(path, Sample(getpid()), 0640).ok());
  auto back = ReadRendezvousFile(path);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->pid, getpid());
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
}

TEST_F(RendezvousDir, NeverFollowsASymlinkAndKeepsAFileWithoutPid) {
  std::string target = Path("elsewhere"), link = Path("pmix.h.tool.1");
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  EXPECT_EQ(WriteRendezvousFile(link, Sample(getpid()), 0600).code(), PMIX_EXISTS);
  EXPECT_NE(::access(target.c_str(), F_OK), 0);  // nothing created through the link
  std::string nopid = Path("pmix.h.tool.2");
  std::ofstream(nopid) << "ns.0;usock:/x\n";
  EXPECT_EQ(WriteRendezvousFile(nopid, Sample(getpid()), 0600).code(), PMIX_EXISTS);
}

TEST_F(RendezvousDir, RemovesOnlyItsOwnFile) {
  std::string path = Path("pmix.h.tool.9");
  ASSERT_TRUE(WriteRendezvousFile(path, Sample(getpid()), 0600).ok());
  RemoveRendezvousFile(path, getpid() + 1);
  EXPECT_EQ(::access(path.c_str(), F_OK), 0);
  RemoveRendezvousFile(path, getpid());
  EXPECT_NE(::access(path.c_str(), F_OK), 0);
  EXPECT_EQ(ReadRendezvousFile(path).status().code(), PMIX_ERR_NOT_FOUND);
}

}  // namespace
}  // namespace pmix::wire
