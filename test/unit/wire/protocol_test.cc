// The hello's codec-independent field encoding and the message body
// writer/reader.
#include <gtest/gtest.h>

#include "mca/bfrops/base/bfrops_base.h"
#include "pmix.h"
#include "src/wire/buffer.h"
#include "src/wire/proc_data.h"
#include "src/wire/protocol.h"

namespace pmix::wire {
namespace {

TEST(Fields, RoundTripIncludingEmptyAndBinary) {
  std::vector<std::string> in = {"", "abc", std::string("a\0b", 3)};
  auto out = DecodeFields(EncodeFields(in));
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out, in);
}

TEST(Fields, EveryTruncationIsRefused) {
  Bytes whole = EncodeFields({"hello", "world"});
  for (size_t n = 0; n < whole.size(); ++n) {
    auto out = DecodeFields(std::span<const uint8_t>(whole.data(), n));
    EXPECT_EQ(out.status().code(), PMIX_ERR_UNPACK_FAILURE) << n;
  }
}

TEST(Fields, ExcessBytesAndAbsurdCountsAreRefused) {
  Bytes whole = EncodeFields({"x"});
  whole.push_back(0);
  EXPECT_EQ(DecodeFields(whole).status().code(), PMIX_ERR_UNPACK_FAILURE);
  Bytes many = {0xff, 0xff, 0xff, 0xff};
  EXPECT_EQ(DecodeFields(many).status().code(), PMIX_ERR_UNPACK_FAILURE);
  Bytes long_field = {1, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f, 'a'};
  EXPECT_EQ(DecodeFields(long_field).status().code(), PMIX_ERR_UNPACK_FAILURE);
}

TEST(Hello, RoundTripAndValidation) {
  Hello h;
  h.version = "1";
  h.role = "client";
  h.codec = "native1";
  h.psec = "native";
  h.credential = std::string("\x01\x00\x02", 3);
  h.nspace = "job";
  h.rank = 7;
  h.pid = 1234;
  auto back = Hello::Decode(h.Encode());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->nspace, "job");
  EXPECT_EQ(back->rank, 7u);
  EXPECT_EQ(back->credential, h.credential);
  h.nspace = std::string(PMIX_MAX_NSLEN + 1, 'n');
  EXPECT_EQ(Hello::Decode(h.Encode()).status().code(), PMIX_ERR_BAD_PARAM);
  auto fields = EncodeFields({kProtocol, "1", "client", "native1", "native", "", "job", "x7", "1"});
  EXPECT_EQ(Hello::Decode(fields).status().code(), PMIX_ERR_UNPACK_FAILURE);
}

TEST(Hello, CarriesAToolsDirectivesAndAcceptsNineFields) {
  Hello h;
  h.role = "tool";
  h.rank = PMIX_RANK_UNDEF;
  h.info = std::string("\x00\x01packed", 8);
  auto back = Hello::Decode(h.Encode());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->role, "tool");
  EXPECT_EQ(back->rank, PMIX_RANK_UNDEF);
  EXPECT_EQ(back->info, h.info);
  auto nine = EncodeFields({kProtocol, "1", "client", "native1", "native", "", "job", "7", "1"});
  auto old = Hello::Decode(nine);
  ASSERT_TRUE(old.ok());
  EXPECT_TRUE(old->info.empty());
  EXPECT_FALSE(old->regions.has_value());
}

// The regions a peer can attach: said ("" for none, or a list), or not
// said (an older hello: descriptors as before).
TEST(Hello, SaysWhichRegionsThePeerAttaches) {
  Hello h;
  h.role = "client";
  EXPECT_TRUE(h.CanAttach("shmem"));  // not said
  auto ten = Hello::Decode(h.Encode());
  ASSERT_TRUE(ten.ok());
  EXPECT_FALSE(ten->regions.has_value());
  EXPECT_TRUE(ten->CanAttach("shmem"));

  h.regions = "";
  auto none = Hello::Decode(h.Encode());
  ASSERT_TRUE(none.ok());
  ASSERT_TRUE(none->regions.has_value());
  EXPECT_EQ(*none->regions, "");
  EXPECT_FALSE(none->CanAttach("shmem"));
  EXPECT_FALSE(none->CanAttach(""));

  h.regions = "other,shmem";
  auto two = Hello::Decode(h.Encode());
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two->regions, std::optional<std::string>("other,shmem"));
  EXPECT_TRUE(two->CanAttach("shmem"));
  EXPECT_TRUE(two->CanAttach("other"));
  EXPECT_FALSE(two->CanAttach("shm"));
  EXPECT_FALSE(two->CanAttach("hash"));
}

