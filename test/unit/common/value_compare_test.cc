// PMIx_Value_compare and PMIx_Value_get_number: orders measured on OpenPMIx
// 4.2.2 (and where we deliberately differ), and numeric conversions.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "pmix.h"

namespace pmix {
namespace {

struct ScopedValue {
  pmix_value_t v;
  ScopedValue() { PMIx_Value_construct(&v); }
  ~ScopedValue() { PMIx_Value_destruct(&v); }
};

// --- compare ---

struct CompareCase {
  const char* name;
  pmix_data_type_t type;
  const void* a;
  const void* b;
  pmix_value_cmp_t expected;
};

int kOne = 1, kTwo = 2, kMinusOne = -1;
bool kTrue = true, kFalse = false;
double kHalf = 0.5, kOnePointFive = 1.5;
uint64_t kBig = 256, kSmall = 1;
pmix_proc_t kProcA1{"a", 1}, kProcA2{"a", 2}, kProcB0{"b", 0};
pmix_proc_t kProcAWild{"a", PMIX_RANK_WILDCARD};
pmix_byte_object_t kBoB{const_cast<char*>("b"), 1};
pmix_byte_object_t kBoAb{const_cast<char*>("ab"), 2};
pmix_envar_t kEnvColon{const_cast<char*>("A"), const_cast<char*>("x"), ':'};
pmix_envar_t kEnvSemi{const_cast<char*>("A"), const_cast<char*>("x"), ';'};
uint32_t kXyz[3] = {1, 2, 3}, kXy[2] = {1, 2};
pmix_coord_t kCoord3{PMIX_COORD_LOGICAL_VIEW, kXyz, 3};
pmix_coord_t kCoord2{PMIX_COORD_LOGICAL_VIEW, kXy, 2};
pmix_coord_t kCoordPhys{PMIX_COORD_PHYSICAL_VIEW, kXy, 2};
pmix_device_distance_t kGpu{nullptr, nullptr, PMIX_DEVTYPE_GPU, 1, 1};
pmix_device_distance_t kNic{nullptr, nullptr, PMIX_DEVTYPE_NETWORK, 1, 1};
int kArr12[2] = {1, 2}, kArr13[2] = {1, 3};
unsigned kUarr12[2] = {1, 2};
pmix_data_array_t kDa12{PMIX_INT, 2, kArr12}, kDa13{PMIX_INT, 2, kArr13};
pmix_data_array_t kDa1{PMIX_INT, 1, kArr12}, kDaU12{PMIX_UINT, 2, kUarr12};
pmix_proc_info_t kPinfoRunning{{"p", 0}, nullptr, nullptr, 0, 0, 5};
pmix_proc_info_t kPinfoUndef{{"p", 0}, nullptr, nullptr, 0, 0, 0};

TEST(ValueCompare, OrdersLikeOpenPmixWhereItIsConsistent) {
  const CompareCase cases[] = {
      {"int less", PMIX_INT, &kOne, &kTwo, PMIX_VALUE2_GREATER},
      {"int equal", PMIX_INT, &kTwo, &kTwo, PMIX_EQUAL},
      // OpenPMIx orders numbers by memcmp (so -1 > 1 there); we order them
      // numerically. Equality is the same either way.
      {"negative int", PMIX_INT, &kMinusOne, &kOne, PMIX_VALUE2_GREATER},
      {"uint64 256 vs 1", PMIX_UINT64, &kBig, &kSmall, PMIX_VALUE1_GREATER},
      {"double", PMIX_DOUBLE, &kHalf, &kOnePointFive, PMIX_VALUE2_GREATER},
      {"bool true > false", PMIX_BOOL, &kTrue, &kFalse, PMIX_VALUE1_GREATER},
      {"string strcmp", PMIX_STRING, "b", "ab", PMIX_VALUE1_GREATER},
      {"string NULL first", PMIX_STRING, nullptr, "", PMIX_VALUE2_GREATER},
      {"bytes: size first", PMIX_BYTE_OBJECT, &kBoB, &kBoAb,
       PMIX_VALUE2_GREATER},
      {"proc: nspace first", PMIX_PROC, &kProcA2, &kProcB0,
       PMIX_VALUE2_GREATER},
      {"proc: then rank", PMIX_PROC, &kProcA1, &kProcA2, PMIX_VALUE2_GREATER},
      {"proc: wildcard is a number", PMIX_PROC, &kProcA1, &kProcAWild,
       PMIX_VALUE2_GREATER},
      // OpenPMIx gives 2 one way and 0 the other for separators.
      {"envar separator", PMIX_ENVAR, &kEnvSemi, &kEnvColon,
       PMIX_VALUE1_GREATER},
      // OpenPMIx: 0 one way, 1 the other for a shorter coordinate.
      {"coord shorter", PMIX_COORD, &kCoord2, &kCoord3, PMIX_VALUE2_GREATER},
      {"coord views", PMIX_COORD, &kCoord2, &kCoordPhys,
       PMIX_VALUE_INCOMPATIBLE_OBJECTS},
      {"device types", PMIX_DEVICE_DIST, &kGpu, &kNic,
       PMIX_VALUE_INCOMPATIBLE_OBJECTS},
      {"array elements", PMIX_DATA_ARRAY, &kDa12, &kDa13, PMIX_VALUE2_GREATER},
      {"array sizes", PMIX_DATA_ARRAY, &kDa12, &kDa1, PMIX_VALUE1_GREATER},
      {"array types", PMIX_DATA_ARRAY, &kDa12, &kDaU12,
       PMIX_VALUE_TYPE_DIFFERENT},
      // OpenPMIx ignores the state field.
      {"proc info state", PMIX_PROC_INFO, &kPinfoRunning, &kPinfoUndef,
       PMIX_VALUE1_GREATER},
  };
  for (const CompareCase& c : cases) {
    ScopedValue a;
    ScopedValue b;
    ASSERT_EQ(PMIx_Value_load(&a.v, c.a, c.type), PMIX_SUCCESS) << c.name;
    ASSERT_EQ(PMIx_Value_load(&b.v, c.b, c.type), PMIX_SUCCESS) << c.name;
    EXPECT_EQ(PMIx_Value_compare(&a.v, &b.v), c.expected) << c.name;
    pmix_value_cmp_t mirrored =
        c.expected == PMIX_VALUE1_GREATER   ? PMIX_VALUE2_GREATER
        : c.expected == PMIX_VALUE2_GREATER ? PMIX_VALUE1_GREATER
                                            : c.expected;
    EXPECT_EQ(PMIx_Value_compare(&b.v, &a.v), mirrored) << c.name;
  }
}

// OpenPMIx 4.2.2 orders the statistics structs field by field in
// declaration order (measured); a value equals its own copy.
TEST(ValueCompare, OrdersStatisticsFieldByField) {
  pmix_proc_stats_t p1{};
  p1.node = const_cast<char*>("node5");
  p1.pid = 77;
  p1.cmd = const_cast<char*>("cmd");
  pmix_proc_stats_t later_pid = p1;
  later_pid.pid = 78;
  pmix_proc_stats_t smaller_node_later_pid = later_pid;
  smaller_node_later_pid.node = const_cast<char*>("node4");
  pmix_proc_stats_t more_cpu = p1;
  more_cpu.percent_cpu = 2.0f;  // OpenPMIx ignores this field; we do not
  pmix_disk_stats_t d1{};
  d1.disk = const_cast<char*>("sda");
  d1.num_reads_completed = 1;
  pmix_disk_stats_t d_last = d1;
  d_last.weighted_milliseconds_io = 12;
  pmix_disk_stats_t d_first_less_last_more = d_last;
  d_first_less_last_more.num_reads_completed = 0;
  pmix_net_stats_t n1{};
  n1.net_interface = const_cast<char*>("eth0");
  pmix_net_stats_t n_sent = n1;
  n_sent.num_send_errs = 6;
  pmix_net_stats_t n_name = n1;
  n_name.net_interface = nullptr;
  pmix_node_stats_t node1{};
  node1.node = const_cast<char*>("n1");
  node1.diskstats = &d1;
  node1.ndiskstats = 1;
  pmix_node_stats_t node_disk = node1;
  node_disk.diskstats = &d_last;
  const CompareCase cases[] = {
      {"proc stats equal", PMIX_PROC_STATS, &p1, &p1, PMIX_EQUAL},
      {"proc stats pid", PMIX_PROC_STATS, &p1, &later_pid, PMIX_VALUE2_GREATER},
      {"proc stats node before pid", PMIX_PROC_STATS, &p1,
       &smaller_node_later_pid, PMIX_VALUE1_GREATER},
      {"proc stats cpu", PMIX_PROC_STATS, &p1, &more_cpu, PMIX_VALUE2_GREATER},
      {"disk stats equal", PMIX_DISK_STATS, &d1, &d1, PMIX_EQUAL},
      {"disk stats last field", PMIX_DISK_STATS, &d1, &d_last,
       PMIX_VALUE2_GREATER},
      {"disk stats first field first", PMIX_DISK_STATS, &d1,
       &d_first_less_last_more, PMIX_VALUE1_GREATER},
      {"net stats equal", PMIX_NET_STATS, &n1, &n1, PMIX_EQUAL},
      {"net stats last field", PMIX_NET_STATS, &n1, &n_sent,
       PMIX_VALUE2_GREATER},
      {"net stats NULL name first", PMIX_NET_STATS, &n1, &n_name,
       PMIX_VALUE1_GREATER},
      {"node stats equal", PMIX_NODE_STATS, &node1, &node1, PMIX_EQUAL},
      {"node stats nested disk", PMIX_NODE_STATS, &node1, &node_disk,
       PMIX_VALUE2_GREATER},
  };
  for (const CompareCase& c : cases) {
    ScopedValue a;
    ScopedValue b;
    ScopedValue copy;
    ASSERT_EQ(PMIx_Value_load(&a.v, c.a, c.type), PMIX_SUCCESS) << c.name;
    ASSERT_EQ(PMIx_Value_load(&b.v, c.b, c.type), PMIX_SUCCESS) << c.name;
    ASSERT_EQ(PMIx_Value_xfer(&copy.v, &a.v), PMIX_SUCCESS) << c.name;
    EXPECT_EQ(PMIx_Value_compare(&a.v, &copy.v), PMIX_EQUAL) << c.name;
    EXPECT_EQ(PMIx_Value_compare(&a.v, &b.v), c.expected) << c.name;
  }
}

TEST(ValueCompare, DifferentTypesUndefAndNullArguments) {
  ScopedValue i;
  ScopedValue u;
  ASSERT_EQ(PMIx_Value_load(&i.v, &kOne, PMIX_INT), PMIX_SUCCESS);
  ASSERT_EQ(PMIx_Value_load(&u.v, &kOne, PMIX_UINT), PMIX_SUCCESS);
  EXPECT_EQ(PMIx_Value_compare(&i.v, &u.v), PMIX_VALUE_TYPE_DIFFERENT);
  ScopedValue x;
  ScopedValue y;
  EXPECT_EQ(PMIx_Value_compare(&x.v, &y.v), PMIX_EQUAL);  // both UNDEF
  EXPECT_EQ(PMIx_Value_compare(&x.v, nullptr), PMIX_VALUE_COMPARISON_NOT_AVAIL);
  EXPECT_EQ(PMIx_Value_compare(nullptr, nullptr),
            PMIX_VALUE_COMPARISON_NOT_AVAIL);
  x.v.type = y.v.type = 300;
  EXPECT_EQ(PMIx_Value_compare(&x.v, &y.v), PMIX_VALUE_COMPARISON_NOT_AVAIL);
  x.v.type = y.v.type = PMIX_INFO;
  EXPECT_EQ(PMIx_Value_compare(&x.v, &y.v), PMIX_VALUE_COMPARISON_NOT_AVAIL);
  x.v.type = y.v.type = PMIX_UNDEF;
}

// --- get_number ---

struct NumberCase {
  const char* name;
  pmix_data_type_t from;
  const void* value;
  pmix_data_type_t to;
  pmix_status_t expected;
  int64_t expected_value;  // read back as the target type
};

int32_t kI32 = 1234, kI32Big = 100000, kI32Neg = -5;
float kF = -1234.567f, kFHuge = 1e20f;
uint8_t kScope = PMIX_GLOBAL;
bool kFlag = true;
const char* kText = "12";

int64_t ReadBack(pmix_data_type_t type, const void* p) {
  switch (type) {
    case PMIX_INT8:
      return *static_cast<const int8_t*>(p);
    case PMIX_INT16:
      return *static_cast<const int16_t*>(p);
    case PMIX_INT32:
      return *static_cast<const int32_t*>(p);
    case PMIX_UINT8:
    case PMIX_SCOPE:
      return *static_cast<const uint8_t*>(p);
    case PMIX_UINT32:
      return *static_cast<const uint32_t*>(p);
    case PMIX_INT64:
      return *static_cast<const int64_t*>(p);
    case PMIX_DOUBLE:
      return static_cast<int64_t>(*static_cast<const double*>(p));
    default:
      return -999;
  }
}

TEST(ValueGetNumber, ConvertsWhenTheValueFitsAndRefusesOtherwise) {
  const NumberCase cases[] = {
      {"same type", PMIX_INT32, &kI32, PMIX_INT32, PMIX_SUCCESS, 1234},
      {"narrowing that fits", PMIX_INT32, &kI32, PMIX_INT16, PMIX_SUCCESS,
       1234},
      {"narrowing that does not", PMIX_INT32, &kI32Big, PMIX_INT16,
       PMIX_ERR_BAD_PARAM, 0},
      {"negative to unsigned", PMIX_INT32, &kI32Neg, PMIX_UINT32,
       PMIX_ERR_BAD_PARAM, 0},
      {"float truncates", PMIX_FLOAT, &kF, PMIX_INT32, PMIX_SUCCESS, -1234},
      {"float out of range", PMIX_FLOAT, &kFHuge, PMIX_INT64,
       PMIX_ERR_BAD_PARAM, 0},
      {"negative float to unsigned", PMIX_FLOAT, &kF, PMIX_UINT32,
       PMIX_ERR_BAD_PARAM, 0},
      {"int to double", PMIX_INT32, &kI32, PMIX_DOUBLE, PMIX_SUCCESS, 1234},
      {"named to plain", PMIX_SCOPE, &kScope, PMIX_INT64, PMIX_SUCCESS,
       PMIX_GLOBAL},
      {"plain to named", PMIX_INT32, &kI32Neg, PMIX_SCOPE, PMIX_ERR_BAD_PARAM,
       0},
      {"named to other named", PMIX_SCOPE, &kScope, PMIX_PROC_STATE,
       PMIX_ERR_BAD_PARAM, 0},
      {"bool is not a number", PMIX_BOOL, &kFlag, PMIX_INT32,
       PMIX_ERR_BAD_PARAM, 0},
      {"string is not a number", PMIX_STRING, kText, PMIX_INT32,
       PMIX_ERR_BAD_PARAM, 0},
      {"target not numeric", PMIX_INT32, &kI32, PMIX_STRING, PMIX_ERR_BAD_PARAM,
       0},
  };
  for (const NumberCase& c : cases) {
    ScopedValue v;
    ASSERT_EQ(PMIx_Value_load(&v.v, c.value, c.from), PMIX_SUCCESS) << c.name;
    alignas(8) unsigned char out[16];
    std::memset(out, 0x7f, sizeof out);
    unsigned char before[16];
    std::memcpy(before, out, sizeof out);
    EXPECT_EQ(PMIx_Value_get_number(&v.v, out, c.to), c.expected) << c.name;
    if (c.expected == PMIX_SUCCESS) {
      EXPECT_EQ(ReadBack(c.to, out), c.expected_value) << c.name;
    } else {
      EXPECT_EQ(std::memcmp(out, before, sizeof out), 0) << c.name;
    }
  }
  int32_t sink = 0;
  EXPECT_EQ(PMIx_Value_get_number(nullptr, &sink, PMIX_INT32),
            PMIX_ERR_BAD_PARAM);
}

TEST(ValueGetNumber, HeaderMacroCastsLikeOpenPmix) {
  ScopedValue v;
  ASSERT_EQ(PMIx_Value_load(&v.v, &kI32, PMIX_INT32), PMIX_SUCCESS);
  pmix_status_t rc;
  uint8_t narrowed = 0;
  PMIX_VALUE_GET_NUMBER(rc, &v.v, narrowed, uint8_t);
  EXPECT_EQ(rc, PMIX_SUCCESS);
  EXPECT_EQ(narrowed, static_cast<uint8_t>(1234));
}

}  // namespace
}  // namespace pmix
