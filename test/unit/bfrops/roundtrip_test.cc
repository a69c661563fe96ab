// Property tests of the native codec: random values of every type survive
// pack -> unpack (compared with the registry and by re-packing, since the
// encoding is canonical), and PMIx_Data_copy.
#include <gtest/gtest.h>
#include <hwloc.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "pmix.h"
#include "src/common/data_types.h"
#include "test/unit/bfrops/random_values.h"
#include "test/unit/common/type_samples.h"

namespace pmix::test {
namespace {

constexpr int kIterations = 60;  // per type; keeps valgrind runs short
constexpr int kDepth = 3;

std::string Bytes(const pmix_data_buffer_t& b) {
  return b.base_ptr == nullptr ? std::string() : std::string(b.base_ptr, b.bytes_used);
}

// The encoding of n elements at `array`.
std::string Encode(pmix_data_type_t type, const void* array, int32_t n) {
  pmix_data_buffer_t b;
  PMIx_Data_buffer_construct(&b);
  EXPECT_EQ(PMIX_SUCCESS, NativeModule()->pack(&b, array, n, type)) << TypeName(type);
  std::string s = Bytes(b);
  PMIx_Data_buffer_destruct(&b);
  return s;
}

void ExpectSame(pmix_data_type_t type, const void* a, const void* b, size_t n) {
  const DataTypeOps* ops = FindDataType(type);
  for (size_t i = 0; i < n; ++i) {
    pmix_value_cmp_t c = CompareElements(*ops, static_cast<const char*>(a) + i * ops->element_size,
                                         static_cast<const char*>(b) + i * ops->element_size);
    EXPECT_TRUE(c == PMIX_EQUAL || c == PMIX_VALUE_COMPARISON_NOT_AVAIL)
        << TypeName(type) << " element " << i << ": " << PMIx_Value_comparison_string(c);
  }
}

TEST(NativeRoundTrip, EveryTypeRandomValues) {
  Rng rng(20261121);
  ASSERT_NE(nullptr, NativeModule());
  ASSERT_EQ(64u, PackableTypes().size()) << "67 registry types less UNDEF, KVAL, POINTER";
  size_t bytes = 0;
  for (pmix_data_type_t type : PackableTypes()) {
    for (int it = 0; it < kIterations; ++it) {
      int32_t n = 1 + static_cast<int32_t>(rng() % 3);
      void* src = MakeRandomArray(rng, type, n, kDepth);
      pmix_data_buffer_t b;
      PMIx_Data_buffer_construct(&b);
      ASSERT_EQ(PMIX_SUCCESS, NativeModule()->pack(&b, src, n, type)) << TypeName(type);
      void* dst = CreateArray(type, n);
      int32_t got = n + 2;
      ASSERT_EQ(PMIX_SUCCESS, NativeModule()->unpack(&b, dst, &got, type)) << TypeName(type);
      EXPECT_EQ(n, got);
      EXPECT_EQ(b.unpack_ptr, b.base_ptr + b.bytes_used) << "all consumed";
      ExpectSame(type, src, dst, n);
      EXPECT_EQ(Bytes(b), Encode(type, dst, n)) << TypeName(type) << " re-encodes identically";
      bytes += b.bytes_used;
      PMIx_Data_buffer_destruct(&b);
      FreeRandom(type, dst, n);
      FreeRandom(type, src, n);
    }
  }
  RecordProperty("encoded_bytes", static_cast<int>(bytes));
  EXPECT_GT(bytes, 20000u);
}

TEST(NativeRoundTrip, DataCopyOfRandomValues) {
  Rng rng(7);
  for (pmix_data_type_t type : PackableTypes()) {
    for (int it = 0; it < 4; ++it) {
      void* src = MakeRandomArray(rng, type, 1, kDepth);
      void* copy = nullptr;
      // Strings and regexes are passed as the text itself (OpenPMIx 4.2).
      const bool text = type == PMIX_STRING || type == PMIX_REGEX;
      void* arg = text ? *static_cast<char**>(src) : src;
      if (arg == nullptr) {  // a NULL string cannot be copied
        EXPECT_EQ(PMIX_ERR_BAD_PARAM, PMIx_Data_copy(&copy, arg, type));
      } else {
        ASSERT_EQ(PMIX_SUCCESS, PMIx_Data_copy(&copy, arg, type)) << TypeName(type);
        if (text) {
          EXPECT_STREQ(static_cast<char*>(arg), static_cast<char*>(copy));
          std::free(copy);
        } else {
          ExpectSame(type, src, copy, 1);
          EXPECT_EQ(Encode(type, src, 1), Encode(type, copy, 1)) << TypeName(type);
          FreeRandom(type, copy, 1);
        }
      }
      FreeRandom(type, src, 1);
    }
  }
}

// Several groups of different types in one buffer come back in order.
TEST(NativeRoundTrip, MixedSequences) {
  Rng rng(99);
  const auto& types = PackableTypes();
  for (int round = 0; round < 40; ++round) {
    struct Group { pmix_data_type_t type; int32_t n; void* data; };
    std::vector<Group> groups;
    pmix_data_buffer_t b;
    PMIx_Data_buffer_construct(&b);
    for (int g = 0; g < 12; ++g) {
      pmix_data_type_t type = types[rng() % types.size()];
      int32_t n = 1 + static_cast<int32_t>(rng() % 4);
      groups.push_back({type, n, MakeRandomArray(rng, type, n, 2)});
      ASSERT_EQ(PMIX_SUCCESS, NativeModule()->pack(&b, groups.back().data, n, type));
    }
    for (const Group& g : groups) {
      void* dst = CreateArray(g.type, g.n);
      int32_t got = g.n;
      ASSERT_EQ(PMIX_SUCCESS, NativeModule()->unpack(&b, dst, &got, g.type)) << TypeName(g.type);
      ExpectSame(g.type, g.data, dst, g.n);
      FreeRandom(g.type, dst, g.n);
      FreeRandom(g.type, g.data, g.n);
    }
    int32_t one = 1;
    int32_t scratch = 0;
    EXPECT_EQ(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER,
              NativeModule()->unpack(&b, &scratch, &one, PMIX_INT32));
    PMIx_Data_buffer_destruct(&b);
  }
}

// Packs `topo` (source "hwloc") with the native codec and unpacks it:
// the copy, owned by the caller (hwloc_topology_destroy), or nullptr.
hwloc_topology_t TopologyRoundTrip(hwloc_topology_t topo) {
  pmix_topology_t t = {const_cast<char*>("hwloc"), topo};
  pmix_data_buffer_t b;
  PMIx_Data_buffer_construct(&b);
  pmix_topology_t out = {nullptr, nullptr};
  int32_t n = 1;
  bool ok = NativeModule()->pack(&b, &t, 1, PMIX_TOPO) == PMIX_SUCCESS &&
            NativeModule()->unpack(&b, &out, &n, PMIX_TOPO) == PMIX_SUCCESS && n == 1;
  PMIx_Data_buffer_destruct(&b);
  bool named = out.source != nullptr && std::strcmp(out.source, "hwloc") == 0;
  std::free(out.source);
  auto copy = static_cast<hwloc_topology_t>(out.topology);
  if (ok && named) return copy;
  if (copy != nullptr) hwloc_topology_destroy(copy);
  return nullptr;
}

TEST(NativeRoundTrip, MachineTopologyAsXml) {
  hwloc_topology_t topo = nullptr;
  ASSERT_EQ(0, hwloc_topology_init(&topo));
  ASSERT_EQ(0, hwloc_topology_load(topo));
  hwloc_topology_t copy = TopologyRoundTrip(topo);
  ASSERT_NE(nullptr, copy);
  EXPECT_EQ(hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU), hwloc_get_nbobjs_by_type(copy, HWLOC_OBJ_PU));
  EXPECT_EQ(hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE),
            hwloc_get_nbobjs_by_type(copy, HWLOC_OBJ_CORE));
  hwloc_topology_destroy(copy);
  hwloc_topology_destroy(topo);
}

