// PMIx_Data_print, PMIx_Value_string and PMIx_Info_string: every type
// prints; common types print as OpenPMIx 4.2.2 does.
#include <gtest/gtest.h>
#include <hwloc.h>

#include <cstdlib>
#include <string>

#include "pmix.h"
#include "test/unit/bfrops/random_values.h"
#include "test/unit/common/type_samples.h"

namespace pmix::test {
namespace {

std::string Print(const char* prefix, void* src, pmix_data_type_t type) {
  char* out = nullptr;
  EXPECT_EQ(PMIX_SUCCESS, PMIx_Data_print(&out, const_cast<char*>(prefix), src, type));
  std::string s = out == nullptr ? "(null)" : out;
  std::free(out);
  return s;
}

TEST(DataPrint, EveryTypeAndVariantPrints) {
  for (pmix_data_type_t type : ElementTypes()) {
    for (Variant v : {Variant::kTypical, Variant::kEdge, Variant::kNulls}) {
      Sample s(type, v);
      void* arg = type == PMIX_STRING || type == PMIX_REGEX ? *static_cast<char**>(s.get()) : s.get();
      if (arg == nullptr) continue;
      char* out = nullptr;
      ASSERT_EQ(PMIX_SUCCESS, PMIx_Data_print(&out, const_cast<char*>("P"), arg, type))
          << TypeName(type);
      ASSERT_NE(nullptr, out);
      EXPECT_EQ('P', out[0]) << TypeName(type);
      std::free(out);
    }
  }
}

TEST(DataPrint, RandomNestedValuesPrint) {
  Rng rng(5);
  for (int i = 0; i < 200; ++i) {
    void* info = MakeRandomArray(rng, PMIX_INFO, 1, 3);
    char* s = PMIx_Info_string(static_cast<pmix_info_t*>(info));
    ASSERT_NE(nullptr, s);
    std::free(s);
    s = PMIx_Value_string(&static_cast<pmix_info_t*>(info)->value);
    ASSERT_NE(nullptr, s);
    std::free(s);
    FreeRandom(PMIX_INFO, info, 1);
  }
}

TEST(DataPrint, MatchesReferenceFormats) {
  int x = 5;
  EXPECT_EQ("PFXData type: PMIX_INT\tValue: 5", Print("PFX", &x, PMIX_INT));
  EXPECT_EQ("PFXData type: PMIX_STRING\tValue: hello",
            Print("PFX", const_cast<char*>("hello"), PMIX_STRING));
  bool b = true;
  EXPECT_EQ("PFXData type: PMIX_BOOL\tValue: TRUE", Print("PFX", &b, PMIX_BOOL));
  double d = 1.5;
  EXPECT_EQ("PFXData type: PMIX_DOUBLE\tValue: 1.500000", Print("PFX", &d, PMIX_DOUBLE));
  uint8_t byte = 200;
  EXPECT_EQ("PFXData type: PMIX_BYTE\tValue: c8", Print("PFX", &byte, PMIX_BYTE));
  pmix_status_t st = PMIX_ERR_UNREACH;
  EXPECT_EQ("PFXData type: PMIX_STATUS\tValue: UNREACHABLE", Print("PFX", &st, PMIX_STATUS));
  pmix_proc_t proc;
  PMIX_PROC_LOAD(&proc, "myns", 3);
  EXPECT_EQ("PFXPROC: myns:3", Print("PFX", &proc, PMIX_PROC));
  pmix_rank_t rank = PMIX_RANK_WILDCARD;
  EXPECT_EQ("PFXData type: PMIX_PROC_RANK\tValue: PMIX_RANK_WILDCARD",
            Print("PFX", &rank, PMIX_PROC_RANK));
  struct timeval tv = {10, 20};
  EXPECT_EQ("PFXData type: PMIX_TIMEVAL\tValue: 10.000020", Print("PFX", &tv, PMIX_TIMEVAL));
  int arr[2] = {4, 5};
  pmix_data_array_t da = {PMIX_INT, 2, arr};
  EXPECT_EQ(
      "PFXData type: PMIX_DATA_ARRAY\tType: PMIX_INT\tSize: 2\n"
      "PFXPFXData type: PMIX_INT\tValue: 4\nPFXPFXData type: PMIX_INT\tValue: 5",
      Print("PFX", &da, PMIX_DATA_ARRAY));
  pmix_info_t info;
  PMIX_INFO_LOAD(&info, "pmix.key", &x, PMIX_INT);
  char* s = PMIx_Info_string(&info);
  EXPECT_STREQ(
      " KEY: pmix.key\n \t Data type: PMIX_INFO_DIRECTIVES\tValue: OPTIONAL\n"
      " \t PMIX_VALUE:  Data type: PMIX_INT\tValue: 5",
      s);
  std::free(s);
  s = PMIx_Value_string(&info.value);
  EXPECT_STREQ(" PMIX_VALUE:  Data type: PMIX_INT\tValue: 5", s);
  std::free(s);
  PMIx_Info_destruct(&info);
}

// Cpusets and topologies print as OpenPMIx 4.2.2 prints them (the
// crosscheck suite compares this machine's topology with the reference).
TEST(DataPrint, HwlocTypesFollowTheReference) {
  pmix_cpuset_t cpuset = {const_cast<char*>("hwloc"), hwloc_bitmap_alloc()};
  hwloc_bitmap_set_range(static_cast<hwloc_bitmap_t>(cpuset.bitmap), 0, 3);
  hwloc_bitmap_set(static_cast<hwloc_bitmap_t>(cpuset.bitmap), 8);
  EXPECT_EQ("PFXData type: PMIX_CPUSET\tValue: 0-3,8", Print("PFX", &cpuset, PMIX_PROC_CPUSET));
  hwloc_bitmap_free(static_cast<hwloc_bitmap_t>(cpuset.bitmap));
  cpuset.bitmap = nullptr;
  EXPECT_EQ("PFXData type: PMIX_CPUSET\tValue: NULL", Print("PFX", &cpuset, PMIX_PROC_CPUSET));

  hwloc_topology_t topo = LoadXmlTopology(kTwoCoreNodeXml);
  ASSERT_NE(nullptr, topo);
  pmix_topology_t t = {const_cast<char*>("hwloc"), topo};
  std::string text = Print("PFX", &t, PMIX_TOPO);
  EXPECT_EQ(0u, text.find("PFXData type: PMIX_TOPO\tValue: Type: Machine Number of child "
                          "objects: 1\n\tName=NULL\n"))
      << text;
  EXPECT_NE(std::string::npos, text.find("\tCpuset:  0x00000003\n\tBind CPU proc:   ")) << text;
  EXPECT_NE(std::string::npos, text.find("\n\tType: Package Number of child objects: 2\n"))
      << text;
  EXPECT_NE(std::string::npos,
            text.find("\n\t\t\tType: PU Number of child objects: 0\n\t\t\t\tName=NULL"))
      << text;
  EXPECT_EQ('\n', text.back());
  hwloc_topology_destroy(topo);
  t.topology = nullptr;
  EXPECT_EQ("PFXData type: PMIX_TOPO\tValue: NULL", Print("PFX", &t, PMIX_TOPO));
}

// Inside values OpenPMIx 4.2.2 words masks and refuses a few types; the
// crosscheck suite compares all of them, these pin the rules.
TEST(DataPrint, ValueStringsFollowTheReference) {
  struct Case {
    pmix_data_type_t type;
    uint64_t bits;
    const char* expected;
  };
  const Case cases[] = {
      {PMIX_LOCTYPE, PMIX_LOCALITY_SHARE_L3CACHE | PMIX_LOCALITY_SHARE_NUMA,
       " PMIX_VALUE:  Data type: PMIX_LOCALITY\tValue: L3:NUMA"},
      {PMIX_STOR_MEDIUM, PMIX_STORAGE_MEDIUM_SSD, " PMIX_VALUE:  Data type: PMIX_STOR_MEDIUM\tValue: SSD"},
      {PMIX_STOR_ACCESS_TYPE, PMIX_STORAGE_ACCESS_RDWR,
       " PMIX_VALUE:  Data type: PMIX_STOR_ACCESS_TYPE\tValue: READ:WRITE"},
      {PMIX_PERSIST, PMIX_PERSIST_SESSION, " PMIX_VALUE:  Data type: PMIX_PERSIST\tValue: 4"},
      {PMIX_POINTER, 0, " PMIX_VALUE:  Data type: PMIX_POINTER(31)\tValue: UNPRINTABLE"},
  };
  for (const Case& c : cases) {
    pmix_value_t v;
    PMIx_Value_construct(&v);
    v.type = c.type;
    if (c.type == PMIX_LOCTYPE) {
      v.data.locality = static_cast<pmix_locality_t>(c.bits);
    } else if (c.type == PMIX_STOR_ACCESS_TYPE) {
      v.data.uint16 = static_cast<uint16_t>(c.bits);
    } else if (c.type == PMIX_PERSIST) {
      v.data.persist = static_cast<pmix_persistence_t>(c.bits);
    } else {
      v.data.uint64 = c.bits;
    }
    char* s = PMIx_Value_string(&v);
    EXPECT_STREQ(c.expected, s);
    std::free(s);
  }
}

TEST(DataPrint, RejectsBadArguments) {
  int x = 1;
  char* out = nullptr;
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, PMIx_Data_print(nullptr, nullptr, &x, PMIX_INT));
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, PMIx_Data_print(&out, nullptr, nullptr, PMIX_INT));
  EXPECT_EQ(PMIX_ERR_UNKNOWN_DATA_TYPE, PMIx_Data_print(&out, nullptr, &x, 200));
  EXPECT_EQ(nullptr, out);
  EXPECT_EQ(nullptr, PMIx_Value_string(nullptr));
  EXPECT_EQ(nullptr, PMIx_Info_string(nullptr));
  void* p = &x;
  EXPECT_EQ(0u, Print("", &p, PMIX_POINTER).find("Data type: PMIX_POINTER\tAddress: 0x"));
}

}  // namespace
}  // namespace pmix::test
