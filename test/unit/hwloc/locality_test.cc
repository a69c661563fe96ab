#include "src/hwloc/locality.h"

#include <gtest/gtest.h>

#include "test/unit/hwloc/fake_topology.h"

namespace pmix::hwloc {
namespace {

using testing::Cpus;
using testing::LoadFake;

struct Topo {
  hwloc_topology_t t = LoadFake();
  ~Topo() {
    if (t != nullptr) hwloc_topology_destroy(t);
  }
};

TEST(Locality, StringsMatchOpenPmix) {
  Topo topo;
  ASSERT_NE(topo.t, nullptr);
  struct Case {
    const char* cpus;
    const char* want;  // Debian's OpenPMIx 4.2.2 on the same topology
  } cases[] = {
      {"5", "SK0:L31:L22:L12:CR2:HT5:NM1"},
      {"4-7", "SK0:L31:L22-3:L12-3:CR2-3:HT4-7:NM1"},
      {"0,8", "SK0-1:L30,2:L20,4:L10,4:CR0,4:HT0,8:NM0,2"},
      {"0-15", "SK0-1:L30-3:L20-7:L10-7:CR0-7:HT0-15:NM0-3"},
  };
  for (const auto& c : cases) {
    auto text = LocalityString(topo.t, Cpus(c.cpus).get());
    ASSERT_TRUE(text.has_value()) << c.cpus;
    EXPECT_EQ(*text, c.want) << c.cpus;
  }
}

TEST(Locality, UnboundHasNoString) {
  Topo topo;
  ASSERT_NE(topo.t, nullptr);
  EXPECT_FALSE(LocalityString(topo.t, Cpus("").get()).has_value());
  Bitmap full(hwloc_bitmap_alloc_full());
  EXPECT_FALSE(LocalityString(topo.t, full.get()).has_value());
  EXPECT_FALSE(LocalityString(topo.t, Cpus("100").get()).has_value());  // no such PU
}

TEST(Locality, RelativeLocalityOfKnownPlacements) {
  Topo topo;
  ASSERT_NE(topo.t, nullptr);
  auto loc = [&](const char* cpus) { return *LocalityString(topo.t, Cpus(cpus).get()); };
  const pmix_locality_t kAll = PMIX_LOCALITY_SHARE_NODE | PMIX_LOCALITY_SHARE_PACKAGE |
                               PMIX_LOCALITY_SHARE_NUMA | PMIX_LOCALITY_SHARE_L3CACHE |
                               PMIX_LOCALITY_SHARE_L2CACHE | PMIX_LOCALITY_SHARE_L1CACHE |
                               PMIX_LOCALITY_SHARE_CORE | PMIX_LOCALITY_SHARE_HWTHREAD;
  struct Case {
    const char* a;
    const char* b;
    pmix_locality_t want;
  } cases[] = {
      {"5", "4-7", kAll},
      {"4", "5", kAll & ~PMIX_LOCALITY_SHARE_HWTHREAD},
      {"0", "2", PMIX_LOCALITY_SHARE_NODE | PMIX_LOCALITY_SHARE_PACKAGE | PMIX_LOCALITY_SHARE_NUMA |
                     PMIX_LOCALITY_SHARE_L3CACHE},
      {"0", "4", PMIX_LOCALITY_SHARE_NODE | PMIX_LOCALITY_SHARE_PACKAGE},
      {"0", "8", PMIX_LOCALITY_SHARE_NODE},
      // PU 9 shares core 4 (and its caches) with PU 8, but not the thread
      {"0,8", "9", kAll & ~PMIX_LOCALITY_SHARE_HWTHREAD},
  };
  for (const auto& c : cases) {
    auto rel = RelativeLocality(loc(c.a), loc(c.b));
    ASSERT_TRUE(rel.ok()) << c.a << " " << c.b;
    EXPECT_EQ(*rel, c.want) << c.a << " " << c.b;
  }
}

TEST(Locality, ReadsPrefixedAndForeignStrings) {
  auto rel = RelativeLocality("hwloc:SK0:CR1", "SK0:CR2");
  ASSERT_TRUE(rel.ok());
  EXPECT_EQ(*rel, PMIX_LOCALITY_SHARE_NODE | PMIX_LOCALITY_SHARE_PACKAGE);
  EXPECT_EQ(RelativeLocality("other:xyz", "SK0").status().code(), PMIX_ERR_NOT_SUPPORTED);
  EXPECT_EQ(RelativeLocality("", "SK0").status().code(), PMIX_ERR_NOT_SUPPORTED);
  EXPECT_EQ(RelativeLocality("SK0:ZZ1", "SK0").status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(RelativeLocality("SK0-", "SK0").status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(RelativeLocality("SK99999999", "SK0").status().code(), PMIX_ERR_BAD_PARAM);
}

}  // namespace
}  // namespace pmix::hwloc
