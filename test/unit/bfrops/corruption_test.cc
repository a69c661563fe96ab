// Hostile input: wrong types, truncation at every byte, random byte flips,
// absurd counts and nesting bombs. Nothing may crash, leak (run under
// valgrind) or allocate more than the buffer justifies; a failed unpack
// leaves unpack_ptr where it was.
#include <gtest/gtest.h>
#include <hwloc.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "pmix.h"
#include "src/common/data_types.h"
#include "test/unit/bfrops/random_values.h"

namespace pmix::test {
namespace {

const pmix_bfrops_module_t& M() { return *NativeModule(); }

// A buffer holding a copy of `bytes` (unread from the start).
struct Buf {
  explicit Buf(const std::string& bytes) {
    PMIx_Data_buffer_construct(&b);
    if (!bytes.empty()) {
      char* copy = static_cast<char*>(std::malloc(bytes.size()));
      std::memcpy(copy, bytes.data(), bytes.size());
      PMIx_Data_buffer_load(&b, copy, bytes.size());
    }
  }
  ~Buf() { PMIx_Data_buffer_destruct(&b); }
  pmix_data_buffer_t b;
};

struct Group {
  pmix_data_type_t type;
  int32_t n;
};

// The types whose nesting and bounds matter most.
const pmix_data_type_t kRich[] = {PMIX_INFO, PMIX_VALUE, PMIX_DATA_ARRAY, PMIX_APP,
                                  PMIX_QUERY, PMIX_PDATA, PMIX_NODE_STATS, PMIX_GEOMETRY,
                                  PMIX_STRING, PMIX_REGATTR, PMIX_PROC_CPUSET, PMIX_DATA_BUFFER,
                                  PMIX_ENDPOINT, PMIX_PROC_INFO, PMIX_INT64, PMIX_BYTE_OBJECT};

// Packs a random sequence of rich groups; returns the bytes.
std::string MakeSequence(Rng& rng, std::vector<Group>* groups) {
  pmix_data_buffer_t b;
  PMIx_Data_buffer_construct(&b);
  for (pmix_data_type_t type : kRich) {
    int32_t n = 1 + static_cast<int32_t>(rng() % 3);
    void* data = MakeRandomArray(rng, type, n, 3);
    EXPECT_EQ(PMIX_SUCCESS, M().pack(&b, data, n, type));
    FreeRandom(type, data, n);
    groups->push_back({type, n});
  }
  std::string s(b.base_ptr, b.bytes_used);
  PMIx_Data_buffer_destruct(&b);
  return s;
}

// Unpacks the groups in order until one fails; returns that status.
pmix_status_t UnpackAll(pmix_data_buffer_t* b, const std::vector<Group>& groups) {
  for (const Group& g : groups) {
    void* dst = CreateArray(g.type, g.n);
    int32_t n = g.n;
    char* before = b->unpack_ptr;
    pmix_status_t rc = M().unpack(b, dst, &n, g.type);
    if (rc != PMIX_SUCCESS) {
      EXPECT_EQ(before, b->unpack_ptr) << "a failed unpack must not move";
      FreeArray(g.type, dst, g.n);
      return rc;
    }
    FreeArray(g.type, dst, g.n);
  }
  return PMIX_SUCCESS;
}

TEST(NativeCorruption, EveryTruncationFailsCleanly) {
  Rng rng(1);
  std::vector<Group> groups;
  std::string bytes = MakeSequence(rng, &groups);
  ASSERT_GT(bytes.size(), 1000u);
  RecordProperty("prefixes", static_cast<int>(bytes.size()));
  for (size_t len = 0; len < bytes.size(); ++len) {
    Buf buf(bytes.substr(0, len));
    pmix_status_t rc = UnpackAll(&buf.b, groups);
    EXPECT_TRUE(rc == PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER || rc == PMIX_ERR_UNPACK_FAILURE)
        << "prefix " << len << " of " << bytes.size() << ": " << PMIx_Error_string(rc);
  }
  Buf whole(bytes);
  EXPECT_EQ(PMIX_SUCCESS, UnpackAll(&whole.b, groups));
}

TEST(NativeCorruption, RandomByteFlipsNeverCrash) {
  Rng rng(2);
  std::vector<Group> groups;
  std::string bytes = MakeSequence(rng, &groups);
  int failures = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string bad = bytes;
    for (int k = 0, flips = 1 + static_cast<int>(rng() % 3); k < flips; ++k) {
      bad[rng() % bad.size()] ^= static_cast<char>(1 + rng() % 255);
    }
    Buf buf(bad);
    failures += UnpackAll(&buf.b, groups) != PMIX_SUCCESS ? 1 : 0;
  }
  EXPECT_GT(failures, 500);
}

// Hand-built groups: u16 type, u32 count, then `tail`.
std::string Header(pmix_data_type_t type, uint32_t count, const std::string& tail) {
  std::string s;
  s.push_back(static_cast<char>(type & 0xff));
  s.push_back(static_cast<char>(type >> 8));
  for (int i = 0; i < 4; ++i) s.push_back(static_cast<char>(count >> (8 * i)));
  return s + tail;
}

std::string U32(uint32_t v) {
  std::string s;
  for (int i = 0; i < 4; ++i) s.push_back(static_cast<char>(v >> (8 * i)));
  return s;
}

TEST(NativeCorruption, AbsurdCountsFailBeforeAllocating) {
  struct Case {
    const char* what;
    std::string bytes;
    pmix_data_type_t type;
    pmix_status_t expected;
  };
  constexpr pmix_status_t kPastEnd = PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
  const std::string ten(10, '\0');
  const std::string big = U32(0x80000000u);
  const Case cases[] = {
      {"group count 2^31", Header(PMIX_INT32, 0x80000000u, ten), PMIX_INT32, kPastEnd},
      {"group count 2^32-1", Header(PMIX_INFO, 0xFFFFFFFFu, ten), PMIX_INFO,
       PMIX_ERR_UNPACK_FAILURE},
      {"string length 2^31", Header(PMIX_STRING, 1, big + ten), PMIX_STRING, kPastEnd},
      {"bytes size 2^31", Header(PMIX_BYTE_OBJECT, 1, big + ten), PMIX_BYTE_OBJECT, kPastEnd},
      {"argv count 2^31", Header(PMIX_QUERY, 1, big + ten), PMIX_QUERY, kPastEnd},
      {"info count 2^31 in a query", Header(PMIX_QUERY, 1, U32(0) + big + ten), PMIX_QUERY,
       kPastEnd},
      {"data array size 2^31",
       Header(PMIX_DATA_ARRAY, 1, std::string("\x18\x00", 2) + big + ten), PMIX_DATA_ARRAY,
       kPastEnd},
      {"coord dims 2^31", Header(PMIX_COORD, 1, std::string("\x01", 1) + big + ten), PMIX_COORD,
       kPastEnd},
      {"data buffer 2^63 bytes",
       Header(PMIX_DATA_BUFFER, 1, U32(0) + U32(0x80000000u) + U32(0) + U32(0) + ten),
       PMIX_DATA_BUFFER, kPastEnd},
      {"cpuset index 2^40",
       Header(PMIX_PROC_CPUSET, 1, U32(5) + "hwloc" + std::string("\x01", 1) + U32(13) +
                                        "1099511627776"),
       PMIX_PROC_CPUSET, PMIX_ERR_UNPACK_FAILURE},
  };
  for (const Case& c : cases) {
    Buf buf(c.bytes);
    std::vector<char> dest(ElementSize(c.type) * 4);
    int32_t n = 4;
    EXPECT_EQ(c.expected, M().unpack(&buf.b, dest.data(), &n, c.type))
        << c.what << ": " << PMIx_Error_string(M().unpack(&buf.b, dest.data(), &n, c.type));
    EXPECT_EQ(buf.b.base_ptr, buf.b.unpack_ptr) << c.what;
  }
}

// A packed PMIX_PROC_CPUSET whose hwloc list text is `list`.
std::string CpusetBytes(const std::string& list) {
  return Header(PMIX_PROC_CPUSET, 1,
                U32(5) + "hwloc" + std::string("\x01", 1) +
                    U32(static_cast<uint32_t>(list.size())) + list);
}

// A cpuset list is only ever the ascending decimal form the codec writes:
// hex, signs, infinite or descending ranges once let 86 bytes make a
// 512 MiB bitmap or one that printing never finishes.
TEST(NativeCorruption, CraftedCpusetListsAreRefused) {
  const char* bad[] = {"0x1000000", "0xffffffff", "-1", "-5", "0-", "3-", "5-2",
                       "0-3,2",     "4,1",        " 1", "1,,2", "1,",  "+1", "1048577",
                       "00000001048576", "1;2", "0-1048577"};
  for (const char* list : bad) {
    Buf buf(CpusetBytes(list));
    pmix_cpuset_t c;
    std::memset(&c, 0, sizeof c);
    int32_t n = 1;
    EXPECT_EQ(PMIX_ERR_UNPACK_FAILURE, M().unpack(&buf.b, &c, &n, PMIX_PROC_CPUSET))
        << "'" << list << "'";
    EXPECT_EQ(buf.b.base_ptr, buf.b.unpack_ptr) << list;
    if (n == 1 && c.bitmap != nullptr) PMIx_Cpuset_destruct(&c);
  }
  const char* good[] = {"", "0", "0-3,8,10-11", "1048576", "0-1048576", "2,3"};
  for (const char* list : good) {
    Buf buf(CpusetBytes(list));
    pmix_cpuset_t c;
    std::memset(&c, 0, sizeof c);
    int32_t n = 1;
    ASSERT_EQ(PMIX_SUCCESS, M().unpack(&buf.b, &c, &n, PMIX_PROC_CPUSET)) << "'" << list << "'";
    char* text = nullptr;
    ASSERT_GE(hwloc_bitmap_list_asprintf(&text, static_cast<hwloc_bitmap_t>(c.bitmap)), 0);
    EXPECT_STREQ(std::string(list) == "2,3" ? "2-3" : list, text);
    std::free(text);
    PMIx_Cpuset_destruct(&c);
  }
}

// A set that unpack would refuse is refused by pack too.
TEST(NativeCorruption, UnboundedCpusetsDoNotPack) {
  for (bool infinite : {true, false}) {
    pmix_cpuset_t c;
    c.source = const_cast<char*>("hwloc");
    hwloc_bitmap_t bitmap = hwloc_bitmap_alloc();
    if (infinite) hwloc_bitmap_fill(bitmap);
    else hwloc_bitmap_set(bitmap, (1u << 20) + 1);
    c.bitmap = bitmap;
    pmix_data_buffer_t b;
    PMIx_Data_buffer_construct(&b);
    EXPECT_EQ(PMIX_ERR_BAD_PARAM, M().pack(&b, &c, 1, PMIX_PROC_CPUSET)) << infinite;
    EXPECT_EQ(0u, b.bytes_used);
    PMIx_Data_buffer_destruct(&b);
    hwloc_bitmap_free(bitmap);
  }
}

// value -> data array of 1 value -> ... `levels` deep, as raw bytes.
std::string NestedValues(int levels) {
  std::string tail;
  for (int i = 0; i < levels; ++i) {
    tail += std::string("\x27\x00\x01", 3);      // value of type PMIX_DATA_ARRAY, present
    tail += std::string("\x15\x00", 2) + U32(1);  // data array of 1 PMIX_VALUE
  }
  tail += std::string("\x00\x00", 2);             // PMIX_UNDEF
  return Header(PMIX_VALUE, 1, tail);
}

TEST(NativeCorruption, NestingBombIsRefused) {
  {
    Buf ok(NestedValues(20));
    pmix_value_t v;
    int32_t n = 1;
    ASSERT_EQ(PMIX_SUCCESS, M().unpack(&ok.b, &v, &n, PMIX_VALUE));
    EXPECT_EQ(PMIX_DATA_ARRAY, v.type);
    PMIx_Value_destruct(&v);
  }
  Buf buf(NestedValues(200));
  pmix_value_t v;
  int32_t n = 1;
  EXPECT_EQ(PMIX_ERR_UNPACK_FAILURE, M().unpack(&buf.b, &v, &n, PMIX_VALUE));
  EXPECT_EQ(buf.b.base_ptr, buf.b.unpack_ptr);

  // Packing something that deep is refused as well.
  pmix_value_t leaf;
  PMIx_Value_construct(&leaf);
  pmix_value_t* top = &leaf;
  std::vector<pmix_data_array_t> arrays(100);
  std::vector<pmix_value_t> values(100);
  for (int i = 0; i < 100; ++i) {
    arrays[i] = {PMIX_VALUE, 1, top};
    values[i].type = PMIX_DATA_ARRAY;
    values[i].data.darray = &arrays[i];
    top = &values[i];
  }
  pmix_data_buffer_t b;
  PMIx_Data_buffer_construct(&b);
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, M().pack(&b, top, 1, PMIX_VALUE));
  EXPECT_EQ(0u, b.bytes_used);
  PMIx_Data_buffer_destruct(&b);
}

