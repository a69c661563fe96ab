// The server's job-data images (issue 10): register_nspace lays the
// namespace out once, in a sealed memfd when gds/shmem is selected (one
// descriptor held by the server, no name in the file system), a
// re-registration replaces it, and deregistering leaves no descriptor or
// mapping behind.
#include <dirent.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "pmix.h"
#include "pmix_server.h"
#include "test/unit/server/in_process_server.h"

namespace pmix::server {
namespace {

constexpr const char* kMemfdTag = "memfd:pmix-gds-shmem";

// Descriptors and mappings of gds/shmem regions in this process.
int RegionFds() {
  int n = 0;
  DIR* d = ::opendir("/proc/self/fd");
  if (d == nullptr) return -1;
  while (dirent* e = ::readdir(d)) {
    char target[512];
    std::string path = std::string("/proc/self/fd/") + e->d_name;
    ssize_t len = ::readlink(path.c_str(), target, sizeof target - 1);
    if (len <= 0) continue;
    target[len] = '\0';
    n += std::strstr(target, kMemfdTag) != nullptr;
  }
  ::closedir(d);
  return n;
}

int RegionMappings() {
  FILE* f = std::fopen("/proc/self/maps", "r");
  if (f == nullptr) return -1;
  char line[4096];
  int n = 0;
  while (std::fgets(line, sizeof line, f)) n += std::strstr(line, kMemfdTag) != nullptr;
  std::fclose(f);
  return n;
}

pmix_status_t Register(const char* nspace, const char* value) {
  uint32_t size = 4;
  pmix_info_t info[4];
  PMIx_Info_load(&info[0], PMIX_JOB_SIZE, &size, PMIX_UINT32);
  PMIx_Info_load(&info[1], PMIX_NODE_MAP, "n0", PMIX_STRING);
  PMIx_Info_load(&info[2], PMIX_PROC_MAP, "0,1,2,3", PMIX_STRING);
  PMIx_Info_load(&info[3], "test.value", value, PMIX_STRING);
  pmix_status_t rc = PMIx_server_register_nspace(nspace, 4, info, 4, nullptr, nullptr);
  for (pmix_info_t& i : info) PMIx_Info_destruct(&i);
  return rc;
}

// (The hash case -- images on the heap, sent inline -- needs a process
// whose gds selection excludes shmem: test/integration/image.sh runs it.)
using JobImageServer = test_support::InProcessServer;

TEST_F(JobImageServer, OneSealedMemfdPerNamespaceAndNothingLeftAfterDeregister) {
  StartServer(false, {{PMIX_HOSTNAME, "n0"}});
  int fds = RegionFds(), maps = RegionMappings();
  ASSERT_EQ(Register("img-a", "one"), PMIX_SUCCESS);
  if (RegionFds() == fds) GTEST_SKIP() << "gds/shmem not selected here";
  EXPECT_EQ(RegionFds(), fds + 1);
  EXPECT_EQ(RegionMappings(), maps + 1);
  ASSERT_EQ(Register("img-b", "two"), PMIX_SUCCESS);
  EXPECT_EQ(RegionFds(), fds + 2);
  // A re-registration replaces the image: still one per namespace.
  ASSERT_EQ(Register("img-a", "three"), PMIX_SUCCESS);
  EXPECT_EQ(RegionFds(), fds + 2);
  EXPECT_EQ(RegionMappings(), maps + 2);
  PMIx_server_deregister_nspace("img-a", nullptr, nullptr);
  PMIx_server_deregister_nspace("img-b", nullptr, nullptr);
  EXPECT_EQ(RegionFds(), fds);
  EXPECT_EQ(RegionMappings(), maps);
}

}  // namespace
}  // namespace pmix::server
