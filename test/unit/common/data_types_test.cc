// The data-type registry: element layout of every type, deep copy /
// destruct / compare round trips for every element type and sample
// variant, arrays (including nested ones), and failure without leaks.
#include "src/common/data_types.h"

#include <gtest/gtest.h>
#include <hwloc.h>
#include <sys/time.h>

#include <cstdlib>
#include <cstring>
#include <tuple>
#include <vector>

#include "test/unit/common/type_samples.h"

namespace pmix {
namespace {

using test::Sample;
using test::Variant;

struct Layout {
  pmix_data_type_t type;
  size_t size;
  ValueStorage storage;
};

// The element size of every code OpenPMIx 4.2.2 uses in data arrays, and
// where a pmix_value_t keeps it.
const Layout kLayouts[] = {
    {PMIX_UNDEF, 0, ValueStorage::kEmpty},
    {PMIX_BOOL, sizeof(bool), ValueStorage::kInline},
    {PMIX_BYTE, 1, ValueStorage::kInline},
    {PMIX_STRING, sizeof(char*), ValueStorage::kInline},
    {PMIX_SIZE, sizeof(size_t), ValueStorage::kInline},
    {PMIX_PID, sizeof(pid_t), ValueStorage::kInline},
    {PMIX_INT, sizeof(int), ValueStorage::kInline},
    {PMIX_INT8, 1, ValueStorage::kInline},
    {PMIX_INT16, 2, ValueStorage::kInline},
    {PMIX_INT32, 4, ValueStorage::kInline},
    {PMIX_INT64, 8, ValueStorage::kInline},
    {PMIX_UINT, sizeof(unsigned), ValueStorage::kInline},
    {PMIX_UINT8, 1, ValueStorage::kInline},
    {PMIX_UINT16, 2, ValueStorage::kInline},
    {PMIX_UINT32, 4, ValueStorage::kInline},
    {PMIX_UINT64, 8, ValueStorage::kInline},
    {PMIX_FLOAT, sizeof(float), ValueStorage::kInline},
    {PMIX_DOUBLE, sizeof(double), ValueStorage::kInline},
    {PMIX_TIMEVAL, sizeof(struct timeval), ValueStorage::kInline},
    {PMIX_TIME, sizeof(time_t), ValueStorage::kInline},
    {PMIX_STATUS, sizeof(pmix_status_t), ValueStorage::kInline},
    {PMIX_VALUE, sizeof(pmix_value_t), ValueStorage::kNotStorable},
    {PMIX_PROC, sizeof(pmix_proc_t), ValueStorage::kBoxed},
    {PMIX_APP, sizeof(pmix_app_t), ValueStorage::kNotStorable},
    {PMIX_INFO, sizeof(pmix_info_t), ValueStorage::kNotStorable},
    {PMIX_PDATA, sizeof(pmix_pdata_t), ValueStorage::kNotStorable},
    {PMIX_BYTE_OBJECT, sizeof(pmix_byte_object_t), ValueStorage::kInline},
    {PMIX_KVAL, 0, ValueStorage::kNotStorable},
    {PMIX_PERSIST, 1, ValueStorage::kInline},
    {PMIX_POINTER, sizeof(void*), ValueStorage::kInline},
    {PMIX_SCOPE, 1, ValueStorage::kInline},
    {PMIX_DATA_RANGE, 1, ValueStorage::kInline},
    {PMIX_COMMAND, 1, ValueStorage::kInline},
    {PMIX_INFO_DIRECTIVES, 4, ValueStorage::kInline},
    {PMIX_DATA_TYPE, 2, ValueStorage::kInline},
    {PMIX_PROC_STATE, 1, ValueStorage::kInline},
    {PMIX_PROC_INFO, sizeof(pmix_proc_info_t), ValueStorage::kBoxed},
    {PMIX_DATA_ARRAY, sizeof(pmix_data_array_t), ValueStorage::kBoxed},
    {PMIX_PROC_RANK, 4, ValueStorage::kInline},
    {PMIX_QUERY, sizeof(pmix_query_t), ValueStorage::kNotStorable},
    {PMIX_COMPRESSED_STRING, sizeof(pmix_byte_object_t), ValueStorage::kInline},
    {PMIX_ALLOC_DIRECTIVE, 1, ValueStorage::kInline},
    {PMIX_IOF_CHANNEL, 2, ValueStorage::kInline},
    {PMIX_ENVAR, sizeof(pmix_envar_t), ValueStorage::kInline},
    {PMIX_COORD, sizeof(pmix_coord_t), ValueStorage::kBoxed},
    {PMIX_REGATTR, sizeof(pmix_regattr_t), ValueStorage::kBoxed},
    {PMIX_REGEX, sizeof(char*), ValueStorage::kInline},  // a char* element
    {PMIX_JOB_STATE, 1, ValueStorage::kInline},
    {PMIX_LINK_STATE, 1, ValueStorage::kInline},
    {PMIX_PROC_CPUSET, sizeof(pmix_cpuset_t), ValueStorage::kBoxed},
    {PMIX_GEOMETRY, sizeof(pmix_geometry_t), ValueStorage::kBoxed},
    {PMIX_DEVICE_DIST, sizeof(pmix_device_distance_t), ValueStorage::kBoxed},
    {PMIX_ENDPOINT, sizeof(pmix_endpoint_t), ValueStorage::kBoxed},
    {PMIX_TOPO, sizeof(pmix_topology_t), ValueStorage::kBoxed},
    {PMIX_DEVTYPE, 8, ValueStorage::kInline},
    {PMIX_LOCTYPE, 2, ValueStorage::kInline},
    {PMIX_COMPRESSED_BYTE_OBJECT, sizeof(pmix_byte_object_t),
     ValueStorage::kInline},
    {PMIX_PROC_NSPACE, sizeof(pmix_nspace_t), ValueStorage::kBoxed},
    {PMIX_PROC_STATS, sizeof(pmix_proc_stats_t), ValueStorage::kBoxed},
    {PMIX_DISK_STATS, sizeof(pmix_disk_stats_t), ValueStorage::kBoxed},
    {PMIX_NET_STATS, sizeof(pmix_net_stats_t), ValueStorage::kBoxed},
    {PMIX_NODE_STATS, sizeof(pmix_node_stats_t), ValueStorage::kBoxed},
    {PMIX_DATA_BUFFER, sizeof(pmix_data_buffer_t), ValueStorage::kBoxed},
    {PMIX_STOR_MEDIUM, 8, ValueStorage::kInline},
    {PMIX_STOR_ACCESS, 8, ValueStorage::kInline},
    {PMIX_STOR_PERSIST, 8, ValueStorage::kInline},
    {PMIX_STOR_ACCESS_TYPE, 2, ValueStorage::kInline},
};

TEST(DataTypeRegistry, KnowsEveryStandardCodeWithItsLayout) {
  EXPECT_EQ(std::size(kLayouts), 67u);
  for (const Layout& l : kLayouts) {
    SCOPED_TRACE(l.type);
    const DataTypeOps* ops = FindDataType(l.type);
    ASSERT_NE(ops, nullptr);
    EXPECT_EQ(ops->type, l.type);
    EXPECT_EQ(ops->element_size, l.size);
    EXPECT_EQ(ElementSize(l.type), l.size);
    EXPECT_EQ(ops->storage, l.storage);
  }
}

// OpenPMIx 4.2 packs and copies a regex as a char*, but a value holds it as
// a byte object (its text and NUL).
TEST(DataTypeRegistry, RegexIsTextAsAnElementAndBytesInAValue) {
  EXPECT_EQ(FindDataType(PMIX_REGEX)->element_size, sizeof(char*));
  const DataTypeOps* in_value = FindValueType(PMIX_REGEX);
  ASSERT_NE(in_value, nullptr);
  EXPECT_EQ(in_value->element_size, sizeof(pmix_byte_object_t));
  EXPECT_EQ(FindValueType(PMIX_STRING), FindDataType(PMIX_STRING));
}

TEST(DataTypeRegistry, ReturnsNullForUnknownCodes) {
  for (pmix_data_type_t t : {26, 29, 44, 70, 71, 300, 499, 500, 65535}) {
    EXPECT_EQ(FindDataType(t), nullptr) << t;
    EXPECT_EQ(ElementSize(t), 0u) << t;
  }
}

TEST(DataTypeRegistry, ElementTypesCoverAllButUndefAndKval) {
  EXPECT_EQ(test::ElementTypes().size(), 65u);
}

// --- every element type x every sample variant ---

class ElementRoundTrip
    : public ::testing::TestWithParam<std::tuple<pmix_data_type_t, Variant>> {
 protected:
  pmix_data_type_t type() const { return std::get<0>(GetParam()); }
  Variant variant() const { return std::get<1>(GetParam()); }
  const DataTypeOps& ops() const { return *FindDataType(type()); }
};

TEST_P(ElementRoundTrip, CopyIsDeepAndComparesEqual) {
  Sample original(type(), variant());
  std::vector<char> copy(ops().element_size, 0x5a);
  ASSERT_EQ(CopyElement(ops(), copy.data(), original.get()).code(),
            PMIX_SUCCESS);
  pmix_value_cmp_t expected = test::ComparesEqualToCopy(type(), variant())
                                  ? PMIX_EQUAL
                                  : PMIX_VALUE_COMPARISON_NOT_AVAIL;
  EXPECT_EQ(CompareElements(ops(), original.get(), copy.data()), expected);
  EXPECT_EQ(CompareElements(ops(), copy.data(), original.get()), expected);
  DestructElement(ops(), copy.data());  // valgrind: no leak, no double free
}

TEST_P(ElementRoundTrip, DestructLeavesAConstructedElement) {
  std::vector<char> element(ops().element_size);
  test::FillSample(type(), variant(), element.data());
  DestructElement(ops(), element.data());
  std::vector<char> constructed(ops().element_size, 0x5a);
  ConstructElement(ops(), constructed.data());
  EXPECT_EQ(std::memcmp(element.data(), constructed.data(), element.size()), 0);
  DestructElement(ops(), element.data());  // idempotent
}

TEST_P(ElementRoundTrip, ArrayOfThreeCopiesAndFrees) {
  size_t size = ops().element_size;
  std::vector<char> source(3 * size);
  for (int i = 0; i < 3; ++i) {
    test::FillSample(type(), variant(), source.data() + i * size);
  }
  void* copy = nullptr;
  ASSERT_EQ(CopyArray(type(), source.data(), 3, &copy).code(), PMIX_SUCCESS);
  ASSERT_NE(copy, nullptr);
  pmix_data_array_t a{type(), 3, source.data()};
  pmix_data_array_t b{type(), 3, copy};
  if (test::ComparesEqualToCopy(type(), variant())) {
    EXPECT_EQ(CompareElements(*FindDataType(PMIX_DATA_ARRAY), &a, &b),
              PMIX_EQUAL);
  }
  FreeArray(type(), copy, 3);
  for (int i = 0; i < 3; ++i) DestructElement(ops(), source.data() + i * size);
}

TEST_P(ElementRoundTrip, DataArrayOfTheTypeNestsThreeLevels) {
  // level 3: the samples; level 2: two arrays of them; level 1: one array
  // holding the level-2 arrays.
  size_t size = ops().element_size;
  std::vector<char> leaves(2 * size);
  test::FillSample(type(), variant(), leaves.data());
  test::FillSample(type(), variant(), leaves.data() + size);
  pmix_data_array_t level2[2] = {{type(), 2, leaves.data()},
                                 {type(), 1, leaves.data() + size}};
  pmix_data_array_t level1[1] = {{PMIX_DATA_ARRAY, 2, level2}};
  pmix_data_array_t top{PMIX_DATA_ARRAY, 1, level1};
  pmix_data_array_t copy;
  ASSERT_EQ(CopyDataArray(&copy, top).code(), PMIX_SUCCESS);
  EXPECT_EQ(copy.type, PMIX_DATA_ARRAY);
  EXPECT_EQ(copy.size, 1u);
  auto* c1 = static_cast<pmix_data_array_t*>(copy.array);
  ASSERT_EQ(c1[0].size, 2u);
  auto* c2 = static_cast<pmix_data_array_t*>(c1[0].array);
  EXPECT_EQ(c2[0].type, type());
  EXPECT_EQ(c2[1].size, 1u);
  EXPECT_NE(c2[0].array, leaves.data());
  if (test::ComparesEqualToCopy(type(), variant())) {
    EXPECT_EQ(CompareElements(*FindDataType(PMIX_DATA_ARRAY), &top, &copy),
              PMIX_EQUAL);
  }
  DestructDataArray(&copy);
  EXPECT_EQ(copy.type, PMIX_UNDEF);
  EXPECT_EQ(copy.array, nullptr);
  DestructElement(ops(), leaves.data());
  DestructElement(ops(), leaves.data() + size);
}

std::string RoundTripName(
    const ::testing::TestParamInfo<ElementRoundTrip::ParamType>& info) {
  return test::TypeName(std::get<0>(info.param)) +
         test::VariantName(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(
    AllTypes, ElementRoundTrip,
    ::testing::Combine(::testing::ValuesIn(test::ElementTypes()),
                       ::testing::Values(Variant::kTypical, Variant::kEdge,
                                         Variant::kNulls)),
    RoundTripName);

// --- construction defaults ---

TEST(DataTypeRegistry, CreateArrayConstructsTypeDefaults) {
  auto* procs = static_cast<pmix_proc_t*>(CreateArray(PMIX_PROC, 2));
  ASSERT_NE(procs, nullptr);
  EXPECT_EQ(procs[1].rank, PMIX_RANK_UNDEF);
  EXPECT_EQ(procs[1].nspace[0], '\0');
  FreeArray(PMIX_PROC, procs, 2);

  auto* dists =
      static_cast<pmix_device_distance_t*>(CreateArray(PMIX_DEVICE_DIST, 1));
  ASSERT_NE(dists, nullptr);
  EXPECT_EQ(dists[0].mindist, UINT16_MAX);
  EXPECT_EQ(dists[0].maxdist, UINT16_MAX);
  FreeArray(PMIX_DEVICE_DIST, dists, 1);

  auto* values = static_cast<pmix_value_t*>(CreateArray(PMIX_VALUE, 1));
  ASSERT_NE(values, nullptr);
  EXPECT_EQ(values[0].type, PMIX_UNDEF);
  FreeArray(PMIX_VALUE, values, 1);
}

TEST(DataTypeRegistry, CreateArrayReturnsNullForNothingToCreate) {
  EXPECT_EQ(CreateArray(PMIX_INT, 0), nullptr);
  EXPECT_EQ(CreateArray(PMIX_UNDEF, 3), nullptr);
  EXPECT_EQ(CreateArray(PMIX_KVAL, 3), nullptr);
  EXPECT_EQ(CreateArray(300, 3), nullptr);
}

// --- failures ---

struct CopyFailure {
  const char* name;
  pmix_data_type_t type;
  const void* src;
  size_t n;
  pmix_status_t expected;
};

int kInts[2] = {1, 2};

TEST(DataTypeRegistry, CopyArrayRejectsBadInputWithoutWritingOutput) {
  const CopyFailure cases[] = {
      {"unknown type", 300, kInts, 2, PMIX_ERR_UNKNOWN_DATA_TYPE},
      {"hole in the codes", 26, kInts, 2, PMIX_ERR_UNKNOWN_DATA_TYPE},
      {"kval has no element", PMIX_KVAL, kInts, 2, PMIX_ERR_NOT_SUPPORTED},
      {"undef has no element", PMIX_UNDEF, kInts, 2, PMIX_ERR_NOT_SUPPORTED},
      {"NULL array, nonzero count", PMIX_INT, nullptr, 2, PMIX_ERR_BAD_PARAM},
  };
  for (const CopyFailure& c : cases) {
    void* out = &out;
    EXPECT_EQ(CopyArray(c.type, c.src, c.n, &out).code(), c.expected) << c.name;
    EXPECT_EQ(out, &out) << c.name;
  }
}

TEST(DataTypeRegistry, EmptyArraysCopyAsNullWhateverTheType) {
  for (pmix_data_type_t t : {PMIX_INT, PMIX_INFO, PMIX_UNDEF, 300}) {
    void* out = &out;
    EXPECT_EQ(CopyArray(t, nullptr, 0, &out).code(), PMIX_SUCCESS);
    EXPECT_EQ(out, nullptr);
  }
}

TEST(DataTypeRegistry, FailureDeepInsideAnArrayRollsBackEverything) {
  // Three infos with owned strings; the third holds a malformed nested
  // array (NULL array, size 2). The whole copy must fail and free the
  // copies of the first two (valgrind checks the "free" part).
  pmix_info_t infos[3];
  std::memset(infos, 0, sizeof infos);
  for (int i = 0; i < 2; ++i) {
    std::strcpy(infos[i].key, "k");
    infos[i].value.type = PMIX_STRING;
    infos[i].value.data.string = const_cast<char*>("text");
  }
  pmix_data_array_t broken{PMIX_INT, 2, nullptr};
  std::strcpy(infos[2].key, "bad");
  infos[2].value.type = PMIX_DATA_ARRAY;
  infos[2].value.data.darray = &broken;
  void* out = nullptr;
  EXPECT_EQ(CopyArray(PMIX_INFO, infos, 3, &out).code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(out, nullptr);
}

TEST(DataTypeRegistry, MalformedByteObjectAndCoordAreRejected) {
  pmix_byte_object_t bo{nullptr, 5};
  pmix_byte_object_t bo_copy;
  EXPECT_EQ(CopyElement(*FindDataType(PMIX_BYTE_OBJECT), &bo_copy, &bo).code(),
            PMIX_ERR_BAD_PARAM);
  pmix_coord_t coord{PMIX_COORD_LOGICAL_VIEW, nullptr, 3};
  pmix_coord_t coord_copy;
  EXPECT_EQ(CopyElement(*FindDataType(PMIX_COORD), &coord_copy, &coord).code(),
            PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(coord_copy.coord, nullptr);  // left constructed
  EXPECT_EQ(coord_copy.dims, 0u);
}

TEST(DataTypeRegistry, FreeArrayToleratesNullAndUnknownTypes) {
  FreeArray(PMIX_INFO, nullptr, 5);
  FreeArray(300, std::malloc(8), 1);  // only the block is freed
}

// --- hwloc objects ---

TEST(DataTypeRegistry, CpusetCopyIsAnIndependentHwlocBitmap) {
  Sample original(PMIX_PROC_CPUSET, Variant::kTypical);
  const DataTypeOps& ops = *FindDataType(PMIX_PROC_CPUSET);
  pmix_cpuset_t copy;
  ASSERT_EQ(CopyElement(ops, &copy, original.get()).code(), PMIX_SUCCESS);
  auto* src = static_cast<pmix_cpuset_t*>(original.get());
  EXPECT_NE(copy.bitmap, src->bitmap);
  EXPECT_STREQ(copy.source, "hwloc");
  hwloc_bitmap_set(static_cast<hwloc_bitmap_t>(copy.bitmap), 9);
  EXPECT_FALSE(hwloc_bitmap_isset(static_cast<hwloc_bitmap_t>(src->bitmap), 9));
  EXPECT_EQ(CompareElements(ops, &copy, src), PMIX_VALUE1_GREATER);
  EXPECT_EQ(CompareElements(ops, src, &copy), PMIX_VALUE2_GREATER);
  DestructElement(ops, &copy);
}

TEST(DataTypeRegistry, TopologyCopyIsADuplicate) {
  Sample original(PMIX_TOPO, Variant::kTypical);
  const DataTypeOps& ops = *FindDataType(PMIX_TOPO);
  pmix_topology_t copy;
  ASSERT_EQ(CopyElement(ops, &copy, original.get()).code(), PMIX_SUCCESS);
  auto* src = static_cast<pmix_topology_t*>(original.get());
  ASSERT_NE(copy.topology, nullptr);
  EXPECT_NE(copy.topology, src->topology);
  EXPECT_EQ(hwloc_get_nbobjs_by_type(
                static_cast<hwloc_topology_t>(copy.topology), HWLOC_OBJ_PU),
            hwloc_get_nbobjs_by_type(
                static_cast<hwloc_topology_t>(src->topology), HWLOC_OBJ_PU));
  EXPECT_EQ(CompareElements(ops, src, src), PMIX_EQUAL);
  // A copy has the same tree: equal; another node's tree: no answer.
  EXPECT_EQ(CompareElements(ops, src, &copy), PMIX_EQUAL);
  hwloc_topology_t other = test::LoadXmlTopology(test::kTwoCoreNodeXml);
  ASSERT_NE(other, nullptr);
  pmix_topology_t different{const_cast<char*>("hwloc"), other};
  EXPECT_EQ(CompareElements(ops, src, &different), PMIX_VALUE_COMPARISON_NOT_AVAIL);
  hwloc_topology_destroy(other);
  DestructElement(ops, &copy);
}

TEST(DataTypeRegistry, ObjectsFromOtherSourcesAreNotCopied) {
  int opaque = 0;
  pmix_cpuset_t cpuset{const_cast<char*>("other"), &opaque};
  pmix_cpuset_t cpuset_copy;
  EXPECT_EQ(CopyElement(*FindDataType(PMIX_PROC_CPUSET), &cpuset_copy, &cpuset)
                .code(),
            PMIX_ERR_NOT_SUPPORTED);
  pmix_topology_t topo{nullptr, &opaque};
  pmix_topology_t topo_copy;
  EXPECT_EQ(CopyElement(*FindDataType(PMIX_TOPO), &topo_copy, &topo).code(),
            PMIX_ERR_NOT_SUPPORTED);
  // Source without object: copies the source string only.
  pmix_cpuset_t bare{const_cast<char*>("other"), nullptr};
  ASSERT_EQ(
      CopyElement(*FindDataType(PMIX_PROC_CPUSET), &cpuset_copy, &bare).code(),
      PMIX_SUCCESS);
  EXPECT_STREQ(cpuset_copy.source, "other");
  DestructElement(*FindDataType(PMIX_PROC_CPUSET), &cpuset_copy);
}

TEST(DataTypeRegistry, HwlocSourceIsMatchedCaseInsensitivelyAsPrefix) {
  hwloc_bitmap_t bm = hwloc_bitmap_alloc();
  pmix_cpuset_t c{const_cast<char*>("HWLOC-2.9"), bm};
  pmix_cpuset_t copy;
  ASSERT_EQ(CopyElement(*FindDataType(PMIX_PROC_CPUSET), &copy, &c).code(),
            PMIX_SUCCESS);
  DestructElement(*FindDataType(PMIX_PROC_CPUSET), &copy);
  hwloc_bitmap_free(bm);
}

// --- helpers ---

TEST(CompareHelpers, OrderStringsAndBytesLikeOpenPmix) {
  EXPECT_EQ(CompareStrings(nullptr, nullptr), PMIX_EQUAL);
  EXPECT_EQ(CompareStrings(nullptr, ""), PMIX_VALUE2_GREATER);
  EXPECT_EQ(CompareStrings("b", "ab"), PMIX_VALUE1_GREATER);
  EXPECT_EQ(CompareStrings("abc", "abd"), PMIX_VALUE2_GREATER);
  // Byte objects: size first, then contents.
  EXPECT_EQ(CompareBytes("b", 1, "ab", 2), PMIX_VALUE2_GREATER);
  EXPECT_EQ(CompareBytes("abd", 3, "abc", 3), PMIX_VALUE1_GREATER);
  EXPECT_EQ(CompareBytes(nullptr, 0, nullptr, 0), PMIX_EQUAL);
}

TEST(CopyBounded, TruncatesAndZeroFills) {
  char buf[8];
  std::memset(buf, 'x', sizeof buf);
  CopyBounded(buf, "abcdefghij", 7);
  EXPECT_STREQ(buf, "abcdefg");
  CopyBounded(buf, "ab", 7);
  for (size_t i = 2; i < sizeof buf; ++i) EXPECT_EQ(buf[i], '\0');
  CopyBounded(buf, nullptr, 7);
  EXPECT_EQ(buf[0], '\0');
}

}  // namespace
}  // namespace pmix
