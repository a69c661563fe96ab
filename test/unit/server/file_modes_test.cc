// The files and sockets a server creates in the directories its host gives
// it (PMIX_SERVER_TMPDIR, PMIX_SYSTEM_TMPDIR): the narrowest mode whatever
// the umask, and nothing left behind at finalize (docs/security.md).
#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "pmix.h"
#include "pmix_server.h"

namespace pmix::server {
namespace {

// name -> mode (type and permission bits) of each entry of dir.
std::map<std::string, mode_t> Entries(const std::string& dir) {
  std::map<std::string, mode_t> out;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return out;
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    struct stat st;
    if (::lstat((dir + "/" + name).c_str(), &st) == 0) out[name] = st.st_mode;
  }
  ::closedir(d);
  return out;
}

// With a umask of 0 (the widest), a server given a tmpdir that does not
// exist yet creates it 0700, its socket 0600 (it used to be 0777: bind()
// applies the umask) and its rendezvous files 0600 (the system-wide one
// 0640), and removes them all at finalize.
TEST(ServerFiles, NarrowestModesWhateverTheUmask) {
  char base_pattern[] = "/tmp/pmixx-modes.XXXXXX";
  ASSERT_NE(::mkdtemp(base_pattern), nullptr);
  const std::string base = base_pattern;
  const std::string tmpdir = base + "/server";
  const std::string sysdir = base + "/system";
  ASSERT_EQ(::mkdir(sysdir.c_str(), 0700), 0);
  mode_t saved = ::umask(0);

  bool yes = true;
  pmix_info_t info[5];
  PMIx_Info_load(&info[0], PMIX_SERVER_TMPDIR, tmpdir.c_str(), PMIX_STRING);
  PMIx_Info_load(&info[1], PMIX_SYSTEM_TMPDIR, sysdir.c_str(), PMIX_STRING);
  PMIx_Info_load(&info[2], PMIX_SERVER_TOOL_SUPPORT, &yes, PMIX_BOOL);
  PMIx_Info_load(&info[3], PMIX_SERVER_SYSTEM_SUPPORT, &yes, PMIX_BOOL);
  PMIx_Info_load(&info[4], PMIX_SERVER_SESSION_SUPPORT, &yes, PMIX_BOOL);
  pmix_server_module_t module{};
  pmix_status_t rc = PMIx_server_init(&module, info, 5);
  for (pmix_info_t& i : info) PMIx_Info_destruct(&i);
  if (rc == PMIX_SUCCESS) {
    struct stat st;
    ASSERT_EQ(::lstat(tmpdir.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0700u);
    auto in_tmpdir = Entries(tmpdir);
    int sockets = 0, files = 0;
    for (const auto& [name, mode] : in_tmpdir) {
      EXPECT_TRUE(S_ISSOCK(mode) || S_ISREG(mode)) << name;
      EXPECT_EQ(mode & 07777, 0600u) << name << " in the server's tmpdir";
      sockets += S_ISSOCK(mode) ? 1 : 0;
      files += S_ISREG(mode) ? 1 : 0;
    }
    EXPECT_GE(sockets, 1);
    EXPECT_GE(files, 1);
    auto in_sysdir = Entries(sysdir);
    EXPECT_EQ(in_sysdir.size(), 1u);
    for (const auto& [name, mode] : in_sysdir) {
      EXPECT_TRUE(S_ISREG(mode)) << name;
      EXPECT_EQ(mode & 07777, 0640u) << name << " in the system tmpdir";
    }
    EXPECT_EQ(PMIx_server_finalize(), PMIX_SUCCESS);
    EXPECT_TRUE(Entries(tmpdir).empty()) << "left behind in the server's tmpdir";
    EXPECT_TRUE(Entries(sysdir).empty()) << "left behind in the system tmpdir";
  }
  ::umask(saved);
  EXPECT_EQ(rc, PMIX_SUCCESS);
  ::rmdir(tmpdir.c_str());
  ::rmdir(sysdir.c_str());
  ::rmdir(base.c_str());
}

// PMIX_TCP_REPORT_URI names a file the server (re)writes: a symbolic link
// someone planted at that name is replaced, not followed (the file it
// points to is left alone), and the new file is 0600 whatever the umask.
TEST(ServerFiles, ReportUriReplacesAPlantedLinkWithoutFollowingIt) {
  char base_pattern[] = "/tmp/pmixx-report.XXXXXX";
  ASSERT_NE(::mkdtemp(base_pattern), nullptr);
  const std::string base = base_pattern;
  const std::string victim = base + "/victim";
  const std::string report = base + "/uri";
  {
    std::ofstream v(victim);
    v << "keep\n";
  }
  ASSERT_EQ(::symlink(victim.c_str(), report.c_str()), 0);
  mode_t saved = ::umask(0);
  bool yes = true;
  pmix_info_t info[4];
  PMIx_Info_load(&info[0], PMIX_SERVER_TMPDIR, (base + "/server").c_str(), PMIX_STRING);
  PMIx_Info_load(&info[1], PMIX_SYSTEM_TMPDIR, base.c_str(), PMIX_STRING);
  PMIx_Info_load(&info[2], PMIX_SERVER_TOOL_SUPPORT, &yes, PMIX_BOOL);
  PMIx_Info_load(&info[3], PMIX_TCP_REPORT_URI, report.c_str(), PMIX_STRING);
  pmix_server_module_t module{};
  pmix_status_t rc = PMIx_server_init(&module, info, 4);
  for (pmix_info_t& i : info) PMIx_Info_destruct(&i);
  ::umask(saved);
  ASSERT_EQ(rc, PMIX_SUCCESS);
  struct stat st;
  ASSERT_EQ(::lstat(report.c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode)) << "the planted link is still there";
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  std::string line;
  std::getline(std::ifstream(report), line);
  EXPECT_NE(line.find(";tcp4://"), std::string::npos) << line;
  std::stringstream kept;
  kept << std::ifstream(victim).rdbuf();
  EXPECT_EQ(kept.str(), "keep\n") << "the URI was written through the link";
  EXPECT_EQ(PMIx_server_finalize(), PMIX_SUCCESS);
  auto left = Entries(base);
  left.erase("victim");
  left.erase("uri");
  left.erase("server");  // the tmpdir given (kept, emptied)
  EXPECT_TRUE(left.empty()) << "a temporary file was left: " << left.begin()->first;
  std::string cmd = "rm -rf '" + base + "'";
  (void)std::system(cmd.c_str());
}

}  // namespace
}  // namespace pmix::server