class Body : public ::testing::Test {
 protected:
  void SetUp() override {
    auto c = bfrops::DefaultCodec();
    ASSERT_TRUE(c.ok());
    codec_ = *c;
  }
  const pmix_bfrops_module_t* codec_ = nullptr;
};

TEST_F(Body, WriterReaderRoundTrip) {
  pmix_proc_t p;
  PMIx_Load_procid(&p, "ns", 3);
  Infos infos;
  uint32_t v = 42;
  ASSERT_TRUE(infos.Add("k1", &v, PMIX_UINT32).ok());
  ASSERT_TRUE(infos.Add("k2", "text", PMIX_STRING).ok());
  Writer w(codec_);
  uint8_t blob[] = {1, 2, 3};
  w.U32(9).Str("s").Proc(p).InfoArray(infos.view()).Blob(std::span<const uint8_t>(blob)).Status(-5);
  auto bytes = w.Take();
  ASSERT_TRUE(bytes.ok());
  Reader r(codec_, *bytes);
  EXPECT_EQ(r.U32(), 9u);
  EXPECT_EQ(r.String(), "s");
  pmix_proc_t q = r.Proc();
  EXPECT_TRUE(PMIX_CHECK_PROCID(&p, &q));
  Infos back = r.InfoArray();
  ASSERT_EQ(back.size(), 2u);
  EXPECT_STREQ(back.view()[1].value.data.string, "text");
  EXPECT_EQ(r.Blob(), (Bytes{1, 2, 3}));
  EXPECT_EQ(r.Status(), -5);
  EXPECT_TRUE(r.status().ok());
  EXPECT_TRUE(r.AtEnd());
}

TEST_F(Body, ReaderErrorsAreStickyAndTruncationIsCaught) {
  Writer w(codec_);
  w.U32(1).Str("abc");
  auto bytes = w.Take();
  ASSERT_TRUE(bytes.ok());
  for (size_t n = 0; n < bytes->size(); ++n) {
    Reader r(codec_, std::span<const uint8_t>(bytes->data(), n));
    r.U32();
    r.String();
    EXPECT_FALSE(r.status().ok()) << n;
    EXPECT_EQ(r.U32(), 0u);  // still failing
  }
}

TEST_F(Body, AbsurdCountsAreRefusedBeforeAllocating) {
  Writer w(codec_);
  w.U32(0x7fffffff);  // a count with nothing behind it
  auto bytes = w.Take();
  ASSERT_TRUE(bytes.ok());
  Reader r(codec_, *bytes);
  EXPECT_EQ(r.InfoArray().size(), 0u);
  EXPECT_EQ(r.status().code(), PMIX_ERR_UNPACK_FAILURE);
}

TEST_F(Body, ProcDataBlobsConcatenate) {
  ProcData a, b;
  PMIx_Load_procid(&a.proc, "ns", 0);
  PMIx_Load_procid(&b.proc, "ns", 1);
  uint32_t v = 7;
  ASSERT_TRUE(a.kvs.Add("x", &v, PMIX_UINT32).ok());
  std::vector<ProcData> first;
  first.push_back(std::move(a));
  std::vector<ProcData> second;
  second.push_back(std::move(b));
  auto one = EncodeProcDataBlob(first);
  auto two = EncodeProcDataBlob(second);
  ASSERT_TRUE(one.ok() && two.ok());
  Bytes joined = *one;
  joined.insert(joined.end(), two->begin(), two->end());
  auto records = DecodeProcDataBlob(joined);
  ASSERT_TRUE(records.ok());
  ASSERT_EQ(records->size(), 2u);
  EXPECT_EQ((*records)[0].kvs.size(), 1u);
  EXPECT_EQ((*records)[1].proc.rank, 1u);
  EXPECT_EQ(DecodeProcDataBlob(std::span<const uint8_t>(joined.data(), joined.size() - 1)).status().code() != PMIX_SUCCESS, true);
}

}  // namespace
}  // namespace pmix::wire