TEST(NativeCorruption, WrongTypeIsPackMismatchAndKeepsPosition) {
  pmix_data_buffer_t b;
  PMIx_Data_buffer_construct(&b);
  int32_t v[3] = {1, -2, 3};
  ASSERT_EQ(PMIX_SUCCESS, M().pack(&b, v, 3, PMIX_INT32));
  for (pmix_data_type_t t : PackableTypes()) {
    if (t == PMIX_INT32) continue;
    std::vector<char> dest(ElementSize(t) * 3);
    int32_t n = 3;
    EXPECT_EQ(PMIX_ERR_PACK_MISMATCH, M().unpack(&b, dest.data(), &n, t)) << t;
    EXPECT_EQ(b.base_ptr, b.unpack_ptr);
  }
  int32_t out[3] = {0, 0, 0};
  int32_t n = 2;
  EXPECT_EQ(PMIX_ERR_UNPACK_INADEQUATE_SPACE, M().unpack(&b, out, &n, PMIX_INT32));
  EXPECT_EQ(b.base_ptr, b.unpack_ptr);
  n = 0;
  EXPECT_EQ(PMIX_ERR_UNPACK_INADEQUATE_SPACE, M().unpack(&b, out, &n, PMIX_INT32));
  n = 5;
  EXPECT_EQ(PMIX_SUCCESS, M().unpack(&b, out, &n, PMIX_INT32));
  EXPECT_EQ(3, n);
  EXPECT_EQ(-2, out[1]);
  n = 1;
  EXPECT_EQ(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER, M().unpack(&b, out, &n, PMIX_INT32));
  PMIx_Data_buffer_destruct(&b);
}