// An unpacked topology keeps the important I/O objects (as OpenPMIx 4.2
// loads it): the HCA, its PCI device and bridge survive the trip.
TEST(NativeRoundTrip, TopologyKeepsItsIoDevices) {
  hwloc_topology_t topo = LoadXmlTopology(kNodeWithHcaXml, /*keep_io=*/true);
  ASSERT_NE(nullptr, topo);
  ASSERT_EQ(1, hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_OS_DEVICE));
  hwloc_topology_t copy = TopologyRoundTrip(topo);
  hwloc_topology_destroy(topo);
  ASSERT_NE(nullptr, copy);
  EXPECT_EQ(1, hwloc_get_nbobjs_by_type(copy, HWLOC_OBJ_BRIDGE));
  EXPECT_EQ(1, hwloc_get_nbobjs_by_type(copy, HWLOC_OBJ_PCI_DEVICE));
  EXPECT_EQ(1, hwloc_get_nbobjs_by_type(copy, HWLOC_OBJ_OS_DEVICE));
  hwloc_obj_t hca = hwloc_get_obj_by_type(copy, HWLOC_OBJ_OS_DEVICE, 0);
  EXPECT_STREQ("mlx5_0", hca != nullptr ? hca->name : "(none)");
  EXPECT_TRUE(hwloc_topology_is_thissystem(copy));
  hwloc_topology_destroy(copy);
}

}  // namespace
}  // namespace pmix::test
