// The record format of process data (proc_data.h): framing without
// decoding, concatenation, and refusal of truncated or corrupt blobs.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "mca/bfrops/base/bfrops_base.h"
#include "pmix.h"
#include "src/wire/proc_data.h"

namespace pmix::wire {
namespace {

class ProcDataTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto codec = bfrops::DefaultCodec();
    ASSERT_TRUE(codec.ok());
    codec_ = *codec;
  }
  static pmix_proc_t P(const char* nspace, pmix_rank_t rank) {
    pmix_proc_t p;
    PMIx_Load_procid(&p, nspace, rank);
    return p;
  }
  // A record of proc with a string "k" = value and an n-byte blob "b".
  Bytes Record(const pmix_proc_t& proc, const char* value, size_t n = 16) {
    Infos kvs;
    EXPECT_TRUE(kvs.Add("k", value, PMIX_STRING).ok());
    std::string bytes(n, 'x');
    pmix_byte_object_t bo{bytes.data(), bytes.size()};
    EXPECT_TRUE(kvs.Add("b", &bo, PMIX_BYTE_OBJECT).ok());
    Bytes out;
    EXPECT_TRUE(AppendRecord(codec_, proc, kvs.view(), out).ok());
    return out;
  }
  std::string StringOf(const Infos& kvs, const char* key) {
    for (const pmix_info_t& kv : kvs.view())
      if (std::strcmp(kv.key, key) == 0 && kv.value.type == PMIX_STRING) return kv.value.data.string;
    return "<absent>";
  }
  const pmix_bfrops_module_t* codec_ = nullptr;
};

TEST_F(ProcDataTest, IndexFindsEveryRecordOfAConcatenation) {
  Bytes blob = Record(P("ns", 0), "zero", 1000);
  Bytes two = Record(P("other", 7), "seven");
  blob.insert(blob.end(), two.begin(), two.end());
  auto refs = IndexRecords(codec_, blob);
  ASSERT_TRUE(refs.ok());
  ASSERT_EQ(refs->size(), 2u);
  EXPECT_EQ((*refs)[0].offset, 0u);
  EXPECT_EQ((*refs)[0].size + (*refs)[1].size, blob.size());
  EXPECT_EQ((*refs)[1].proc.rank, 7u);
  EXPECT_STREQ((*refs)[1].proc.nspace, "other");
  auto kvs = DecodeKvs(codec_, (*refs)[1].Kvs(blob));
  ASSERT_TRUE(kvs.ok());
  EXPECT_EQ(StringOf(*kvs, "k"), "seven");
  // A record's bytes are a blob of their own.
  auto alone = IndexRecords(codec_, (*refs)[1].Record(blob));
  ASSERT_TRUE(alone.ok());
  EXPECT_EQ(alone->size(), 1u);
}

TEST_F(ProcDataTest, IndexDoesNotDecodeKeyValues) {
  Bytes blob = Record(P("ns", 0), "zero");
  auto refs = IndexRecords(codec_, blob);
  ASSERT_TRUE(refs.ok());
  // Garbage inside the key/values: the frame still holds, the decode fails.
  Bytes bad = blob;
  for (size_t i = (*refs)[0].kvs_offset; i < bad.size(); ++i) bad[i] = 0xff;
  auto framed = IndexRecords(codec_, bad);
  ASSERT_TRUE(framed.ok());
  EXPECT_FALSE(DecodeKvs(codec_, (*framed)[0].Kvs(bad)).ok());
}

TEST_F(ProcDataTest, KeysAreFoundWithoutDecodingValues) {
  Bytes blob = Record(P("ns", 0), "zero", 5000);
  auto refs = IndexRecords(codec_, blob);
  ASSERT_TRUE(refs.ok());
  std::span<const uint8_t> kvs = (*refs)[0].Kvs(blob);
  auto keys = IndexKvs(codec_, kvs);
  ASSERT_TRUE(keys.ok());
  ASSERT_EQ(keys->size(), 2u);
  EXPECT_EQ((*keys)[0].key, "k");
  EXPECT_EQ((*keys)[1].key, "b");
  auto k = DecodeValue(codec_, kvs.subspan((*keys)[0].value_offset, (*keys)[0].value_size));
  ASSERT_TRUE(k.ok());
  EXPECT_STREQ((*k)->data.string, "zero");
  auto b = DecodeValue(codec_, kvs.subspan((*keys)[1].value_offset, (*keys)[1].value_size));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ((*b)->data.bo.size, 5000u);
  // A damaged value is found by its key but does not decode.
  Bytes bad(kvs.begin(), kvs.end());
  for (size_t i = 0; i < (*keys)[1].value_size; ++i) bad[(*keys)[1].value_offset + i] = 0xfe;
  auto still = IndexKvs(codec_, bad);
  ASSERT_TRUE(still.ok());
  EXPECT_FALSE(DecodeValue(codec_, std::span<const uint8_t>(bad).subspan((*keys)[1].value_offset,
                                                                         (*keys)[1].value_size))
                   .ok());
  EXPECT_FALSE(DecodeKvs(codec_, bad).ok());
  // A value span with a byte too many is refused.
  Bytes longer(kvs.begin() + static_cast<ptrdiff_t>((*keys)[0].value_offset),
               kvs.begin() + static_cast<ptrdiff_t>((*keys)[0].value_offset + (*keys)[0].value_size));
  longer.push_back(0);
  EXPECT_EQ(DecodeValue(codec_, longer).status().code(), PMIX_ERR_UNPACK_FAILURE);
}

