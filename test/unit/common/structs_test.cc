// The construct/destruct/create/free support functions of every struct,
// the special loaders (byte object, envar, proc, regattr, data buffer,
// data array), and the key/nspace/procid helpers.
#include <gtest/gtest.h>
#include <hwloc.h>

#include <cstdlib>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "pmix.h"
#include "src/common/data_types.h"
#include "test/unit/common/type_samples.h"

namespace pmix {
namespace {

using test::Variant;

// One struct family's support functions, type-erased for a table.
struct Family {
  const char* name;
  pmix_data_type_t type;
  size_t size;
  void (*construct)(void*);
  void (*destruct)(void*);
  void* (*create)(size_t);
  void (*free)(void*, size_t);
};

// gtest would otherwise print the raw bytes (padding included).
void PrintTo(const Family& f, std::ostream* os) { *os << f.name; }

template <class T, void (*kConstruct)(T*), void (*kDestruct)(T*),
          T* (*kCreate)(size_t), void (*kFree)(T*, size_t)>
Family MakeFamily(const char* name, pmix_data_type_t type) {
  return {name,
          type,
          sizeof(T),
          [](void* p) { kConstruct(static_cast<T*>(p)); },
          [](void* p) { kDestruct(static_cast<T*>(p)); },
          [](size_t n) -> void* { return kCreate(n); },
          [](void* p, size_t n) { kFree(static_cast<T*>(p), n); }};
}

pmix_coord_t* CreateCoords(size_t n) { return PMIx_Coord_create(0, n); }

const std::vector<Family>& Families() {
  static const std::vector<Family> families = {
      MakeFamily<pmix_value_t, PMIx_Value_construct, PMIx_Value_destruct,
                 PMIx_Value_create, PMIx_Value_free>("Value", PMIX_VALUE),
      MakeFamily<pmix_info_t, PMIx_Info_construct, PMIx_Info_destruct,
                 PMIx_Info_create, PMIx_Info_free>("Info", PMIX_INFO),
      MakeFamily<pmix_coord_t, PMIx_Coord_construct, PMIx_Coord_destruct,
                 CreateCoords, PMIx_Coord_free>("Coord", PMIX_COORD),
      MakeFamily<pmix_topology_t, PMIx_Topology_construct,
                 PMIx_Topology_destruct, PMIx_Topology_create,
                 PMIx_Topology_free>("Topology", PMIX_TOPO),
      MakeFamily<pmix_cpuset_t, PMIx_Cpuset_construct, PMIx_Cpuset_destruct,
                 PMIx_Cpuset_create, PMIx_Cpuset_free>("Cpuset",
                                                       PMIX_PROC_CPUSET),
      MakeFamily<pmix_geometry_t, PMIx_Geometry_construct,
                 PMIx_Geometry_destruct, PMIx_Geometry_create,
                 PMIx_Geometry_free>("Geometry", PMIX_GEOMETRY),
      MakeFamily<pmix_device_distance_t, PMIx_Device_distance_construct,
                 PMIx_Device_distance_destruct, PMIx_Device_distance_create,
                 PMIx_Device_distance_free>("DeviceDistance", PMIX_DEVICE_DIST),
      MakeFamily<pmix_byte_object_t, PMIx_Byte_object_construct,
                 PMIx_Byte_object_destruct, PMIx_Byte_object_create,
                 PMIx_Byte_object_free>("ByteObject", PMIX_BYTE_OBJECT),
      MakeFamily<pmix_endpoint_t, PMIx_Endpoint_construct,
                 PMIx_Endpoint_destruct, PMIx_Endpoint_create,
                 PMIx_Endpoint_free>("Endpoint", PMIX_ENDPOINT),
      MakeFamily<pmix_envar_t, PMIx_Envar_construct, PMIx_Envar_destruct,
                 PMIx_Envar_create, PMIx_Envar_free>("Envar", PMIX_ENVAR),
      MakeFamily<pmix_proc_t, PMIx_Proc_construct, PMIx_Proc_destruct,
                 PMIx_Proc_create, PMIx_Proc_free>("Proc", PMIX_PROC),
      MakeFamily<pmix_proc_info_t, PMIx_Proc_info_construct,
                 PMIx_Proc_info_destruct, PMIx_Proc_info_create,
                 PMIx_Proc_info_free>("ProcInfo", PMIX_PROC_INFO),
      MakeFamily<pmix_proc_stats_t, PMIx_Proc_stats_construct,
                 PMIx_Proc_stats_destruct, PMIx_Proc_stats_create,
                 PMIx_Proc_stats_free>("ProcStats", PMIX_PROC_STATS),
      MakeFamily<pmix_disk_stats_t, PMIx_Disk_stats_construct,
                 PMIx_Disk_stats_destruct, PMIx_Disk_stats_create,
                 PMIx_Disk_stats_free>("DiskStats", PMIX_DISK_STATS),
      MakeFamily<pmix_net_stats_t, PMIx_Net_stats_construct,
                 PMIx_Net_stats_destruct, PMIx_Net_stats_create,
                 PMIx_Net_stats_free>("NetStats", PMIX_NET_STATS),
      MakeFamily<pmix_node_stats_t, PMIx_Node_stats_construct,
                 PMIx_Node_stats_destruct, PMIx_Node_stats_create,
                 PMIx_Node_stats_free>("NodeStats", PMIX_NODE_STATS),
      MakeFamily<pmix_pdata_t, PMIx_Pdata_construct, PMIx_Pdata_destruct,
                 PMIx_Pdata_create, PMIx_Pdata_free>("Pdata", PMIX_PDATA),
      MakeFamily<pmix_app_t, PMIx_App_construct, PMIx_App_destruct,
                 PMIx_App_create, PMIx_App_free>("App", PMIX_APP),
      MakeFamily<pmix_query_t, PMIx_Query_construct, PMIx_Query_destruct,
                 PMIx_Query_create, PMIx_Query_free>("Query", PMIX_QUERY),
      MakeFamily<pmix_regattr_t, PMIx_Regattr_construct, PMIx_Regattr_destruct,
                 PMIx_Regattr_create, PMIx_Regattr_free>("Regattr",
                                                         PMIX_REGATTR),
  };
  return families;
}

class StructFamily : public ::testing::TestWithParam<Family> {
 protected:
  std::vector<char> Constructed() const {
    std::vector<char> e(GetParam().size, 0x5a);
    GetParam().construct(e.data());
    return e;
  }
};

TEST_P(StructFamily, CreateConstructsEveryElement) {
  const Family& f = GetParam();
  EXPECT_EQ(f.create(0), nullptr);
  char* array = static_cast<char*>(f.create(3));
  ASSERT_NE(array, nullptr);
  std::vector<char> constructed = Constructed();
  for (size_t i = 0; i < 3; ++i) {
    void* e = array + i * f.size;
    if (f.type == PMIX_INFO && i == 2) {  // flagged as the end of the array
      EXPECT_TRUE(PMIx_Info_is_end(static_cast<pmix_info_t*>(e)));
      continue;
    }
    EXPECT_EQ(std::memcmp(e, constructed.data(), f.size), 0) << i;
  }
  f.free(array, 3);
}

TEST_P(StructFamily, FreeReleasesEverythingTheElementsOwn) {
  const Family& f = GetParam();
  char* array = static_cast<char*>(f.create(3));
  ASSERT_NE(array, nullptr);
  test::FillSample(f.type, Variant::kTypical, array);
  test::FillSample(f.type, Variant::kEdge, array + f.size);
  test::FillSample(f.type, Variant::kNulls, array + 2 * f.size);
  f.free(array, 3);  // valgrind: nothing leaks
  f.free(nullptr, 3);
}

TEST_P(StructFamily, DestructReconstructsAndIsNullSafe) {
  const Family& f = GetParam();
  std::vector<char> e(f.size);
  test::FillSample(f.type, Variant::kTypical, e.data());
  f.destruct(e.data());
  std::vector<char> constructed = Constructed();
  EXPECT_EQ(std::memcmp(e.data(), constructed.data(), f.size), 0);
  f.destruct(e.data());  // twice is fine
  f.construct(nullptr);
  f.destruct(nullptr);
}

INSTANTIATE_TEST_SUITE_P(AllStructs, StructFamily,
                         ::testing::ValuesIn(Families()), [](const auto& info) {
                           return std::string(info.param.name);
                         });

// --- defaults and special creators ---

TEST(StructDefaults, FollowTheStaticInitializers) {
  pmix_proc_t p;
  PMIx_Proc_construct(&p);
  EXPECT_EQ(p.rank, PMIX_RANK_UNDEF);
  pmix_proc_info_t pi;
  PMIx_Proc_info_construct(&pi);
  EXPECT_EQ(pi.proc.rank, PMIX_RANK_UNDEF);
  pmix_pdata_t pd;
  PMIx_Pdata_construct(&pd);
  EXPECT_EQ(pd.proc.rank, PMIX_RANK_UNDEF);
  EXPECT_EQ(pd.value.type, PMIX_UNDEF);
  pmix_device_distance_t d;
  PMIx_Device_distance_construct(&d);
  EXPECT_EQ(d.mindist, UINT16_MAX);
  EXPECT_EQ(d.maxdist, UINT16_MAX);
  pmix_fabric_t fabric;
  std::memset(&fabric, 0x5a, sizeof fabric);
  PMIx_Fabric_construct(&fabric);
  EXPECT_EQ(fabric.name, nullptr);
  EXPECT_EQ(fabric.module, nullptr);
  PMIx_Fabric_construct(nullptr);
}

TEST(Coord, CreateGivesEachCoordinateZeroedDims) {
  EXPECT_EQ(PMIx_Coord_create(3, 0), nullptr);
  pmix_coord_t* coords = PMIx_Coord_create(3, 2);
  ASSERT_NE(coords, nullptr);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(coords[i].view, PMIX_COORD_VIEW_UNDEF);
    ASSERT_EQ(coords[i].dims, 3u);
    ASSERT_NE(coords[i].coord, nullptr);
    EXPECT_EQ(coords[i].coord[2], 0u);
  }
  PMIx_Coord_free(coords, 2);
  pmix_coord_t* bare = PMIx_Coord_create(0, 1);
  ASSERT_NE(bare, nullptr);
  EXPECT_EQ(bare[0].coord, nullptr);
  PMIx_Coord_free(bare, 1);
}

TEST(AppAndQuery, InfoCreatorsAndRelease) {
  pmix_app_t* app = PMIx_App_create(1);
  ASSERT_NE(app, nullptr);
  PMIx_App_info_create(app, 2);
  ASSERT_NE(app->info, nullptr);
  EXPECT_EQ(app->ninfo, 2u);
  EXPECT_TRUE(PMIx_Info_is_end(&app->info[1]));
  app->cmd = strdup("cmd");
  ASSERT_EQ(PMIx_Argv_append_nosize(&app->argv, "arg"), PMIX_SUCCESS);
  PMIx_App_release(app);
  PMIx_App_release(nullptr);

  pmix_query_t* q = PMIx_Query_create(1);
  ASSERT_NE(q, nullptr);
  PMIx_Query_qualifiers_create(q, 1);
  EXPECT_EQ(q->nqual, 1u);
  ASSERT_EQ(PMIx_Argv_append_nosize(&q->keys, "pmix.qry.a"), PMIX_SUCCESS);
  PMIx_Query_release(q);
  PMIx_Query_release(nullptr);
}

// --- loaders ---

TEST(Loaders, ByteObjectTakesOwnershipWithoutCopying) {
  pmix_byte_object_t bo;
  PMIx_Byte_object_construct(&bo);
  char* bytes = static_cast<char*>(std::malloc(3));
  std::memcpy(bytes, "abc", 3);
  PMIx_Byte_object_load(&bo, bytes, 3);
  EXPECT_EQ(bo.bytes, bytes);
  EXPECT_EQ(bo.size, 3u);
  PMIx_Byte_object_destruct(&bo);
  EXPECT_EQ(bo.bytes, nullptr);
  EXPECT_EQ(bo.size, 0u);
  PMIx_Byte_object_load(nullptr, nullptr, 0);
}

TEST(Loaders, EnvarCopiesItsStrings) {
  char var[] = "PATH";
  char value[] = "/bin";
  pmix_envar_t e;
  PMIx_Envar_construct(&e);
  PMIx_Envar_load(&e, var, value, ':');
  EXPECT_NE(e.envar, var);
  EXPECT_STREQ(e.envar, "PATH");
  EXPECT_STREQ(e.value, "/bin");
  EXPECT_EQ(e.separator, ':');
  PMIx_Envar_destruct(&e);
  PMIx_Envar_load(&e, nullptr, nullptr, ';');
  EXPECT_EQ(e.envar, nullptr);
  EXPECT_EQ(e.separator, ';');
  PMIx_Envar_destruct(&e);
}

TEST(Loaders, ProcLoadTruncatesTheNamespace) {
  std::string long_ns(300, 'n');
  pmix_proc_t p;
  PMIx_Proc_load(&p, long_ns.data(), 9);
  EXPECT_EQ(std::strlen(p.nspace), static_cast<size_t>(PMIX_MAX_NSLEN));
  EXPECT_EQ(p.rank, 9u);
  PMIx_Proc_load(nullptr, nullptr, 0);
}

TEST(Loaders, RegattrLoadAndXfer) {
  pmix_regattr_t r;
  PMIx_Regattr_construct(&r);
  PMIx_Regattr_load(&r, "PMIX_X", "pmix.x", PMIX_BOOL, "first line");
  PMIx_Regattr_load(&r, nullptr, nullptr, PMIX_BOOL, "second line");
  EXPECT_STREQ(r.name, "PMIX_X");
  EXPECT_STREQ(r.string, "pmix.x");
  EXPECT_EQ(r.type, PMIX_BOOL);
  ASSERT_EQ(PMIx_Argv_count(r.description), 2);
  pmix_regattr_t copy;
  std::memset(&copy, 0x5a, sizeof copy);
  PMIx_Regattr_xfer(&copy, &r);
  EXPECT_NE(copy.name, r.name);
  EXPECT_STREQ(copy.description[1], "second line");
  PMIx_Regattr_destruct(&copy);
  PMIx_Regattr_destruct(&r);
  PMIx_Regattr_xfer(nullptr, &r);
  PMIx_Regattr_load(nullptr, "a", "b", PMIX_INT, "c");
}

// --- data buffer ---

char* Payload(const char* text) {
  size_t n = std::strlen(text);
  char* p = static_cast<char*>(std::malloc(n));
  std::memcpy(p, text, n);
  return p;
}

TEST(DataBuffer, LoadGivesOwnershipAndUnloadHandsAllBackWithoutCopy) {
  pmix_data_buffer_t* b = PMIx_Data_buffer_create();
  ASSERT_NE(b, nullptr);
  char* bytes = Payload("payload!");
  PMIx_Data_buffer_load(b, bytes, 8);
  EXPECT_EQ(b->base_ptr, bytes);
  EXPECT_EQ(b->bytes_used, 8u);
  EXPECT_EQ(b->unpack_ptr, bytes);
  char* out = nullptr;
  size_t size = 0;
  PMIx_Data_buffer_unload(b, &out, &size);
  EXPECT_EQ(out, bytes);
  EXPECT_EQ(size, 8u);
  EXPECT_EQ(b->base_ptr, nullptr);  // the buffer no longer owns it
  EXPECT_EQ(b->bytes_used, 0u);
  std::free(out);
  PMIx_Data_buffer_release(b);
  PMIx_Data_buffer_release(nullptr);
}

TEST(DataBuffer, UnloadReturnsOnlyTheUnreadPart) {
  pmix_data_buffer_t b;
  PMIx_Data_buffer_construct(&b);
  PMIx_Data_buffer_load(&b, Payload("0123456789"), 10);
  b.unpack_ptr += 4;  // as if four bytes were unpacked
  char* out = nullptr;
  size_t size = 0;
  PMIx_Data_buffer_unload(&b, &out, &size);
  ASSERT_EQ(size, 6u);
  EXPECT_EQ(std::memcmp(out, "456789", 6), 0);
  EXPECT_EQ(b.base_ptr, nullptr);
  std::free(out);

  PMIx_Data_buffer_load(&b, Payload("xy"), 2);
  b.unpack_ptr += 2;  // everything read
  PMIx_Data_buffer_unload(&b, &out, &size);
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(b.base_ptr, nullptr);

  PMIx_Data_buffer_unload(&b, &out, &size);  // empty buffer
  EXPECT_EQ(out, nullptr);
  PMIx_Data_buffer_unload(nullptr, &out, &size);
}

TEST(DataBuffer, LoadReplacesTheOldPayload) {
  pmix_data_buffer_t b;
  PMIx_Data_buffer_construct(&b);
  PMIx_Data_buffer_load(&b, Payload("old"), 3);
  PMIx_Data_buffer_load(&b, Payload("newer"), 5);  // valgrind: old is freed
  EXPECT_EQ(b.bytes_used, 5u);
  PMIx_Data_buffer_load(&b, nullptr, 0);
  EXPECT_EQ(b.base_ptr, nullptr);
  PMIx_Data_buffer_destruct(&b);
}

// --- data arrays of every type ---

class DataArrayOfType : public ::testing::TestWithParam<pmix_data_type_t> {};

TEST_P(DataArrayOfType, ConstructAllocatesConstructedElements) {
  pmix_data_type_t type = GetParam();
  pmix_data_array_t d;
  PMIx_Data_array_construct(&d, 2, type);
  EXPECT_EQ(d.type, type);
  ASSERT_EQ(d.size, 2u);
  ASSERT_NE(d.array, nullptr);
  // Fill one element with owned data: destruct must release it.
  size_t size = ElementSize(type);
  DestructElement(*FindDataType(type), static_cast<char*>(d.array) + size);
  test::FillSample(type, Variant::kTypical, static_cast<char*>(d.array) + size);
  PMIx_Data_array_destruct(&d);
  EXPECT_EQ(d.type, PMIX_UNDEF);
  EXPECT_EQ(d.size, 0u);
  EXPECT_EQ(d.array, nullptr);

  pmix_data_array_t* created = PMIx_Data_array_create(3, type);
  ASSERT_NE(created, nullptr);
  EXPECT_EQ(created->size, 3u);
  PMIx_Data_array_free(created);
}

INSTANTIATE_TEST_SUITE_P(AllTypes, DataArrayOfType,
                         ::testing::ValuesIn(test::ElementTypes()),
                         [](const auto& info) {
                           return test::TypeName(info.param);
                         });

TEST(DataArray, InitAndUnknownOrEmptyConstructions) {
  pmix_data_array_t d;
  std::memset(&d, 0x5a, sizeof d);
  PMIx_Data_array_init(&d, PMIX_STRING);
  EXPECT_EQ(d.type, PMIX_STRING);
  EXPECT_EQ(d.size, 0u);
  EXPECT_EQ(d.array, nullptr);
  PMIx_Data_array_construct(&d, 4, 300);
  EXPECT_EQ(d.size, 0u);
  EXPECT_EQ(d.array, nullptr);
  PMIx_Data_array_construct(&d, 0, PMIX_INT);
  EXPECT_EQ(d.array, nullptr);
  PMIx_Data_array_destruct(&d);
  PMIx_Data_array_destruct(nullptr);
  PMIx_Data_array_free(nullptr);
  PMIx_Data_array_init(nullptr, PMIX_INT);
  PMIx_Data_array_construct(nullptr, 2, PMIX_INT);
}

TEST(DataArray, HeaderMacrosReachTheRegistry) {
  pmix_data_array_t* d = nullptr;
  PMIX_DATA_ARRAY_CREATE(d, 2, PMIX_INFO);
  ASSERT_NE(d, nullptr);
  auto* infos = static_cast<pmix_info_t*>(d->array);
  ASSERT_EQ(PMIx_Info_load(&infos[0], "k", "v", PMIX_STRING), PMIX_SUCCESS);
  PMIX_DATA_ARRAY_FREE(d);
  EXPECT_EQ(d, nullptr);
  pmix_info_t* more = nullptr;
  PMIX_INFO_CREATE(more, 2);
  ASSERT_NE(more, nullptr);
  PMIX_INFO_FREE(more, 2);
  EXPECT_EQ(more, nullptr);
}

}  // namespace
}  // namespace pmix
