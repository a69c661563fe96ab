// PMIx_Info_list_*: the opaque list behind void*, its conversion to a
// pmix_data_array_t of PMIX_INFO (as OpenPMIx 4.2.2 produces it), the
// shallow insert, and refusal of bad input without changing the list.
#include "src/common/info_list.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "pmix.h"

namespace pmix {
namespace {

// Owns a list for the duration of a test.
struct ScopedList {
  void* list = PMIx_Info_list_start();
  ~ScopedList() { PMIx_Info_list_release(list); }
};

struct ScopedArray {
  pmix_data_array_t a{PMIX_UNDEF, 0, nullptr};
  ~ScopedArray() { PMIx_Data_array_destruct(&a); }
  pmix_info_t* infos() const { return static_cast<pmix_info_t*>(a.array); }
};

TEST(InfoList, StartsEmptyAndConvertsToAnEmptyInfoArray) {
  ScopedList l;
  ASSERT_NE(l.list, nullptr);
  pmix_data_array_t a;
  std::memset(&a, 0x5a, sizeof a);
  // OpenPMIx 4.2.2: PMIX_ERR_EMPTY, and the array is set to {INFO, 0, NULL}.
  EXPECT_EQ(PMIx_Info_list_convert(l.list, &a), PMIX_ERR_EMPTY);
  EXPECT_EQ(a.type, PMIX_INFO);
  EXPECT_EQ(a.size, 0u);
  EXPECT_EQ(a.array, nullptr);
}

TEST(InfoList, ConvertCopiesEntriesInOrderWithTheirDirectives) {
  ScopedList l;
  int five = 5;
  ASSERT_EQ(PMIx_Info_list_add(l.list, "k1", &five, PMIX_INT), PMIX_SUCCESS);
  ASSERT_EQ(PMIx_Info_list_add(l.list, "k2", nullptr, PMIX_BOOL), PMIX_SUCCESS);
  ASSERT_EQ(PMIx_Info_list_add(l.list, "k3", "text", PMIX_STRING),
            PMIX_SUCCESS);
  pmix_info_t src;
  PMIx_Info_construct(&src);
  ASSERT_EQ(PMIx_Info_load(&src, "k4", "xfer", PMIX_STRING), PMIX_SUCCESS);
  PMIx_Info_required(&src);
  ASSERT_EQ(PMIx_Info_list_xfer(l.list, &src), PMIX_SUCCESS);
  PMIx_Info_destruct(&src);  // the list holds its own copy

  ScopedArray out;
  ASSERT_EQ(PMIx_Info_list_convert(l.list, &out.a), PMIX_SUCCESS);
  EXPECT_EQ(out.a.type, PMIX_INFO);
  ASSERT_EQ(out.a.size, 4u);
  pmix_info_t* infos = out.infos();
  EXPECT_STREQ(infos[0].key, "k1");
  EXPECT_EQ(infos[0].value.data.integer, 5);
  EXPECT_TRUE(infos[1].value.data.flag);
  EXPECT_STREQ(infos[2].value.data.string, "text");
  EXPECT_STREQ(infos[3].value.data.string, "xfer");
  EXPECT_EQ(infos[3].flags,
            static_cast<pmix_info_directives_t>(PMIX_INFO_REQD));
  // No PMIX_INFO_ARRAY_END on the last element (as OpenPMIx 4.2.2).
  EXPECT_EQ(infos[2].flags, 0u);

  ScopedArray again;  // the list is unchanged by conversion
  ASSERT_EQ(PMIx_Info_list_convert(l.list, &again.a), PMIX_SUCCESS);
  EXPECT_EQ(again.a.size, 4u);
  EXPECT_NE(again.infos()[2].value.data.string, infos[2].value.data.string);
}

TEST(InfoList, InsertAliasesTheCallersDataAndMarksItPersistent) {
  auto* info = static_cast<pmix_info_t*>(std::malloc(sizeof(pmix_info_t)));
  PMIx_Info_construct(info);
  PMIx_Load_key(info->key, "shared");
  info->value.type = PMIX_STRING;
  info->value.data.string = strdup("caller-owned");
  ScopedArray out;
  {
    ScopedList l;
    ASSERT_EQ(PMIx_Info_list_insert(l.list, info), PMIX_SUCCESS);
    EXPECT_EQ(info->flags, 0u);  // the caller's info is not modified
    ASSERT_EQ(PMIx_Info_list_convert(l.list, &out.a), PMIX_SUCCESS);
    ASSERT_EQ(out.a.size, 1u);
    EXPECT_EQ(out.infos()[0].value.data.string, info->value.data.string);
    EXPECT_EQ(out.infos()[0].flags,
              static_cast<pmix_info_directives_t>(PMIX_INFO_PERSISTENT));
  }  // list released: the data survives
  EXPECT_STREQ(info->value.data.string, "caller-owned");
  PMIx_Data_array_destruct(&out.a);  // still survives
  EXPECT_STREQ(info->value.data.string, "caller-owned");
  PMIx_Info_destruct(info);
  std::free(info);
}

TEST(InfoList, RefusesBadInputAndStaysUnchanged) {
  ScopedList l;
  int x = 1;
  ASSERT_EQ(PMIx_Info_list_add(l.list, "keep", &x, PMIX_INT), PMIX_SUCCESS);
  std::string too_long(PMIX_MAX_KEYLEN + 1, 'k');
  // OpenPMIx 4.2.2 accepts (and truncates / stores garbage for) all of these.
  EXPECT_EQ(PMIx_Info_list_add(l.list, too_long.c_str(), &x, PMIX_INT),
            PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_Info_list_add(l.list, nullptr, &x, PMIX_INT),
            PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_Info_list_add(l.list, "k", &x, 300),
            PMIX_ERR_UNKNOWN_DATA_TYPE);
  EXPECT_EQ(PMIx_Info_list_add(l.list, "k", &x, PMIX_APP),
            PMIX_ERR_NOT_SUPPORTED);
  EXPECT_EQ(PMIx_Info_list_xfer(l.list, nullptr), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_Info_list_insert(l.list, nullptr), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_Info_list_convert(l.list, nullptr), PMIX_ERR_BAD_PARAM);
  pmix_info_t bad;
  PMIx_Info_construct(&bad);
  bad.value.type = 300;
  EXPECT_EQ(PMIx_Info_list_xfer(l.list, &bad), PMIX_ERR_UNKNOWN_DATA_TYPE);

  ScopedArray out;
  ASSERT_EQ(PMIx_Info_list_convert(l.list, &out.a), PMIX_SUCCESS);
  EXPECT_EQ(out.a.size, 1u);
  EXPECT_STREQ(out.infos()[0].key, "keep");
}

TEST(InfoList, NullOrReleasedHandlesAreRefused) {
  int x = 1;
  pmix_info_t info;
  PMIx_Info_construct(&info);
  pmix_data_array_t a;
  EXPECT_EQ(PMIx_Info_list_add(nullptr, "k", &x, PMIX_INT), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_Info_list_xfer(nullptr, &info), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_Info_list_insert(nullptr, &info), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_Info_list_convert(nullptr, &a), PMIX_ERR_BAD_PARAM);
  PMIx_Info_list_release(nullptr);
  // Something that is not a list (best-effort tag check).
  uint64_t not_a_list[4] = {0, 0, 0, 0};
  EXPECT_EQ(PMIx_Info_list_add(not_a_list, "k", &x, PMIX_INT),
            PMIX_ERR_BAD_PARAM);
}

TEST(InfoList, KeepsThousandsOfEntriesInOrder) {
  ScopedList l;
  for (int i = 0; i < 2000; ++i) {
    std::string key = "key" + std::to_string(i);
    ASSERT_EQ(PMIx_Info_list_add(l.list, key.c_str(), &i, PMIX_INT),
              PMIX_SUCCESS);
  }
  ScopedArray out;
  ASSERT_EQ(PMIx_Info_list_convert(l.list, &out.a), PMIX_SUCCESS);
  ASSERT_EQ(out.a.size, 2000u);
  for (int i = 0; i < 2000; i += 499) {
    EXPECT_EQ(out.infos()[i].value.data.integer, i);
    EXPECT_EQ(std::string(out.infos()[i].key), "key" + std::to_string(i));
  }
}

TEST(InfoList, ConvertedArrayHoldsNestedDataArrays) {
  ScopedList l;
  pmix_proc_t procs[2];
  PMIx_Load_procid(&procs[0], "ns", 0);
  PMIx_Load_procid(&procs[1], "ns", 1);
  pmix_data_array_t darray{PMIX_PROC, 2, procs};
  ASSERT_EQ(PMIx_Info_list_add(l.list, "procs", &darray, PMIX_DATA_ARRAY),
            PMIX_SUCCESS);
  ScopedArray out;
  ASSERT_EQ(PMIx_Info_list_convert(l.list, &out.a), PMIX_SUCCESS);
  pmix_data_array_t* copy = out.infos()[0].value.data.darray;
  ASSERT_NE(copy, nullptr);
  EXPECT_NE(copy->array, procs);
  EXPECT_EQ(static_cast<pmix_proc_t*>(copy->array)[1].rank, 1u);
}

// The C++ class is usable directly by the rest of the library.
TEST(InfoListClass, AddXferInsertConvert) {
  InfoList list;
  EXPECT_TRUE(list.IsValid());
  int x = 4;
  ASSERT_TRUE(list.Add("a", &x, PMIX_INT).ok());
  EXPECT_EQ(list.Add("b", &x, 300).code(), PMIX_ERR_UNKNOWN_DATA_TYPE);
  EXPECT_EQ(list.size(), 1u);
  pmix_data_array_t out;
  ASSERT_TRUE(list.Convert(&out).ok());
  EXPECT_EQ(out.size, 1u);
  PMIx_Data_array_destruct(&out);
}

}  // namespace
}  // namespace pmix