TEST_F(ProcDataTest, BadKeysAreRefused) {
  for (const std::string& key : {std::string(), std::string(PMIX_MAX_KEYLEN + 1, 'k')}) {
    Writer w(codec_);
    w.U32(1).Str(key).U64(0);
    auto bytes = w.Take();
    ASSERT_TRUE(bytes.ok());
    EXPECT_EQ(IndexKvs(codec_, *bytes).status().code(), PMIX_ERR_BAD_PARAM) << key.size();
  }
}

TEST_F(ProcDataTest, EveryTruncationIsRefused) {
  Bytes blob = Record(P("ns", 3), "three", 100);
  for (size_t n = 1; n < blob.size(); ++n) {
    std::span<const uint8_t> cut(blob.data(), n);
    auto refs = IndexRecords(codec_, cut);
    EXPECT_FALSE(refs.ok()) << n;
    EXPECT_FALSE(DecodeProcDataBlob(cut).ok()) << n;
  }
  auto empty = IndexRecords(codec_, {});
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST_F(ProcDataTest, AnOversizeLengthIsRefused) {
  Writer w(codec_);
  w.Proc(P("ns", 0)).U64(~0ull);
  auto bytes = w.Take();
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(IndexRecords(codec_, *bytes).status().code(), PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
}

TEST_F(ProcDataTest, TrailingBytesInsideARecordAreRefused) {
  Bytes blob = Record(P("ns", 0), "zero");
  auto refs = IndexRecords(codec_, blob);
  ASSERT_TRUE(refs.ok());
  std::span<const uint8_t> kvs = (*refs)[0].Kvs(blob);
  Bytes longer(kvs.begin(), kvs.end());
  longer.push_back(7);  // a byte past the last key/value
  EXPECT_EQ(IndexKvs(codec_, longer).status().code(), PMIX_ERR_UNPACK_FAILURE);
  EXPECT_EQ(DecodeKvs(codec_, longer).status().code(), PMIX_ERR_UNPACK_FAILURE);
  for (size_t n = 0; n < kvs.size(); ++n)
    EXPECT_FALSE(DecodeKvs(codec_, kvs.subspan(0, n)).ok()) << n;
}

TEST_F(ProcDataTest, AnEmptyNspaceIsRefused) {
  pmix_proc_t nobody{};
  Infos kvs;
  Bytes out;
  ASSERT_TRUE(AppendRecord(codec_, nobody, kvs.view(), out).ok());
  EXPECT_EQ(IndexRecords(codec_, out).status().code(), PMIX_ERR_BAD_PARAM);
}

TEST_F(ProcDataTest, TranscodeToTheSameCodecKeepsTheBytes) {
  Bytes blob = Record(P("ns", 1), "one");
  auto same = Transcode(codec_, codec_, blob);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(*same, blob);
}

TEST_F(ProcDataTest, DecodedRecordsRoundTrip) {
  std::vector<ProcData> records(2);
  records[0].proc = P("ns", 0);
  records[1].proc = P("ns", PMIX_RANK_WILDCARD);
  uint32_t v = 5;
  ASSERT_TRUE(records[1].kvs.Add("x", &v, PMIX_UINT32).ok());
  auto blob = EncodeProcDataBlob(records);
  ASSERT_TRUE(blob.ok());
  auto back = DecodeProcDataBlob(*blob);
  ASSERT_TRUE(back.ok());
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[0].kvs.size(), 0u);
  EXPECT_EQ((*back)[1].proc.rank, PMIX_RANK_WILDCARD);
  EXPECT_EQ((*back)[1].kvs.view()[0].value.data.uint32, 5u);
}

}  // namespace
}  // namespace pmix::wire
