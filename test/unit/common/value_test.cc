// PMIx_Value_load/unload/xfer/destruct/create/free for every type and
// sample variant, with the results measured on OpenPMIx 4.2.2 (sizes
// reported by unload, status codes) and the documented deviations.
// Compare and get_number: value_compare_test.cc.
#include <gtest/gtest.h>
#include <sys/time.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <tuple>
#include <vector>

#include "pmix.h"
#include "src/common/data_types.h"
#include "test/unit/common/type_samples.h"

namespace pmix {
namespace {

using test::Sample;
using test::Variant;

// Owns a value for the duration of a test.
struct ScopedValue {
  pmix_value_t v;
  ScopedValue() { PMIx_Value_construct(&v); }
  ~ScopedValue() { PMIx_Value_destruct(&v); }
};

// What PMIx_Value_load expects for `sample` of `type`.
const void* LoadArgument(pmix_data_type_t type, const void* element) {
  const DataTypeOps& ops = *FindDataType(type);
  if (ops.load_input == LoadInput::kItself) {
    return *static_cast<void* const*>(element);  // the char* / void* itself
  }
  return element;
}

bool Storable(pmix_data_type_t type) {
  return FindDataType(type)->storage != ValueStorage::kNotStorable;
}

// --- every type x variant ---

class ValueRoundTrip
    : public ::testing::TestWithParam<std::tuple<pmix_data_type_t, Variant>> {
 protected:
  pmix_data_type_t type() const { return std::get<0>(GetParam()); }
  Variant variant() const { return std::get<1>(GetParam()); }
};

TEST_P(ValueRoundTrip, LoadXferCompareDestruct) {
  if (type() == PMIX_REGEX) GTEST_SKIP() << "loaded from text: see Regex test";
  Sample sample(type(), variant());
  ScopedValue loaded;
  pmix_status_t rc =
      PMIx_Value_load(&loaded.v, LoadArgument(type(), sample.get()), type());
  if (!Storable(type())) {
    EXPECT_EQ(rc, PMIX_ERR_NOT_SUPPORTED);
    EXPECT_EQ(loaded.v.type, PMIX_UNDEF);  // untouched
    return;
  }
  ASSERT_EQ(rc, PMIX_SUCCESS);
  EXPECT_EQ(loaded.v.type, type());
  ScopedValue copy;
  ASSERT_EQ(PMIx_Value_xfer(&copy.v, &loaded.v), PMIX_SUCCESS);
  EXPECT_EQ(copy.v.type, type());
  pmix_value_cmp_t expected = test::ComparesEqualToCopy(type(), variant())
                                  ? PMIX_EQUAL
                                  : PMIX_VALUE_COMPARISON_NOT_AVAIL;
  EXPECT_EQ(PMIx_Value_compare(&loaded.v, &copy.v), expected);
  if (FindDataType(type())->storage == ValueStorage::kBoxed &&
      loaded.v.data.ptr != nullptr) {
    EXPECT_NE(loaded.v.data.ptr, copy.v.data.ptr);  // deep
  }
}

TEST_P(ValueRoundTrip, UnloadReturnsAnEqualCopyOfTheDocumentedSize) {
  if (type() == PMIX_REGEX || !Storable(type())) GTEST_SKIP();
  Sample sample(type(), variant());
  ScopedValue value;
  ASSERT_EQ(
      PMIx_Value_load(&value.v, LoadArgument(type(), sample.get()), type()),
      PMIX_SUCCESS);
  const DataTypeOps& ops = *FindDataType(type());
  void* out = nullptr;
  size_t size = 12345;
  ASSERT_EQ(PMIx_Value_unload(&value.v, &out, &size), PMIX_SUCCESS);
  switch (ops.unload) {
    case UnloadMode::kIntoBuffer:
      EXPECT_EQ(size, ops.element_size);
      EXPECT_EQ(CompareElements(ops, out, sample.get()), PMIX_EQUAL);
      std::free(out);
      break;
    case UnloadMode::kNewCopy:
      if (out == nullptr) {  // a NULL boxed pointer
        EXPECT_EQ(size, 0u);
        break;
      }
      EXPECT_EQ(size, ops.element_size);
      if (test::ComparesEqualToCopy(type(), variant())) {
        EXPECT_EQ(CompareElements(ops, out, sample.get()), PMIX_EQUAL);
      }
      DestructElement(ops, out);
      std::free(out);
      break;
    case UnloadMode::kString: {
      const char* s = *static_cast<char**>(sample.get());
      if (s == nullptr) {
        EXPECT_EQ(out, nullptr);
        EXPECT_EQ(size, 0u);
      } else {
        EXPECT_STREQ(static_cast<char*>(out), s);
        EXPECT_EQ(size, std::strlen(s));  // OpenPMIx: no terminating NUL
      }
      std::free(out);
      break;
    }
    case UnloadMode::kBytes: {
      auto* bo = static_cast<pmix_byte_object_t*>(sample.get());
      EXPECT_EQ(size, bo->size);
      if (bo->size > 0) {
        EXPECT_EQ(std::memcmp(out, bo->bytes, size), 0);
      } else {
        EXPECT_EQ(out, nullptr);
      }
      std::free(out);
      break;
    }
    case UnloadMode::kPointer:
      EXPECT_EQ(out, *static_cast<void**>(sample.get()));
      EXPECT_EQ(size, sizeof(void*));
      break;
    case UnloadMode::kNspace:
      EXPECT_STREQ(static_cast<char*>(out), static_cast<char*>(sample.get()));
      EXPECT_EQ(size, std::strlen(static_cast<char*>(sample.get())));
      std::free(out);
      break;
    case UnloadMode::kNone:
      FAIL();
  }
}

TEST_P(ValueRoundTrip, LoadedValueOutlivesItsSource) {
  if (type() == PMIX_REGEX || !Storable(type())) GTEST_SKIP();
  ScopedValue value;
  {
    Sample sample(type(), variant());
    ASSERT_EQ(
        PMIx_Value_load(&value.v, LoadArgument(type(), sample.get()), type()),
        PMIX_SUCCESS);
  }  // the sample is destructed and freed here
  ScopedValue copy;
  EXPECT_EQ(PMIx_Value_xfer(&copy.v, &value.v), PMIX_SUCCESS);  // valgrind
}

std::string ValueName(
    const ::testing::TestParamInfo<ValueRoundTrip::ParamType>& info) {
  return test::TypeName(std::get<0>(info.param)) +
         test::VariantName(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(
    AllTypes, ValueRoundTrip,
    ::testing::Combine(::testing::ValuesIn(test::ElementTypes()),
                       ::testing::Values(Variant::kTypical, Variant::kEdge,
                                         Variant::kNulls)),
    ValueName);

// --- unload details measured on OpenPMIx 4.2.2 ---

struct ScalarUnload {
  pmix_data_type_t type;
  size_t size;
};

TEST(ValueUnload, ScalarsCopyIntoTheCallersBufferWithOpenPmixSizes) {
  const ScalarUnload cases[] = {
      {PMIX_BOOL, 1},
      {PMIX_BYTE, 1},
      {PMIX_SIZE, 8},
      {PMIX_PID, 4},
      {PMIX_INT, 4},
      {PMIX_INT8, 1},
      {PMIX_INT16, 2},
      {PMIX_INT32, 4},
      {PMIX_INT64, 8},
      {PMIX_UINT, 4},
      {PMIX_UINT8, 1},
      {PMIX_UINT16, 2},
      {PMIX_UINT32, 4},
      {PMIX_UINT64, 8},
      {PMIX_FLOAT, 4},
      {PMIX_DOUBLE, 8},
      {PMIX_TIMEVAL, 16},
      {PMIX_TIME, 8},
      {PMIX_STATUS, 4},
      {PMIX_PROC_RANK, 4},
      {PMIX_PERSIST, 1},
      {PMIX_SCOPE, 1},
      {PMIX_DATA_RANGE, 1},
      {PMIX_PROC_STATE, 1},
      {PMIX_ALLOC_DIRECTIVE, 1},
      {PMIX_JOB_STATE, 1},
      {PMIX_LINK_STATE, 1},
      {PMIX_DEVTYPE, 8},
      {PMIX_LOCTYPE, 2},
      {PMIX_STOR_MEDIUM, 8},
      {PMIX_STOR_ACCESS, 8},
      {PMIX_STOR_PERSIST, 8},
      {PMIX_STOR_ACCESS_TYPE, 2},
      {PMIX_PROC, 260},
  };
  for (const ScalarUnload& c : cases) {
    SCOPED_TRACE(c.type);
    Sample sample(c.type, Variant::kTypical);
    ScopedValue value;
    ASSERT_EQ(PMIx_Value_load(&value.v, sample.get(), c.type), PMIX_SUCCESS);
    unsigned char buffer[300];
    std::memset(buffer, 0xee, sizeof buffer);
    void* out = buffer;
    size_t size = 0;
    ASSERT_EQ(PMIx_Value_unload(&value.v, &out, &size), PMIX_SUCCESS);
    EXPECT_EQ(out, buffer);
    EXPECT_EQ(size, c.size);
    EXPECT_EQ(std::memcmp(buffer, sample.get(), c.size), 0);
    EXPECT_EQ(buffer[c.size], 0xee);  // nothing written past the value
  }
}

TEST(ValueUnload, NspaceFillsAWholeNspaceButReportsItsLength) {
  ScopedValue value;
  ASSERT_EQ(PMIx_Value_load(&value.v, "myns", PMIX_PROC_NSPACE), PMIX_SUCCESS);
  char buffer[300];
  std::memset(buffer, 'x', sizeof buffer);
  void* out = buffer;
  size_t size = 0;
  ASSERT_EQ(PMIx_Value_unload(&value.v, &out, &size), PMIX_SUCCESS);
  EXPECT_EQ(size, 4u);
  EXPECT_STREQ(buffer, "myns");
  EXPECT_EQ(buffer[PMIX_MAX_NSLEN], '\0');
  EXPECT_EQ(buffer[PMIX_MAX_NSLEN + 1], 'x');
}

TEST(ValueUnload, StringsAndBytesAreAlwaysFreshAllocations) {
  ScopedValue value;
  ASSERT_EQ(PMIx_Value_load(&value.v, "", PMIX_STRING), PMIX_SUCCESS);
  char buffer[8];
  void* out = buffer;
  size_t size = 99;
  ASSERT_EQ(PMIx_Value_unload(&value.v, &out, &size), PMIX_SUCCESS);
  EXPECT_NE(out, buffer);
  EXPECT_STREQ(static_cast<char*>(out), "");
  EXPECT_EQ(size, 0u);
  std::free(out);
}

TEST(ValueUnload, PointerIsHandedBackAsIs) {
  int target = 0;
  ScopedValue value;
  ASSERT_EQ(PMIx_Value_load(&value.v, &target, PMIX_POINTER), PMIX_SUCCESS);
  EXPECT_EQ(value.v.data.ptr, &target);
  void* out = nullptr;
  size_t size = 0;
  ASSERT_EQ(PMIx_Value_unload(&value.v, &out, &size), PMIX_SUCCESS);
  EXPECT_EQ(out, &target);
  EXPECT_EQ(size, sizeof(void*));
}

TEST(ValueUnload, RegexIsLoadedFromTextAndUnloadedAsBytes) {
  ScopedValue value;
  ASSERT_EQ(PMIx_Value_load(&value.v, "node[0-3]", PMIX_REGEX), PMIX_SUCCESS);
  EXPECT_EQ(value.v.data.bo.size, 10u);  // with its NUL
  void* out = nullptr;
  size_t size = 0;
  ASSERT_EQ(PMIx_Value_unload(&value.v, &out, &size), PMIX_SUCCESS);
  EXPECT_EQ(size, 10u);
  EXPECT_STREQ(static_cast<char*>(out), "node[0-3]");
  std::free(out);
}

struct UnloadError {
  const char* name;
  pmix_data_type_t type;
  pmix_status_t expected;
};

TEST(ValueUnload, RefusesWhatCannotBeUnloadedAndWritesNothing) {
  const UnloadError cases[] = {
      {"undef", PMIX_UNDEF, PMIX_ERR_UNKNOWN_DATA_TYPE},
      {"unknown code", 300, PMIX_ERR_UNKNOWN_DATA_TYPE},
      {"info (not held by values)", PMIX_INFO, PMIX_ERR_NOT_SUPPORTED},
      {"kval", PMIX_KVAL, PMIX_ERR_NOT_SUPPORTED},
  };
  for (const UnloadError& c : cases) {
    pmix_value_t value;
    std::memset(&value, 0, sizeof value);
    value.type = c.type;
    void* out = &value;
    size_t size = 77;
    EXPECT_EQ(PMIx_Value_unload(&value, &out, &size), c.expected) << c.name;
    EXPECT_EQ(out, &value) << c.name;
    EXPECT_EQ(size, 77u) << c.name;
  }
  ScopedValue value;
  void* out = nullptr;
  size_t size = 0;
  EXPECT_EQ(PMIx_Value_unload(nullptr, &out, &size), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_Value_unload(&value.v, nullptr, &size), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_Value_unload(&value.v, &out, nullptr), PMIX_ERR_BAD_PARAM);
}

// --- load edge cases ---

TEST(ValueLoad, NullDataLoadsTheZeroValueAndABareBoolIsTrue) {
  ScopedValue b;
  ASSERT_EQ(PMIx_Value_load(&b.v, nullptr, PMIX_BOOL), PMIX_SUCCESS);
  EXPECT_TRUE(b.v.data.flag);
  ScopedValue i;
  ASSERT_EQ(PMIx_Value_load(&i.v, nullptr, PMIX_INT64), PMIX_SUCCESS);
  EXPECT_EQ(i.v.data.int64, 0);
  for (pmix_data_type_t t : {PMIX_STRING, PMIX_PROC, PMIX_DATA_ARRAY,
                             PMIX_PROC_CPUSET, PMIX_TOPO, PMIX_BYTE_OBJECT}) {
    SCOPED_TRACE(t);
    ScopedValue v;
    ASSERT_EQ(PMIx_Value_load(&v.v, nullptr, t), PMIX_SUCCESS);
    EXPECT_EQ(v.v.data.ptr, nullptr);
    ScopedValue copy;  // every operation copes with the NULL inside
    EXPECT_EQ(PMIx_Value_xfer(&copy.v, &v.v), PMIX_SUCCESS);
    EXPECT_EQ(PMIx_Value_compare(&v.v, &copy.v), PMIX_EQUAL);
    void* out = &out;
    size_t size = 5;
    EXPECT_EQ(PMIx_Value_unload(&v.v, &out, &size), PMIX_SUCCESS);
    EXPECT_EQ(out, nullptr);
    EXPECT_EQ(size, 0u);
  }
}

TEST(ValueLoad, UndefLoadsAnEmptyValue) {
  ScopedValue v;
  int x = 1;
  EXPECT_EQ(PMIx_Value_load(&v.v, &x, PMIX_UNDEF), PMIX_SUCCESS);
  EXPECT_EQ(v.v.type, PMIX_UNDEF);
}

struct LoadError {
  const char* name;
  const void* data;
  pmix_data_type_t type;
  pmix_status_t expected;
};

int kSomeInt = 5;
pmix_data_array_t kBrokenArray{PMIX_STRING, 3, nullptr};

TEST(ValueLoad, FailuresLeaveTheDestinationUntouched) {
  const LoadError cases[] = {
      {"unknown code", &kSomeInt, 300, PMIX_ERR_UNKNOWN_DATA_TYPE},
      {"unused code 44", &kSomeInt, 44, PMIX_ERR_UNKNOWN_DATA_TYPE},
      {"info", &kSomeInt, PMIX_INFO, PMIX_ERR_NOT_SUPPORTED},
      {"value", &kSomeInt, PMIX_VALUE, PMIX_ERR_NOT_SUPPORTED},
      {"app", &kSomeInt, PMIX_APP, PMIX_ERR_NOT_SUPPORTED},
      {"pdata", &kSomeInt, PMIX_PDATA, PMIX_ERR_NOT_SUPPORTED},
      {"query", &kSomeInt, PMIX_QUERY, PMIX_ERR_NOT_SUPPORTED},
      {"kval", &kSomeInt, PMIX_KVAL, PMIX_ERR_NOT_SUPPORTED},
      {"malformed array", &kBrokenArray, PMIX_DATA_ARRAY, PMIX_ERR_BAD_PARAM},
  };
  for (const LoadError& c : cases) {
    pmix_value_t v;
    std::memset(&v, 0xab, sizeof v);
    pmix_value_t before = v;
    EXPECT_EQ(PMIx_Value_load(&v, c.data, c.type), c.expected) << c.name;
    EXPECT_EQ(std::memcmp(&v, &before, sizeof v), 0) << c.name;
  }
  EXPECT_EQ(PMIx_Value_load(nullptr, &kSomeInt, PMIX_INT), PMIX_ERR_BAD_PARAM);
}

TEST(ValueLoad, NspaceFromAShortStringReadsNoFurther) {
  const char* shorty = "ab";  // not a full pmix_nspace_t: valgrind checks
  ScopedValue v;
  ASSERT_EQ(PMIx_Value_load(&v.v, shorty, PMIX_PROC_NSPACE), PMIX_SUCCESS);
  EXPECT_STREQ(*v.v.data.nspace, "ab");
}

// --- xfer ---

TEST(ValueXfer, FailuresLeaveTheDestinationUntouched) {
  pmix_value_t src;
  std::memset(&src, 0, sizeof src);
  pmix_value_t dest;
  std::memset(&dest, 0xab, sizeof dest);
  pmix_value_t before = dest;
  for (pmix_data_type_t t : {300, 26, PMIX_INFO}) {
    src.type = t;
    EXPECT_NE(PMIx_Value_xfer(&dest, &src), PMIX_SUCCESS) << t;
    EXPECT_EQ(std::memcmp(&dest, &before, sizeof dest), 0) << t;
  }
  src.type = 300;
  EXPECT_EQ(PMIx_Value_xfer(&dest, &src), PMIX_ERR_UNKNOWN_DATA_TYPE);
  src.type = PMIX_INT;
  EXPECT_EQ(PMIx_Value_xfer(nullptr, &src), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_Value_xfer(&dest, nullptr), PMIX_ERR_BAD_PARAM);
}

TEST(ValueXfer, DoesNotReleaseWhatTheDestinationHeld) {
  // Destinations are raw storage (callers pass uninitialised structs).
  ScopedValue src;
  ASSERT_EQ(PMIx_Value_load(&src.v, "new", PMIX_STRING), PMIX_SUCCESS);
  char* old = strdup("old");
  pmix_value_t dest;
  dest.type = PMIX_STRING;
  dest.data.string = old;
  ASSERT_EQ(PMIx_Value_xfer(&dest, &src.v), PMIX_SUCCESS);
  EXPECT_STREQ(old, "old");  // still ours
  std::free(old);
  PMIx_Value_destruct(&dest);
}

// --- destruct / construct / create / free ---

TEST(ValueDestruct, ResetsToUndefAndToleratesNullAndUnknownTypes) {
  ScopedValue v;
  ASSERT_EQ(PMIx_Value_load(&v.v, "text", PMIX_STRING), PMIX_SUCCESS);
  PMIx_Value_destruct(&v.v);
  EXPECT_EQ(v.v.type, PMIX_UNDEF);
  EXPECT_EQ(v.v.data.ptr, nullptr);
  PMIx_Value_destruct(nullptr);
  pmix_value_t odd;
  odd.type = 300;
  odd.data.ptr = &odd;  // not ours to free
  PMIx_Value_destruct(&odd);
  EXPECT_EQ(odd.type, PMIX_UNDEF);
}

TEST(ValueCreate, CreatesConstructedValuesAndFreesThemDeeply) {
  EXPECT_EQ(PMIx_Value_create(0), nullptr);
  pmix_value_t* values = PMIx_Value_create(3);
  ASSERT_NE(values, nullptr);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(values[i].type, PMIX_UNDEF);
  ASSERT_EQ(PMIx_Value_load(&values[2], "owned", PMIX_STRING), PMIX_SUCCESS);
  PMIx_Value_free(values, 3);
  PMIx_Value_free(nullptr, 3);
  pmix_value_t v;
  std::memset(&v, 0xff, sizeof v);
  PMIx_Value_construct(&v);
  EXPECT_EQ(v.type, PMIX_UNDEF);
  EXPECT_EQ(v.data.uint64, 0u);
}

}  // namespace
}  // namespace pmix
