#include "src/hwloc/share.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>

#include "src/common/info_lookup.h"
#include "src/hwloc/topology.h"
#include "test/unit/hwloc/fake_topology.h"

namespace pmix::hwloc {
namespace {

TEST(FindHole, PicksTheMiddleOfTheLargestGap) {
  std::string maps =
      "555555554000-555555556000 r-xp 00000000 fd:00 1 /bin/x\n"
      "555555556000-555555600000 rw-p 00000000 00:00 0 [heap]\n"
      "7ff000000000-7ff000100000 r-xp 00000000 fd:00 2 /lib/libc.so\n"
      "7ffffffde000-7ffffffff000 rw-p 00000000 00:00 0 [stack]\n"
      "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0 [vsyscall]\n";
  auto addr = FindHole(maps, 12288);
  ASSERT_TRUE(addr.has_value());
  EXPECT_GT(*addr, 0x555555600000ull);
  EXPECT_LT(*addr + 12288, 0x7ff000000000ull);
  EXPECT_EQ(*addr % (2u << 20), 0u);
  uint64_t mid = (0x555555600000ull + 0x7ff000000000ull) / 2;
  EXPECT_LT(*addr > mid ? *addr - mid : mid - *addr, 4ull << 20);
}

TEST(FindHole, NoRoomNoAddress) {
  EXPECT_FALSE(FindHole("1000-2000 r\n2000-3000 r\n", 4096).has_value());
  EXPECT_FALSE(FindHole("", 4096).has_value());
  EXPECT_FALSE(FindHole("garbage\n", 4096).has_value());
}

class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/pmixx-hwloc-test.XXXXXX";
    path_ = mkdtemp(pattern);
  }
  ~TempDir() { rmdir(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(SharedTopology, ExportsXmlAndAnAdoptableSegment) {
  TempDir dir;
  hwloc_topology_t topo = testing::LoadFake();
  ASSERT_NE(topo, nullptr);
  std::string file;
  {
    auto shared = SharedTopology::Create(topo, dir.path());
    ASSERT_TRUE(shared.ok());
    auto infos = shared->infos().view();
    auto v2 = InfoString(infos, PMIX_HWLOC_XML_V2);
    ASSERT_TRUE(v2.has_value());
    EXPECT_EQ(InfoString(infos, PMIX_LOCAL_TOPO), v2);
    EXPECT_TRUE(InfoString(infos, PMIX_HWLOC_XML_V1).has_value());
    file = InfoString(infos, PMIX_HWLOC_SHMEM_FILE).value_or("");
    ASSERT_EQ(file, dir.path() + "/pmixx-hwloc.sm");
    const pmix_info_t* addr = nullptr;
    const pmix_info_t* size = nullptr;
    for (const auto& i : infos) {
      if (PMIX_CHECK_KEY(&i, PMIX_HWLOC_SHMEM_ADDR)) addr = &i;
      if (PMIX_CHECK_KEY(&i, PMIX_HWLOC_SHMEM_SIZE)) size = &i;
    }
    ASSERT_NE(addr, nullptr);
    ASSERT_NE(size, nullptr);
    EXPECT_EQ(addr->value.type, PMIX_SIZE);  // Open MPI 4.1 unloads them as OPAL_SIZE
    EXPECT_EQ(size->value.type, PMIX_SIZE);
    struct stat st{};
    ASSERT_EQ(stat(file.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0644u);

    // What a client does with it: the same topology, mapped read-only.
    auto adopted = FromShmem(file, addr->value.data.size, size->value.data.size);
    ASSERT_TRUE(adopted.ok());
    EXPECT_EQ(hwloc_get_nbobjs_by_type(adopted->get(), HWLOC_OBJ_PU), 16);
    EXPECT_EQ(hwloc_get_nbobjs_by_type(adopted->get(), HWLOC_OBJ_NUMANODE), 4);
    // And what an older client does: the XML.
    auto from_xml = FromXml(*v2);
    ASSERT_TRUE(from_xml.ok());
    EXPECT_EQ(hwloc_get_nbobjs_by_type(from_xml->get(), HWLOC_OBJ_CORE), 8);
  }
  EXPECT_NE(access(file.c_str(), F_OK), 0) << "the segment outlived its owner";
  hwloc_topology_destroy(topo);
}

TEST(SharedTopology, FromShmemRefusesWhatIsNotThere) {
  EXPECT_EQ(FromShmem("/nonexistent/hwloc.sm", 0x600000000000ull, 4096).status().code(),
            PMIX_ERR_NOT_AVAILABLE);
  EXPECT_EQ(FromShmem("/dev/null", 0, 4096).status().code(), PMIX_ERR_BAD_PARAM);
}

TEST(SharedTopology, BadXmlIsRefused) {
  EXPECT_EQ(FromXml("<topology>").status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(FromXml("").status().code(), PMIX_ERR_BAD_PARAM);
}

}  // namespace
}  // namespace pmix::hwloc
