// The C API of src/hwloc (hwloc_api.cc) in a process without a server: the
// process topology is the fake node (hwloc_topo_file, set before anything
// registers the variable).
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include <gtest/gtest.h>

#include <cstring>

#include "pmix.h"
#include "pmix_server.h"
#include "src/hwloc/cpuset_text.h"
#include "test/unit/hwloc/fake_topology.h"

namespace {

const int kFakeTopology = setenv("PMIX_MCA_hwloc_topo_file", FAKE_NODE_XML, 1);

pmix_cpuset_t Cpuset(const char* list) {
  pmix_cpuset_t c;
  PMIx_Cpuset_construct(&c);
  c.source = strdup("hwloc");
  c.bitmap = pmix::hwloc::testing::Cpus(list).release();
  return c;
}

TEST(HwlocApi, LoadTopologyGivesTheProcessTopologyOnce) {
  ASSERT_EQ(kFakeTopology, 0);
  pmix_topology_t a;
  PMIx_Topology_construct(&a);
  ASSERT_EQ(PMIx_Load_topology(&a), PMIX_SUCCESS);
  ASSERT_NE(a.topology, nullptr);
  EXPECT_EQ(std::strncmp(a.source, "hwloc:", 6), 0);
  EXPECT_EQ(hwloc_get_nbobjs_by_type(static_cast<hwloc_topology_t>(a.topology), HWLOC_OBJ_PU), 16);
  void* first = a.topology;
  PMIx_Topology_destruct(&a);  // frees the source only
  pmix_topology_t b;
  PMIx_Topology_construct(&b);
  ASSERT_EQ(PMIx_Load_topology(&b), PMIX_SUCCESS);
  EXPECT_EQ(b.topology, first);
  EXPECT_EQ(hwloc_get_nbobjs_by_type(static_cast<hwloc_topology_t>(b.topology), HWLOC_OBJ_CORE), 8);
  PMIx_Topology_destruct(&b);
}

TEST(HwlocApi, LoadTopologyRefusesOtherSources) {
  pmix_topology_t t;
  PMIx_Topology_construct(&t);
  t.source = const_cast<char*>("other");
  EXPECT_EQ(PMIx_Load_topology(&t), PMIX_ERR_NOT_SUPPORTED);
  EXPECT_EQ(PMIx_Load_topology(nullptr), PMIX_ERR_BAD_PARAM);
}

TEST(HwlocApi, CpusetStringsRoundTrip) {
  pmix_cpuset_t c = Cpuset("0-3,8");
  char* text = nullptr;
  ASSERT_EQ(PMIx_server_generate_cpuset_string(&c, &text), PMIX_SUCCESS);
  EXPECT_STREQ(text, "hwloc:0-3,8");
  pmix_cpuset_t back;
  PMIx_Cpuset_construct(&back);
  ASSERT_EQ(PMIx_Parse_cpuset_string(text, &back), PMIX_SUCCESS);
  EXPECT_STREQ(back.source, "hwloc");
  EXPECT_TRUE(hwloc_bitmap_isequal(static_cast<hwloc_const_bitmap_t>(back.bitmap),
                                   static_cast<hwloc_const_bitmap_t>(c.bitmap)));
  free(text);
  PMIx_Cpuset_destruct(&back);
  PMIx_Cpuset_destruct(&c);
}

TEST(HwlocApi, CpusetStringErrors) {
  pmix_cpuset_t c;
  PMIx_Cpuset_construct(&c);
  EXPECT_EQ(PMIx_Parse_cpuset_string("hwloc:5-1", &c), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_Parse_cpuset_string("hwloc:99999999", &c), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_Parse_cpuset_string("foo:1", &c), PMIX_ERR_NOT_SUPPORTED);
  EXPECT_EQ(PMIx_Parse_cpuset_string(nullptr, &c), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(c.bitmap, nullptr);
  EXPECT_EQ(c.source, nullptr);
  char* text = reinterpret_cast<char*>(1);
  EXPECT_EQ(PMIx_server_generate_cpuset_string(&c, &text), PMIX_ERR_BAD_PARAM);  // no bitmap
  EXPECT_EQ(text, nullptr);
}

TEST(HwlocApi, LocalityStringsAndRelativeLocality) {
  pmix_cpuset_t five = Cpuset("5");
  pmix_cpuset_t other = Cpuset("8-9");
  char* a = nullptr;
  char* b = nullptr;
  ASSERT_EQ(PMIx_server_generate_locality_string(&five, &a), PMIX_SUCCESS);
  ASSERT_EQ(PMIx_server_generate_locality_string(&other, &b), PMIX_SUCCESS);
  EXPECT_STREQ(a, "SK0:L31:L22:L12:CR2:HT5:NM1");
  EXPECT_STREQ(b, "SK1:L32:L24:L14:CR4:HT8-9:NM2");
  pmix_locality_t loc = 0;
  ASSERT_EQ(PMIx_Get_relative_locality(a, b, &loc), PMIX_SUCCESS);
  EXPECT_EQ(loc, PMIX_LOCALITY_SHARE_NODE);
  ASSERT_EQ(PMIx_Get_relative_locality(a, "SK0:L31:L22-3:L12-3:CR2-3:HT4-7:NM1", &loc), PMIX_SUCCESS);
  EXPECT_TRUE(loc & PMIX_LOCALITY_SHARE_HWTHREAD);
  EXPECT_EQ(PMIx_Get_relative_locality(nullptr, b, &loc), PMIX_ERR_BAD_PARAM);
  free(a);
  free(b);
  PMIx_Cpuset_destruct(&five);
  PMIx_Cpuset_destruct(&other);
}

TEST(HwlocApi, GetCpusetReportsTheBinding) {
  cpu_set_t mine;
  ASSERT_EQ(sched_getaffinity(0, sizeof mine, &mine), 0);
  int cpu = 0;
  while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &mine)) ++cpu;
  ASSERT_LT(cpu, CPU_SETSIZE);
  // In a thread of its own, bound to one CPU: THREAD sees just that CPU.
  struct Arg {
    int cpu;
    int rc;
    int first;
    int weight;
  } arg{cpu, -1, -1, -1};
  pthread_t th;
  ASSERT_EQ(pthread_create(&th, nullptr, [](void* p) -> void* {
    auto* a = static_cast<Arg*>(p);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(a->cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) return nullptr;
    pmix_cpuset_t c;
    PMIx_Cpuset_construct(&c);
    a->rc = PMIx_Get_cpuset(&c, PMIX_CPUBIND_THREAD);
    if (a->rc == PMIX_SUCCESS) {
      a->first = hwloc_bitmap_first(static_cast<hwloc_const_bitmap_t>(c.bitmap));
      a->weight = hwloc_bitmap_weight(static_cast<hwloc_const_bitmap_t>(c.bitmap));
    }
    PMIx_Cpuset_destruct(&c);
    return nullptr;
  }, &arg), 0);
  pthread_join(th, nullptr);
  EXPECT_EQ(arg.rc, PMIX_SUCCESS);
  EXPECT_EQ(arg.first, cpu);
  EXPECT_EQ(arg.weight, 1);
  pmix_cpuset_t c;
  PMIx_Cpuset_construct(&c);
  ASSERT_EQ(PMIx_Get_cpuset(&c, PMIX_CPUBIND_PROCESS), PMIX_SUCCESS);
  EXPECT_STREQ(c.source, "hwloc");
  EXPECT_EQ(hwloc_bitmap_weight(static_cast<hwloc_const_bitmap_t>(c.bitmap)), CPU_COUNT(&mine));
  PMIx_Cpuset_destruct(&c);
  EXPECT_EQ(PMIx_Get_cpuset(&c, static_cast<pmix_bind_envelope_t>(7)), PMIX_ERR_BAD_PARAM);
}

