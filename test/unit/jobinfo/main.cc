// The job-info tests link the core library. The gds hash plugin they load
// links libpmix too and only copies values through it; the preg compress
// plugin would run libpmix's own frameworks, so its directory is dropped
// from the component path (as in preg_base_tests). A PMIX_MCA_gds of the
// caller's (e.g. "hash" for a whole make check) is dropped too: the tests
// lay every image out on the heap (hash's medium) and in gds shmem
// themselves, and shmem must be selected wherever memfds seal
// (ImageMatrix.CoversShmemWhereMemfdsSeal).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  if (const char* path = std::getenv("PMIX_MCA_mca_base_component_path")) {
    std::string kept, dir;
    for (char c : std::string(path) + ":") {
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
  unsetenv("PMIX_MCA_gds");
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
