#include "src/hwloc/distances.h"

#include <gtest/gtest.h>

#include "test/unit/hwloc/fake_topology.h"

namespace pmix::hwloc {
namespace {

using testing::Cpus;
using testing::LoadFake;

struct Topo {
  hwloc_topology_t t;
  explicit Topo(const char* synthetic = nullptr) : t(LoadFake(synthetic)) {}
  ~Topo() {
    if (t != nullptr) hwloc_topology_destroy(t);
  }
};

const char* kFab = "fab://0c42:a103:0016:054c::0c42:a103:0016:054c";

TEST(Distances, MatchOpenPmixForOneLocation) {
  Topo topo;
  ASSERT_NE(topo.t, nullptr);
  struct Case {
    const char* cpus;
    uint16_t gpu, nic, hca;  // OpenPMIx 4.2.2 on the same topology
  } cases[] = {{"5", 13, 13, 6}, {"4-7", 9, 9, 6}};
  for (const auto& c : cases) {
    auto d = ComputeDistances(topo.t, Cpus(c.cpus).get(), {}, "node1");
    ASSERT_TRUE(d.ok()) << c.cpus;
    ASSERT_EQ(d->size(), 3u) << c.cpus;
    EXPECT_EQ((*d)[0].uuid, "gpu://node1::renderD128");
    EXPECT_EQ((*d)[0].type, PMIX_DEVTYPE_GPU);
    EXPECT_EQ((*d)[0].mindist, c.gpu);
    EXPECT_EQ((*d)[1].uuid, "ipv4://aa:bb:cc:00:11:22");
    EXPECT_EQ((*d)[1].osname, "eth1");
    EXPECT_EQ((*d)[1].type, PMIX_DEVTYPE_NETWORK);
    EXPECT_EQ((*d)[1].mindist, c.nic);
    EXPECT_EQ((*d)[2].uuid, kFab);
    EXPECT_EQ((*d)[2].type, PMIX_DEVTYPE_OPENFABRICS);
    EXPECT_EQ((*d)[2].mindist, c.hca);
    for (const auto& e : *d) EXPECT_EQ(e.mindist, e.maxdist);
  }
}

TEST(Distances, SpanningPackagesGivesClosestAndFarthestPu) {
  Topo topo;
  ASSERT_NE(topo.t, nullptr);
  auto d = ComputeDistances(topo.t, Cpus("0,8").get(), {}, "node1");
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(d->size(), 3u);
  for (const auto& e : *d) {
    EXPECT_EQ(e.mindist, 6) << e.osname;   // the PU in the device's package
    EXPECT_EQ(e.maxdist, 13) << e.osname;  // the PU in the other one
  }
}

TEST(Distances, FiltersByTypeAndId) {
  Topo topo;
  ASSERT_NE(topo.t, nullptr);
  DeviceFilter by_type;
  by_type.types = PMIX_DEVTYPE_NETWORK | PMIX_DEVTYPE_OPENFABRICS;
  auto d = ComputeDistances(topo.t, Cpus("0").get(), by_type, "n");
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(d->size(), 2u);
  EXPECT_EQ((*d)[0].osname, "eth1");
  EXPECT_EQ((*d)[1].osname, "mlx5_0");
  for (const char* id : {"MLX5_0", kFab}) {
    DeviceFilter by_id;
    by_id.ids = {id};
    auto one = ComputeDistances(topo.t, Cpus("0").get(), by_id, "n");
    ASSERT_TRUE(one.ok());
    ASSERT_EQ(one->size(), 1u) << id;
    EXPECT_EQ((*one)[0].osname, "mlx5_0");
    EXPECT_EQ((*one)[0].mindist, 6);
  }
}

TEST(Distances, NoDevicesIsAnEmptyAnswer) {
  Topo topo("pack:2 core:2 pu:2");
  ASSERT_NE(topo.t, nullptr);
  auto d = ComputeDistances(topo.t, Cpus("0").get(), {}, "n");
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->empty());
}

TEST(Distances, CpusetOutsideTheNodeIsRefused) {
  Topo topo;
  ASSERT_NE(topo.t, nullptr);
  EXPECT_EQ(ComputeDistances(topo.t, Cpus("64").get(), {}, "n").status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(ComputeDistances(topo.t, Cpus("").get(), {}, "n").status().code(), PMIX_ERR_BAD_PARAM);
}

}  // namespace
}  // namespace pmix::hwloc
