// PMIx_Data_pack / PMIx_Data_unpack through the real framework: the
// library opens bfrops, finds the native codec (dlopen'd, or built in) and
// uses it. Public API only.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "pmix.h"

namespace {

TEST(DataPackApi, RoundTripsThroughTheDefaultCodec) {
  pmix_data_buffer_t b;
  PMIx_Data_buffer_construct(&b);
  pmix_proc_t peer;
  PMIX_PROC_LOAD(&peer, "peer", 0);
  int32_t ints[3] = {7, -1, 1 << 30};
  const char* strings[2] = {"hello", nullptr};
  pmix_info_t info;
  uint64_t big = 1ull << 40;
  PMIX_INFO_LOAD(&info, "pmix.test", &big, PMIX_UINT64);
  ASSERT_EQ(PMIX_SUCCESS, PMIx_Data_pack(nullptr, &b, ints, 3, PMIX_INT32));
  ASSERT_EQ(PMIX_SUCCESS, PMIx_Data_pack(&peer, &b, strings, 2, PMIX_STRING));
  ASSERT_EQ(PMIX_SUCCESS, PMIx_Data_pack(&peer, &b, &info, 1, PMIX_INFO));

  int32_t out[3] = {0, 0, 0};
  int32_t n = 3;
  ASSERT_EQ(PMIX_SUCCESS, PMIx_Data_unpack(nullptr, &b, out, &n, PMIX_INT32));
  EXPECT_EQ(3, n);
  EXPECT_EQ(0, std::memcmp(ints, out, sizeof ints));
  char* s[2] = {nullptr, nullptr};
  n = 2;
  ASSERT_EQ(PMIX_SUCCESS, PMIx_Data_unpack(&peer, &b, s, &n, PMIX_STRING));
  EXPECT_STREQ("hello", s[0]);
  EXPECT_EQ(nullptr, s[1]);
  std::free(s[0]);
  pmix_info_t got;
  n = 1;
  ASSERT_EQ(PMIX_SUCCESS, PMIx_Data_unpack(&peer, &b, &got, &n, PMIX_INFO));
  EXPECT_STREQ("pmix.test", got.key);
  EXPECT_EQ(PMIX_EQUAL, PMIx_Value_compare(&info.value, &got.value));
  PMIx_Info_destruct(&got);
  PMIx_Info_destruct(&info);
  n = 1;
  EXPECT_EQ(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER,
            PMIx_Data_unpack(nullptr, &b, out, &n, PMIX_INT32));
  PMIx_Data_buffer_destruct(&b);
}

TEST(DataPackApi, ValidatesArguments) {
  pmix_data_buffer_t b;
  PMIx_Data_buffer_construct(&b);
  int32_t v = 5;
  int32_t n = 1;
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, PMIx_Data_pack(nullptr, nullptr, &v, 1, PMIX_INT32));
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, PMIx_Data_pack(nullptr, &b, nullptr, 1, PMIX_INT32));
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, PMIx_Data_pack(nullptr, &b, &v, -1, PMIX_INT32));
  EXPECT_EQ(PMIX_SUCCESS, PMIx_Data_pack(nullptr, &b, nullptr, 0, PMIX_INT32));
  EXPECT_EQ(PMIX_ERR_UNKNOWN_DATA_TYPE, PMIx_Data_pack(nullptr, &b, &v, 1, 200));
  void* p = &v;
  EXPECT_EQ(PMIX_ERR_NOT_SUPPORTED, PMIx_Data_pack(nullptr, &b, &p, 1, PMIX_POINTER));
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, PMIx_Data_unpack(nullptr, nullptr, &v, &n, PMIX_INT32));
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, PMIx_Data_unpack(nullptr, &b, nullptr, &n, PMIX_INT32));
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, PMIx_Data_unpack(nullptr, &b, &v, nullptr, PMIX_INT32));
  ASSERT_EQ(PMIX_SUCCESS, PMIx_Data_pack(nullptr, &b, &v, 1, PMIX_INT32));
  int16_t small = 0;
  EXPECT_EQ(PMIX_ERR_PACK_MISMATCH, PMIx_Data_unpack(nullptr, &b, &small, &n, PMIX_INT16));
  n = 0;
  EXPECT_EQ(PMIX_ERR_UNPACK_INADEQUATE_SPACE, PMIx_Data_unpack(nullptr, &b, &v, &n, PMIX_INT32));
  n = 1;
  v = 0;
  EXPECT_EQ(PMIX_SUCCESS, PMIx_Data_unpack(nullptr, &b, &v, &n, PMIX_INT32));
  EXPECT_EQ(5, v);
  PMIx_Data_buffer_destruct(&b);
}

}  // namespace
