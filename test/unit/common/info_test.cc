// PMIx_Info_*: load/xfer for every type, keys, directives, persistence,
// the boolean reading of infos and values, and the array helpers.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>

#include "pmix.h"
#include "src/common/data_types.h"
#include "test/unit/common/type_samples.h"

namespace pmix {
namespace {

using test::Sample;
using test::Variant;

struct ScopedInfo {
  pmix_info_t info;
  ScopedInfo() { PMIx_Info_construct(&info); }
  ~ScopedInfo() { PMIx_Info_destruct(&info); }
};

const void* LoadArgument(pmix_data_type_t type, const void* element) {
  if (FindDataType(type)->load_input == LoadInput::kItself) {
    return *static_cast<void* const*>(element);
  }
  return element;
}

// --- every type x variant through PMIx_Info_load / PMIx_Info_xfer ---

class InfoRoundTrip
    : public ::testing::TestWithParam<std::tuple<pmix_data_type_t, Variant>> {};

TEST_P(InfoRoundTrip, LoadThenXferGivesAnEqualIndependentCopy) {
  auto [type, variant] = GetParam();
  if (type == PMIX_REGEX) GTEST_SKIP() << "loaded from text";
  Sample sample(type, variant);
  ScopedInfo loaded;
  pmix_status_t rc = PMIx_Info_load(&loaded.info, "pmix.test",
                                    LoadArgument(type, sample.get()), type);
  if (FindDataType(type)->storage == ValueStorage::kNotStorable) {
    EXPECT_EQ(rc, PMIX_ERR_NOT_SUPPORTED);
    EXPECT_STREQ(loaded.info.key, "");  // untouched
    return;
  }
  ASSERT_EQ(rc, PMIX_SUCCESS);
  EXPECT_STREQ(loaded.info.key, "pmix.test");
  EXPECT_EQ(loaded.info.flags, 0u);
  ScopedInfo copy;
  ASSERT_EQ(PMIx_Info_xfer(&copy.info, &loaded.info), PMIX_SUCCESS);
  EXPECT_STREQ(copy.info.key, "pmix.test");
  if (test::ComparesEqualToCopy(type, variant)) {
    EXPECT_EQ(PMIx_Value_compare(&loaded.info.value, &copy.info.value),
              PMIX_EQUAL);
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllTypes, InfoRoundTrip,
    ::testing::Combine(::testing::ValuesIn(test::ElementTypes()),
                       ::testing::Values(Variant::kTypical, Variant::kEdge,
                                         Variant::kNulls)),
    [](const auto& info) {
      return test::TypeName(std::get<0>(info.param)) +
             test::VariantName(std::get<1>(info.param));
    });

// --- keys ---

TEST(InfoLoad, AcceptsKeysUpToMaxKeylenAndRefusesLongerOnes) {
  std::string longest(PMIX_MAX_KEYLEN, 'k');
  ScopedInfo ok;
  int x = 3;
  ASSERT_EQ(PMIx_Info_load(&ok.info, longest.c_str(), &x, PMIX_INT),
            PMIX_SUCCESS);
  EXPECT_EQ(std::strlen(ok.info.key), static_cast<size_t>(PMIX_MAX_KEYLEN));

  // Deviation: OpenPMIx 4.2.2 silently truncates; we refuse.
  std::string too_long(PMIX_MAX_KEYLEN + 1, 'k');
  pmix_info_t info;
  std::memset(&info, 0xab, sizeof info);
  pmix_info_t before = info;
  EXPECT_EQ(PMIx_Info_load(&info, too_long.c_str(), &x, PMIX_INT),
            PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_Info_load(&info, nullptr, &x, PMIX_INT), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_Info_load(&info, "k", &x, 300), PMIX_ERR_UNKNOWN_DATA_TYPE);
  EXPECT_EQ(PMIx_Info_load(&info, "k", &x, PMIX_INFO), PMIX_ERR_NOT_SUPPORTED);
  EXPECT_EQ(std::memcmp(&info, &before, sizeof info), 0);
  EXPECT_EQ(PMIx_Info_load(nullptr, "k", &x, PMIX_INT), PMIX_ERR_BAD_PARAM);
}

TEST(InfoLoad, ResetsDirectivesAndTreatsTheInfoAsRawStorage) {
  pmix_info_t info;
  std::memset(&info, 0x5a, sizeof info);  // as if uninitialised
  ASSERT_EQ(PMIx_Info_load(&info, "pmix.bool", nullptr, PMIX_BOOL),
            PMIX_SUCCESS);
  EXPECT_EQ(info.flags, 0u);  // as OpenPMIx 4.2.2
  EXPECT_EQ(info.value.type, PMIX_BOOL);
  EXPECT_TRUE(info.value.data.flag);
  EXPECT_TRUE(PMIx_Info_true(&info));
  PMIx_Info_destruct(&info);
}

// --- xfer ---

TEST(InfoXfer, CopiesKeyDirectivesAndValueDeeply) {
  ScopedInfo src;
  ASSERT_EQ(PMIx_Info_load(&src.info, "k", "text", PMIX_STRING), PMIX_SUCCESS);
  src.info.flags = PMIX_INFO_REQD | PMIX_INFO_ARRAY_END;
  pmix_info_t dest;
  std::memset(&dest, 0x5a, sizeof dest);
  dest.flags = 0x20;
  ASSERT_EQ(PMIx_Info_xfer(&dest, &src.info), PMIX_SUCCESS);
  EXPECT_EQ(dest.flags, PMIX_INFO_REQD | PMIX_INFO_ARRAY_END);  // replaced
  EXPECT_STREQ(dest.key, "k");
  EXPECT_NE(dest.value.data.string, src.info.value.data.string);
  EXPECT_STREQ(dest.value.data.string, "text");
  PMIx_Info_destruct(&dest);
}

TEST(InfoXfer, APersistentSourceIsCopiedShallowly) {
  char* owned = strdup("caller's");
  pmix_info_t src;
  PMIx_Info_construct(&src);
  PMIx_Load_key(src.key, "p");
  src.flags = PMIX_INFO_PERSISTENT;
  src.value.type = PMIX_STRING;
  src.value.data.string = owned;
  pmix_info_t dest;
  ASSERT_EQ(PMIx_Info_xfer(&dest, &src), PMIX_SUCCESS);
  EXPECT_EQ(dest.value.data.string, owned);
  EXPECT_EQ(dest.flags,
            static_cast<pmix_info_directives_t>(PMIX_INFO_PERSISTENT));
  PMIx_Info_destruct(&dest);  // leaves the caller's data alone
  PMIx_Info_destruct(&src);
  EXPECT_STREQ(owned, "caller's");
  std::free(owned);
}

TEST(InfoXfer, FailuresLeaveTheDestinationUntouched) {
  pmix_info_t src;
  PMIx_Info_construct(&src);
  PMIx_Load_key(src.key, "bad");
  src.value.type = 300;
  pmix_info_t dest;
  std::memset(&dest, 0xab, sizeof dest);
  pmix_info_t before = dest;
  EXPECT_EQ(PMIx_Info_xfer(&dest, &src), PMIX_ERR_UNKNOWN_DATA_TYPE);
  EXPECT_EQ(std::memcmp(&dest, &before, sizeof dest), 0);
  EXPECT_EQ(PMIx_Info_xfer(nullptr, &src), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_Info_xfer(&dest, nullptr), PMIX_ERR_BAD_PARAM);
}

// --- truth ---

struct TruthCase {
  const char* name;
  pmix_data_type_t type;
  const void* data;
  pmix_boolean_t expected;
};

bool kYes = true, kNo = false;
int kInt = 1;

TEST(InfoTrue, ReadsBooleansStringsAndBareKeysLikeOpenPmix) {
  const TruthCase cases[] = {
      {"bare key", PMIX_UNDEF, nullptr, PMIX_BOOL_TRUE},
      {"bool true", PMIX_BOOL, &kYes, PMIX_BOOL_TRUE},
      {"bool false", PMIX_BOOL, &kNo, PMIX_BOOL_FALSE},
      {"bool without data", PMIX_BOOL, nullptr, PMIX_BOOL_TRUE},
      {"NULL string", PMIX_STRING, nullptr, PMIX_BOOL_TRUE},
      {"empty string", PMIX_STRING, "", PMIX_BOOL_TRUE},
      {"blank string", PMIX_STRING, "  \t", PMIX_BOOL_TRUE},
      {"digit one", PMIX_STRING, "1", PMIX_BOOL_TRUE},
      {"digit zero", PMIX_STRING, " 0", PMIX_BOOL_FALSE},
      {"number 10", PMIX_STRING, "10", PMIX_BOOL_TRUE},
      {"yes", PMIX_STRING, "yes", PMIX_BOOL_TRUE},
      {"TRUE", PMIX_STRING, "TRUE", PMIX_BOOL_TRUE},
      {"no", PMIX_STRING, "No", PMIX_BOOL_FALSE},
      {"false", PMIX_STRING, "false", PMIX_BOOL_FALSE},
      {"other word", PMIX_STRING, "maybe", PMIX_NON_BOOL},
      {"an int", PMIX_INT, &kInt, PMIX_NON_BOOL},
  };
  for (const TruthCase& c : cases) {
    ScopedInfo i;
    ASSERT_EQ(PMIx_Info_load(&i.info, "k", c.data, c.type), PMIX_SUCCESS)
        << c.name;
    EXPECT_EQ(PMIx_Value_true(&i.info.value), c.expected) << c.name;
    EXPECT_EQ(PMIx_Info_true(&i.info), c.expected == PMIX_BOOL_TRUE) << c.name;
    EXPECT_EQ(PMIX_INFO_TRUE(&i.info), c.expected == PMIX_BOOL_TRUE) << c.name;
  }
  EXPECT_FALSE(PMIx_Info_true(nullptr));
  EXPECT_EQ(PMIx_Value_true(nullptr), PMIX_NON_BOOL);
}

// --- directive flags ---

TEST(InfoFlags, SetAndTestEachDirective) {
  ScopedInfo i;
  EXPECT_TRUE(PMIx_Info_is_optional(&i.info));
  EXPECT_FALSE(PMIx_Info_is_required(&i.info));
  PMIx_Info_required(&i.info);
  EXPECT_TRUE(PMIx_Info_is_required(&i.info));
  EXPECT_FALSE(PMIx_Info_is_optional(&i.info));
  PMIx_Info_processed(&i.info);
  EXPECT_TRUE(PMIx_Info_was_processed(&i.info));
  PMIx_Info_optional(&i.info);
  EXPECT_TRUE(PMIx_Info_is_optional(&i.info));
  EXPECT_TRUE(PMIx_Info_was_processed(&i.info));  // other bits kept
  EXPECT_FALSE(PMIx_Info_is_end(&i.info));
  PMIx_Info_set_end(&i.info);
  EXPECT_TRUE(PMIx_Info_is_end(&i.info));
  // NULL-safe
  PMIx_Info_required(nullptr);
  PMIx_Info_optional(nullptr);
  PMIx_Info_processed(nullptr);
  PMIx_Info_set_end(nullptr);
  EXPECT_FALSE(PMIx_Info_is_required(nullptr));
  EXPECT_FALSE(PMIx_Info_is_optional(nullptr));
  EXPECT_FALSE(PMIx_Info_was_processed(nullptr));
  EXPECT_FALSE(PMIx_Info_is_end(nullptr));
}

// --- arrays ---

TEST(InfoCreate, MarksTheLastElementAndFreesDeeply) {
  EXPECT_EQ(PMIx_Info_create(0), nullptr);
  pmix_info_t* infos = PMIx_Info_create(3);
  ASSERT_NE(infos, nullptr);
  EXPECT_EQ(infos[0].flags, 0u);
  EXPECT_EQ(infos[1].flags, 0u);
  EXPECT_EQ(infos[2].flags,
            static_cast<pmix_info_directives_t>(PMIX_INFO_ARRAY_END));
  EXPECT_EQ(infos[2].value.type, PMIX_UNDEF);
  ASSERT_EQ(PMIx_Info_load(&infos[0], "a", "owned", PMIX_STRING), PMIX_SUCCESS);
  pmix_data_array_t nested{PMIX_STRING, 0, nullptr};
  ASSERT_EQ(PMIx_Info_load(&infos[1], "b", &nested, PMIX_DATA_ARRAY),
            PMIX_SUCCESS);
  PMIx_Info_free(infos, 3);
  PMIx_Info_free(nullptr, 3);
}

TEST(InfoDestruct, ReleasesOwnedValuesButNotPersistentOnes) {
  ScopedInfo owned;
  ASSERT_EQ(PMIx_Info_load(&owned.info, "k", "text", PMIX_STRING),
            PMIX_SUCCESS);
  PMIx_Info_destruct(&owned.info);
  EXPECT_EQ(owned.info.value.type, PMIX_UNDEF);
  EXPECT_STREQ(owned.info.key, "");

  char text[] = "stack";
  pmix_info_t persistent;
  PMIx_Info_construct(&persistent);
  persistent.flags = PMIX_INFO_PERSISTENT;
  persistent.value.type = PMIX_STRING;
  persistent.value.data.string = text;  // would crash free()
  PMIx_Info_destruct(&persistent);
  EXPECT_EQ(persistent.value.type, PMIX_UNDEF);
  PMIx_Info_destruct(nullptr);
}

}  // namespace
}  // namespace pmix