TEST(NativeCorruption, UnpackableTypesAreRefused) {
  pmix_data_buffer_t b;
  PMIx_Data_buffer_construct(&b);
  int x = 0;
  void* p = &x;
  EXPECT_EQ(PMIX_ERR_NOT_SUPPORTED, M().pack(&b, &p, 1, PMIX_POINTER));
  EXPECT_EQ(PMIX_ERR_NOT_SUPPORTED, M().pack(&b, &x, 1, PMIX_KVAL));
  EXPECT_EQ(PMIX_ERR_UNKNOWN_DATA_TYPE, M().pack(&b, &x, 1, PMIX_UNDEF));
  EXPECT_EQ(PMIX_ERR_UNKNOWN_DATA_TYPE, M().pack(&b, &x, 1, 200));
  pmix_value_t v;
  v.type = PMIX_POINTER;
  v.data.ptr = &x;
  EXPECT_EQ(PMIX_ERR_NOT_SUPPORTED, M().pack(&b, &v, 1, PMIX_VALUE));
  pmix_data_array_t d = {PMIX_POINTER, 1, &p};
  EXPECT_EQ(PMIX_ERR_NOT_SUPPORTED, M().pack(&b, &d, 1, PMIX_DATA_ARRAY));
  EXPECT_EQ(0u, b.bytes_used) << "a refused pack appends nothing";
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, M().pack(&b, nullptr, 1, PMIX_INT));
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, M().pack(&b, &x, -1, PMIX_INT));
  EXPECT_EQ(PMIX_SUCCESS, M().pack(&b, &x, 0, PMIX_INT));
  EXPECT_EQ(0u, b.bytes_used);
  int32_t n = 1;
  EXPECT_EQ(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER, M().unpack(&b, &x, &n, PMIX_INT));
  PMIx_Data_buffer_destruct(&b);
}

}  // namespace
}  // namespace pmix::test