TEST(HwlocApi, ComputeDistancesFromTheFakeNode) {
  pmix_topology_t topo;
  PMIx_Topology_construct(&topo);
  ASSERT_EQ(PMIx_Load_topology(&topo), PMIX_SUCCESS);
  pmix_cpuset_t c = Cpuset("5");
  pmix_info_t filter;
  pmix_device_type_t type = PMIX_DEVTYPE_OPENFABRICS;
  PMIx_Info_load(&filter, PMIX_DEVICE_TYPE, &type, PMIX_DEVTYPE);
  pmix_device_distance_t* d = nullptr;
  size_t n = 0;
  ASSERT_EQ(PMIx_Compute_distances(&topo, &c, &filter, 1, &d, &n), PMIX_SUCCESS);
  ASSERT_EQ(n, 1u);
  EXPECT_STREQ(d[0].osname, "mlx5_0");
  EXPECT_EQ(d[0].mindist, 6);
  PMIx_Device_distance_free(d, n);
  // Non-blocking: same answer through the callback.
  struct Got {
    pmix_status_t status = PMIX_ERROR;
    size_t n = 0;
    bool done = false;
  } got;
  ASSERT_EQ(PMIx_Compute_distances_nb(nullptr, &c, nullptr, 0,
                                      [](pmix_status_t s, pmix_device_distance_t*, size_t nd,
                                         void* cbdata, pmix_release_cbfunc_t rel, void* reldata) {
                                        auto* g = static_cast<Got*>(cbdata);
                                        g->status = s;
                                        g->n = nd;
                                        g->done = true;
                                        if (rel != nullptr) rel(reldata);
                                      },
                                      &got),
            PMIX_SUCCESS);
  EXPECT_TRUE(got.done);  // no progress engine here: delivered before the return
  EXPECT_EQ(got.status, PMIX_SUCCESS);
  EXPECT_EQ(got.n, 3u);
  PMIx_Cpuset_destruct(&c);
  PMIx_Topology_destruct(&topo);
}

}  // namespace
