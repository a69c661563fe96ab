// The record format of process data (proc_data.h): framing without
// decoding, concatenation, and refusal of truncated or corrupt blobs.
#include "src/wire/proc_data.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "mca/bfrops/base/bfrops_base.h"
#include "pmix.h"
#include "test/unit/common/proc_ids.h"

namespace pmix::wire {
namespace {

class ProcDataTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto codec = bfrops::DefaultCodec();
    ASSERT_TRUE(codec.ok());
    codec_ = *codec;
  }
  static pmix_proc_t P(const char* nspace, pmix_rank_t rank) { return test::P(nspace, rank); }
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
      if (std::strcmp(kv.key, key) == 0 && kv.value.type == PMIX_STRING)
        return kv.value.data.string;
    return "<absent>";
  }
  // n little-endian bytes of v (the framing's integers, written by hand).
  static void PutLe(Bytes& out, uint64_t v, size_t n) {
    for (size_t i = 0; i < n; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  const pmix_bfrops_module_t* codec_ = nullptr;
};

TEST_F(ProcDataTest, IndexFindsEveryRecordOfAConcatenation) {
  Bytes blob = Record(P("ns", 0), "zero", 1000);
  Bytes two = Record(P("other", 7), "seven");
  blob.insert(blob.end(), two.begin(), two.end());
  auto refs = IndexRecords(blob);
  ASSERT_TRUE(refs.ok());
  ASSERT_EQ(refs->size(), 2u);
  EXPECT_EQ((*refs)[0].offset, 0u);
  EXPECT_EQ((*refs)[0].size + (*refs)[1].size, blob.size());
  EXPECT_EQ((*refs)[1].rank, 7u);
  EXPECT_EQ((*refs)[1].nspace, "other");
  pmix_proc_t proc = (*refs)[1].Proc();
  EXPECT_STREQ(proc.nspace, "other");
  EXPECT_EQ(proc.rank, 7u);
  auto kvs = DecodeKvs(codec_, (*refs)[1].Kvs(blob));
  ASSERT_TRUE(kvs.ok());
  EXPECT_EQ(StringOf(*kvs, "k"), "seven");
  // A record's bytes are a blob of their own.
  auto alone = IndexRecords((*refs)[1].Record(blob));
  ASSERT_TRUE(alone.ok());
  EXPECT_EQ(alone->size(), 1u);
}

TEST_F(ProcDataTest, IndexDoesNotDecodeKeyValues) {
  Bytes blob = Record(P("ns", 0), "zero");
  auto refs = IndexRecords(blob);
  ASSERT_TRUE(refs.ok());
  // Garbage inside the key/values: the frame still holds, the decode fails.
  Bytes bad = blob;
  for (size_t i = (*refs)[0].kvs_offset; i < bad.size(); ++i) bad[i] = 0xff;
  auto framed = IndexRecords(bad);
  ASSERT_TRUE(framed.ok());
  EXPECT_FALSE(DecodeKvs(codec_, (*framed)[0].Kvs(bad)).ok());
}

TEST_F(ProcDataTest, KeysAreFoundWithoutDecodingValues) {
  Bytes blob = Record(P("ns", 0), "zero", 5000);
  auto refs = IndexRecords(blob);
  ASSERT_TRUE(refs.ok());
  std::span<const uint8_t> kvs = (*refs)[0].Kvs(blob);
  auto keys = IndexKvs(kvs);
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
  auto still = IndexKvs(bad);
  ASSERT_TRUE(still.ok());
  EXPECT_FALSE(DecodeValue(codec_, std::span<const uint8_t>(bad).subspan((*keys)[1].value_offset,
                                                                         (*keys)[1].value_size))
                   .ok());
  EXPECT_FALSE(DecodeKvs(codec_, bad).ok());
  // A value span with a byte too many is refused.
  Bytes longer(
      kvs.begin() + static_cast<ptrdiff_t>((*keys)[0].value_offset),
      kvs.begin() + static_cast<ptrdiff_t>((*keys)[0].value_offset + (*keys)[0].value_size));
  longer.push_back(0);
  EXPECT_EQ(DecodeValue(codec_, longer).status().code(), PMIX_ERR_UNPACK_FAILURE);
}

TEST_F(ProcDataTest, BadKeysAreRefused) {
  const std::string keys[] = {std::string(), std::string(PMIX_MAX_KEYLEN + 1, 'k'),
                              std::string("a\0b", 3), std::string(1, '\0')};
  for (const std::string& key : keys) {
    Bytes kvs;
    PutLe(kvs, 1, 4);
    PutLe(kvs, key.size(), 4);
    kvs.insert(kvs.end(), key.begin(), key.end());
    PutLe(kvs, 0, 8);
    kvs.resize(kvs.size() + 16);  // room enough that only the key is wrong
    EXPECT_EQ(IndexKvs(kvs).status().code(), PMIX_ERR_BAD_PARAM) << key.size();
  }
  // The longest key is fine.
  Bytes kvs;
  PutLe(kvs, 1, 4);
  PutLe(kvs, PMIX_MAX_KEYLEN, 4);
  kvs.insert(kvs.end(), PMIX_MAX_KEYLEN, 'k');
  PutLe(kvs, 0, 8);
  auto refs = IndexKvs(kvs);
  ASSERT_TRUE(refs.ok());
  EXPECT_EQ((*refs)[0].key.size(), size_t{PMIX_MAX_KEYLEN});
  // Nor does a writer take them.
  Infos bad(1);
  Bytes out{1, 2, 3};
  EXPECT_EQ(AppendRecord(codec_, P("ns", 0), bad.view(), out).code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(out, (Bytes{1, 2, 3})) << "left as it was";
}

TEST_F(ProcDataTest, BadNspacesAreRefused) {
  const std::string names[] = {std::string(), std::string(PMIX_MAX_NSLEN + 1, 'n'),
                               std::string("a\0b", 3), std::string(1, '\0')};
  for (const std::string& name : names) {
    Bytes blob;
    PutLe(blob, name.size(), 4);
    blob.insert(blob.end(), name.begin(), name.end());
    PutLe(blob, 0, 4);
    PutLe(blob, 4, 8);
    PutLe(blob, 0, 4);
    EXPECT_EQ(IndexRecords(blob).status().code(), PMIX_ERR_BAD_PARAM) << name.size();
  }
}

// The framing, byte by byte (proc_data.h): readers of other versions and
// languages depend on it.
TEST_F(ProcDataTest, TheFramingIsTheDocumentedLayout) {
  pmix_value_t v{};
  v.type = PMIX_UINT32;
  v.data.uint32 = 42;
  Writer packed(codec_);
  packed.Value(v);
  auto value = packed.Take();
  ASSERT_TRUE(value.ok());
  Bytes kvs;
  PutLe(kvs, 2, 4);  // count
  PutLe(kvs, 3, 4);
  for (char ch : std::string("abc")) kvs.push_back(static_cast<uint8_t>(ch));
  PutLe(kvs, value->size(), 8);
  kvs.insert(kvs.end(), value->begin(), value->end());
  PutLe(kvs, 1, 4);
  kvs.push_back('z');
  PutLe(kvs, 3, 8);
  kvs.insert(kvs.end(), {0xde, 0xad, 0x00});  // not a value: never decoded by framing
  Bytes blob;
  PutLe(blob, 5, 4);
  for (char ch : std::string("nsp-1")) blob.push_back(static_cast<uint8_t>(ch));
  PutLe(blob, 0x01020304, 4);
  PutLe(blob, kvs.size(), 8);
  const size_t kvs_at = blob.size();
  blob.insert(blob.end(), kvs.begin(), kvs.end());
  // The exact bytes of the first integers (little-endian whatever the host).
  EXPECT_EQ(blob[0], 5);
  EXPECT_EQ(blob[1], 0);
  EXPECT_EQ(blob[9], 0x04);
  EXPECT_EQ(blob[12], 0x01);
  // A second record right after, unaligned: rank PMIX_RANK_WILDCARD, no kvs.
  const size_t second = blob.size();
  PutLe(blob, 1, 4);
  blob.push_back('q');
  PutLe(blob, PMIX_RANK_WILDCARD, 4);
  PutLe(blob, 4, 8);
  PutLe(blob, 0, 4);

  auto refs = IndexRecords(blob);
  ASSERT_TRUE(refs.ok()) << PMIx_Error_string(refs.status().code());
  ASSERT_EQ(refs->size(), 2u);
  const RecordRef& one = (*refs)[0];
  EXPECT_EQ(one.nspace, "nsp-1");
  EXPECT_EQ(one.rank, 0x01020304u);
  EXPECT_EQ(one.offset, 0u);
  EXPECT_EQ(one.size, second);
  EXPECT_EQ(one.kvs_offset, kvs_at);
  EXPECT_EQ(one.kvs_size, kvs.size());
  EXPECT_EQ(one.nspace.data(), reinterpret_cast<const char*>(blob.data() + 4))
      << "a view into the blob";
  const RecordRef& two = (*refs)[1];
  EXPECT_EQ(two.nspace, "q");
  EXPECT_EQ(two.rank, PMIX_RANK_WILDCARD);
  EXPECT_EQ(two.offset, second);
  EXPECT_EQ(two.size, blob.size() - second);
  EXPECT_EQ(two.kvs_size, 4u);

  std::vector<KvRef> keys{KvRef{"stale", 1, 1}};
  ASSERT_TRUE(IndexKvs(one.Kvs(blob), keys).ok());
  ASSERT_EQ(keys.size(), 2u) << "cleared first";
  EXPECT_EQ(keys[0].key, "abc");
  EXPECT_EQ(keys[0].value_offset, 4u + 4u + 3u + 8u);
  EXPECT_EQ(keys[0].value_size, value->size());
  EXPECT_EQ(keys[1].key, "z");
  EXPECT_EQ(keys[1].value_size, 3u);
  EXPECT_EQ(keys[1].value_offset + keys[1].value_size, kvs.size());
  auto decoded =
      DecodeValue(codec_, one.Kvs(blob).subspan(keys[0].value_offset, keys[0].value_size));
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ((*decoded)->data.uint32, 42u);
  auto none = IndexKvs(two.Kvs(blob));
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());

  // And what AppendRecord writes is that layout.
  Infos one_kv;
  uint32_t x = 42;
  ASSERT_TRUE(one_kv.Add("abc", &x, PMIX_UINT32).ok());
  Bytes written;
  ASSERT_TRUE(AppendRecord(codec_, P("nsp-1", 0x01020304), one_kv.view(), written).ok());
  Bytes expected;
  PutLe(expected, 5, 4);
  for (char ch : std::string("nsp-1")) expected.push_back(static_cast<uint8_t>(ch));
  PutLe(expected, 0x01020304, 4);
  PutLe(expected, 4 + 4 + 3 + 8 + value->size(), 8);
  PutLe(expected, 1, 4);
  PutLe(expected, 3, 4);
  for (char ch : std::string("abc")) expected.push_back(static_cast<uint8_t>(ch));
  PutLe(expected, value->size(), 8);
  expected.insert(expected.end(), value->begin(), value->end());
  EXPECT_EQ(written, expected);
}

TEST_F(ProcDataTest, ACountBeyondTheBytesIsRefusedBeforeAllocating) {
  Bytes kvs;
  PutLe(kvs, 0xffffffff, 4);
  kvs.resize(64);
  std::vector<KvRef> out;
  EXPECT_EQ(IndexKvs(kvs, out).code(), PMIX_ERR_UNPACK_FAILURE);
  EXPECT_EQ(out.capacity(), 0u) << "nothing reserved for a count the bytes cannot hold";
  // An oversize value size.
  Bytes one;
  PutLe(one, 1, 4);
  PutLe(one, 1, 4);
  one.push_back('k');
  PutLe(one, ~uint64_t{0}, 8);
  one.resize(one.size() + 8);
  EXPECT_EQ(IndexKvs(one).status().code(), PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
}

TEST_F(ProcDataTest, EveryTruncationIsRefused) {
  Bytes blob = Record(P("ns", 3), "three", 100);
  Bytes two = Record(P("other", 4), "four", 3);
  blob.insert(blob.end(), two.begin(), two.end());
  const size_t first = blob.size() - two.size();
  auto whole = IndexRecords(blob);
  ASSERT_TRUE(whole.ok());
  std::span<const uint8_t> kvs = (*whole)[0].Kvs(blob);
  for (size_t n = 1; n < blob.size(); ++n) {
    if (n == first) continue;  // the first record alone: a valid blob
    // A copy of exactly n bytes: a read past it is seen by the sanitizers.
    Bytes cut(blob.begin(), blob.begin() + static_cast<ptrdiff_t>(n));
    auto refs = IndexRecords(cut);
    EXPECT_FALSE(refs.ok()) << n;
    EXPECT_FALSE(DecodeProcDataBlob(cut).ok()) << n;
  }
  for (size_t n = 0; n < kvs.size(); ++n) {
    Bytes cut(kvs.begin(), kvs.begin() + static_cast<ptrdiff_t>(n));
    EXPECT_FALSE(IndexKvs(cut).ok()) << n;
  }
  auto empty = IndexRecords({});
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST_F(ProcDataTest, AnOversizeLengthIsRefused) {
  Bytes blob = Record(P("ns", 0), "zero");
  auto refs = IndexRecords(blob);
  ASSERT_TRUE(refs.ok());
  for (uint64_t n : {~uint64_t{0}, uint64_t{(*refs)[0].kvs_size + 1}}) {
    Bytes bad = blob;
    for (size_t i = 0; i < 8; ++i)
      bad[(*refs)[0].kvs_offset - 8 + i] = static_cast<uint8_t>(n >> (8 * i));
    EXPECT_EQ(IndexRecords(bad).status().code(), PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER) << n;
  }
  // An nspace length past the end.
  Bytes ns;
  PutLe(ns, 10, 4);
  ns.insert(ns.end(), {'a', 'b'});
  EXPECT_EQ(IndexRecords(ns).status().code(), PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
}

TEST_F(ProcDataTest, TrailingBytesInsideARecordAreRefused) {
  Bytes blob = Record(P("ns", 0), "zero");
  auto refs = IndexRecords(blob);
  ASSERT_TRUE(refs.ok());
  std::span<const uint8_t> kvs = (*refs)[0].Kvs(blob);
  Bytes longer(kvs.begin(), kvs.end());
  longer.push_back(7);  // a byte past the last key/value
  EXPECT_EQ(IndexKvs(longer).status().code(), PMIX_ERR_UNPACK_FAILURE);
  EXPECT_EQ(DecodeKvs(codec_, longer).status().code(), PMIX_ERR_UNPACK_FAILURE);
  for (size_t n = 0; n < kvs.size(); ++n)
    EXPECT_FALSE(DecodeKvs(codec_, kvs.subspan(0, n)).ok()) << n;
}

TEST_F(ProcDataTest, AnEmptyOrUnterminatedNspaceIsNotWritten) {
  pmix_proc_t nobody{};
  Infos kvs;
  Bytes out;
  EXPECT_EQ(AppendRecord(codec_, nobody, kvs.view(), out).code(), PMIX_ERR_BAD_PARAM);
  pmix_proc_t unterminated;
  std::memset(&unterminated, 'n', sizeof unterminated);
  EXPECT_EQ(AppendRecord(codec_, unterminated, kvs.view(), out).code(), PMIX_ERR_BAD_PARAM);
  EXPECT_TRUE(out.empty());
}

TEST_F(ProcDataTest, TranscodeToTheSameCodecKeepsTheBytes) {
  Bytes blob = Record(P("ns", 1), "one");
  Bytes two = Record(P("ns", 2), "two", 300);
  blob.insert(blob.end(), two.begin(), two.end());
  auto same = Transcode(codec_, codec_, blob);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(*same, blob);
  auto before = IndexRecords(blob);
  auto after = IndexRecords(*same);
  ASSERT_TRUE(before.ok());
  ASSERT_TRUE(after.ok());
  ASSERT_EQ(after->size(), before->size());
  for (size_t i = 0; i < before->size(); ++i) {
    EXPECT_EQ((*after)[i].nspace, (*before)[i].nspace);
    EXPECT_EQ((*after)[i].rank, (*before)[i].rank);
    EXPECT_EQ((*after)[i].offset, (*before)[i].offset);
    EXPECT_EQ((*after)[i].kvs_size, (*before)[i].kvs_size);
    auto kvs = DecodeKvs(codec_, (*after)[i].Kvs(*same));
    ASSERT_TRUE(kvs.ok());
    EXPECT_EQ(StringOf(*kvs, "k"), i == 0 ? "one" : "two");
  }
}

// Between different codecs only the values are re-encoded: a second module
// with the same functions packs them the same, so the bytes come out equal.
TEST_F(ProcDataTest, TranscodeReencodesOnlyTheValues) {
  const pmix_bfrops_module_t other = *codec_;
  Bytes blob = Record(P("ns", 1), "one", 40);
  Bytes two = Record(P("other", PMIX_RANK_WILDCARD), "all", 0);
  blob.insert(blob.end(), two.begin(), two.end());
  auto moved = Transcode(codec_, &other, blob);
  ASSERT_TRUE(moved.ok()) << PMIx_Error_string(moved.status().code());
  EXPECT_EQ(*moved, blob);
  // A value that does not decode fails the transcode; so does bad framing.
  auto refs = IndexRecords(blob);
  ASSERT_TRUE(refs.ok());
  auto keys = IndexKvs((*refs)[0].Kvs(blob));
  ASSERT_TRUE(keys.ok());
  Bytes bad = blob;
  size_t at = (*refs)[0].kvs_offset + (*keys)[0].value_offset;
  for (size_t i = 0; i < (*keys)[0].value_size; ++i) bad[at + i] = 0xfe;
  EXPECT_FALSE(Transcode(codec_, &other, bad).ok());
  Bytes cut(blob.begin(), blob.end() - 1);
  EXPECT_FALSE(Transcode(codec_, &other, cut).ok());
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
