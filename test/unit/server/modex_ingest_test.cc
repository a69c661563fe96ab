// Data entering the server's record store (src/server/server_commit.cc):
// commits from a client and blobs from the host. Malformed, truncated or
// foreign data is refused with an error and changes nothing stored.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

#include "mca/bfrops/base/bfrops_base.h"
#include "pmix.h"
#include "src/server/server_get.h"
#include "src/wire/proc_data.h"
#include "test/unit/common/proc_ids.h"

namespace pmix::server::get {
namespace {

using test::P;

class ModexIngestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto codec = bfrops::DefaultCodec();
    ASSERT_TRUE(codec.ok());
    codec_ = *codec;
    auto module = gds::Default();
    ASSERT_TRUE(module.ok());
    auto store = gds::Store::Create(*module);
    ASSERT_TRUE(store.ok());
    s_.store = std::move(*store);
  }
  wire::Bytes Record(const pmix_proc_t& proc, const char* key, const char* value) {
    wire::Infos kvs;
    EXPECT_TRUE(kvs.Add(key, value, PMIX_STRING).ok());
    wire::Bytes out;
    EXPECT_TRUE(wire::AppendRecord(codec_, proc, kvs.view(), out).ok());
    return out;
  }
  // A kCommit body as a client sends it: groups of (scope, record).
  wire::Bytes Commit(const std::vector<std::pair<pmix_scope_t, wire::Bytes>>& groups) {
    wire::Writer w(codec_);
    w.U32(static_cast<uint32_t>(groups.size()));
    for (const auto& [scope, record] : groups) w.U32(scope).U64(record.size());
    auto head = w.Take();
    EXPECT_TRUE(head.ok());
    wire::Bytes out = *head;
    for (const auto& group : groups) out.insert(out.end(), group.second.begin(), group.second.end());
    return out;
  }
  Status StoreCommitBytes(const pmix_proc_t& who, const wire::Bytes& body) {
    return StoreCommit(s_, who, codec_, std::make_shared<const wire::Bytes>(body));
  }
  std::string Value(const pmix_proc_t& proc, pmix_gds_view_t view, const char* key) {
    auto v = s_.modex.Fetch(proc, view, key);
    if (!v.ok()) return "<absent>";
    return (*v)->data.string;
  }

  const pmix_bfrops_module_t* codec_ = nullptr;
  Server s_;
  const pmix_proc_t me_ = P("job", 3);
};

TEST_F(ModexIngestTest, ACommitIsStoredAsItCame) {
  wire::Bytes local = Record(me_, "l", "local");
  wire::Bytes global = Record(me_, "g", "global");
  ASSERT_TRUE(StoreCommitBytes(me_, Commit({{PMIX_LOCAL, local}, {PMIX_GLOBAL, global}})).ok());
  EXPECT_EQ(Value(me_, PMIX_GDS_VIEW_LOCAL, "l"), "local");
  EXPECT_EQ(Value(me_, PMIX_GDS_VIEW_REMOTE, "l"), "<absent>");
  wire::Bytes remote_view;
  s_.modex.Append(me_, PMIX_GDS_VIEW_REMOTE, remote_view);
  EXPECT_EQ(remote_view, global);  // the bytes the client sent
}

TEST_F(ModexIngestTest, EveryTruncatedCommitIsRefusedAndChangesNothing) {
  ASSERT_TRUE(StoreCommitBytes(me_, Commit({{PMIX_GLOBAL, Record(me_, "a", "before")}})).ok());
  wire::Bytes body = Commit({{PMIX_GLOBAL, Record(me_, "a", "after")}, {PMIX_LOCAL, Record(me_, "b", "x")}});
  for (size_t n = 0; n < body.size(); ++n) {
    wire::Bytes cut(body.begin(), body.begin() + static_cast<ptrdiff_t>(n));
    EXPECT_FALSE(StoreCommitBytes(me_, cut).ok()) << n;
  }
  wire::Bytes longer = body;
  longer.push_back(0);
  EXPECT_EQ(StoreCommitBytes(me_, longer).code(), PMIX_ERR_UNPACK_FAILURE);
  EXPECT_EQ(Value(me_, PMIX_GDS_VIEW_ALL, "a"), "before");
  EXPECT_EQ(Value(me_, PMIX_GDS_VIEW_ALL, "b"), "<absent>");
}

TEST_F(ModexIngestTest, ACorruptValueIsRefused) {
  wire::Bytes record = Record(me_, "a", "value");
  auto refs = wire::IndexRecords(record);
  ASSERT_TRUE(refs.ok());
  auto kvs = wire::IndexKvs((*refs)[0].Kvs(record));
  ASSERT_TRUE(kvs.ok());
  size_t at = (*refs)[0].kvs_offset + (*kvs)[0].value_offset;
  for (size_t i = 0; i < (*kvs)[0].value_size; ++i) record[at + i] = 0xfd;
  EXPECT_FALSE(StoreCommitBytes(me_, Commit({{PMIX_GLOBAL, record}})).ok());
  EXPECT_EQ(s_.modex.Find(me_, PMIX_GDS_VIEW_ALL, "").code(), PMIX_ERR_NOT_FOUND);
}

TEST_F(ModexIngestTest, ACommitForAnotherProcessOrScopeIsRefused) {
  EXPECT_EQ(StoreCommitBytes(me_, Commit({{PMIX_GLOBAL, Record(P("job", 4), "a", "x")}})).code(),
            PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(StoreCommitBytes(me_, Commit({{PMIX_INTERNAL, Record(me_, "a", "x")}})).code(),
            PMIX_ERR_BAD_PARAM);
  wire::Bytes two = Record(me_, "a", "x");
  wire::Bytes more = Record(me_, "b", "y");
  two.insert(two.end(), more.begin(), more.end());  // two records in one group
  EXPECT_EQ(StoreCommitBytes(me_, Commit({{PMIX_GLOBAL, two}})).code(), PMIX_ERR_BAD_PARAM);
  EXPECT_TRUE(s_.modex.Ranks("job").empty());
}

TEST_F(ModexIngestTest, ReservedKeysAreDropped) {
  wire::Infos kvs;
  ASSERT_TRUE(kvs.Add("pmix.hname", "forged", PMIX_STRING).ok());
  ASSERT_TRUE(kvs.Add("mine", "ok", PMIX_STRING).ok());
  wire::Bytes record;
  ASSERT_TRUE(wire::AppendRecord(codec_, me_, kvs.view(), record).ok());
  ASSERT_TRUE(StoreCommitBytes(me_, Commit({{PMIX_GLOBAL, record}})).ok());
  EXPECT_EQ(Value(me_, PMIX_GDS_VIEW_ALL, "mine"), "ok");
  EXPECT_EQ(Value(me_, PMIX_GDS_VIEW_ALL, "pmix.hname"), "<absent>");
}

TEST_F(ModexIngestTest, AHostBlobIsStoredSharedAndACorruptOneChangesNothing) {
  wire::Bytes blob = Record(P("job", 7), "k", "seven");
  wire::Bytes eight = Record(P("job", 8), "k", "eight");
  blob.insert(blob.end(), eight.begin(), eight.end());
  auto taken = StoreRemoteData(s_, std::make_shared<const wire::Bytes>(blob));
  ASSERT_TRUE(taken.ok());
  EXPECT_EQ(taken->size(), 2u);
  EXPECT_EQ(Value(P("job", 8), PMIX_GDS_VIEW_REMOTE, "k"), "eight");
  // Newer data whose second record is cut short: refused whole.
  wire::Bytes newer = Record(P("job", 7), "k", "SEVEN");
  wire::Bytes cut = Record(P("job", 8), "k", "EIGHT");
  newer.insert(newer.end(), cut.begin(), cut.end() - 1);
  auto refused = StoreRemoteData(s_, std::make_shared<const wire::Bytes>(newer));
  EXPECT_FALSE(refused.ok());
  EXPECT_EQ(Value(P("job", 7), PMIX_GDS_VIEW_REMOTE, "k"), "seven");
  EXPECT_EQ(Value(P("job", 8), PMIX_GDS_VIEW_REMOTE, "k"), "eight");
  // Garbage.
  auto junk = std::make_shared<const wire::Bytes>(wire::Bytes(100, 0x5a));
  EXPECT_FALSE(StoreRemoteData(s_, junk).ok());
  EXPECT_EQ(Value(P("job", 7), PMIX_GDS_VIEW_REMOTE, "k"), "seven");
}

TEST_F(ModexIngestTest, AnotherJobsJobRecordGoesToTheJobRealm) {
  wire::Bytes blob = Record(P("other", PMIX_RANK_WILDCARD), "jobkey", "v");
  ASSERT_TRUE(StoreRemoteData(s_, std::make_shared<const wire::Bytes>(blob)).ok());
  auto v = s_.store.FetchValue(P("other", PMIX_RANK_WILDCARD), gds::Where::Job(), PMIX_GDS_VIEW_ALL,
                               "jobkey");
  ASSERT_TRUE(v.ok());
  EXPECT_STREQ((*v)->data.string, "v");
  EXPECT_EQ(StoreRemoteData(s_, std::make_shared<const wire::Bytes>(Record(P("job", PMIX_RANK_UNDEF), "k", "x")))
                .status()
                .code(),
            PMIX_ERR_BAD_PARAM);
}

// A direct-modex answer names the keys its owner holds out of the asking
// node's sight (server_get.h, kHiddenKeysKey): the names are remembered
// for the process, never stored as its data nor forwarded.
TEST_F(ModexIngestTest, AHiddenKeysMarkerIsRememberedNotStored) {
  GetState().hidden.clear();
  const pmix_proc_t seven = P("job", 7);
  wire::Bytes blob = Record(seven, "k", "seven");
  ASSERT_TRUE(AppendHiddenKeys(codec_, seven, {"secret", "other"}, blob).ok());
  auto taken = StoreRemoteData(s_, std::make_shared<const wire::Bytes>(blob));
  ASSERT_TRUE(taken.ok());
  EXPECT_EQ(taken->size(), 1u);  // the data record only
  EXPECT_EQ(Value(seven, PMIX_GDS_VIEW_REMOTE, "k"), "seven");
  EXPECT_EQ(Value(seven, PMIX_GDS_VIEW_ALL, kHiddenKeysKey), "<absent>");
  EXPECT_EQ((GetState().hidden[{"job", 7}]), (std::set<std::string>{"other", "secret"}));
  // No names: nothing appended.
  wire::Bytes none;
  ASSERT_TRUE(AppendHiddenKeys(codec_, seven, {}, none).ok());
  EXPECT_TRUE(none.empty());
  GetState().hidden.clear();
}

TEST_F(ModexIngestTest, AMalformedHiddenKeysMarkerRefusesTheBlob) {
  GetState().hidden.clear();
  const pmix_proc_t seven = P("job", 7);
  // The marker key with a string value instead of a string array.
  wire::Bytes blob = Record(P("job", 8), "k", "eight");
  wire::Bytes bad = Record(seven, kHiddenKeysKey, "secret");
  blob.insert(blob.end(), bad.begin(), bad.end());
  EXPECT_EQ(StoreRemoteData(s_, std::make_shared<const wire::Bytes>(blob)).status().code(),
            PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(Value(P("job", 8), PMIX_GDS_VIEW_REMOTE, "k"), "<absent>");
  // The marker beside other keys in one record.
  wire::Infos kvs;
  ASSERT_TRUE(kvs.Add("k", "v", PMIX_STRING).ok());
  wire::Bytes names;
  ASSERT_TRUE(AppendHiddenKeys(codec_, seven, {"secret"}, names).ok());
  auto records = wire::DecodeProcDataBlob(names);
  ASSERT_TRUE(records.ok());
  ASSERT_TRUE(kvs.Append((*records)[0].kvs.view()[0]).ok());
  wire::Bytes mixed;
  ASSERT_TRUE(wire::AppendRecord(codec_, seven, kvs.view(), mixed).ok());
  EXPECT_EQ(StoreRemoteData(s_, std::make_shared<const wire::Bytes>(mixed)).status().code(),
            PMIX_ERR_BAD_PARAM);
  // A marker for an invalid rank.
  wire::Bytes undef;
  ASSERT_TRUE(AppendHiddenKeys(codec_, P("job", PMIX_RANK_UNDEF), {"secret"}, undef).ok());
  EXPECT_EQ(StoreRemoteData(s_, std::make_shared<const wire::Bytes>(undef)).status().code(),
            PMIX_ERR_BAD_PARAM);
  EXPECT_TRUE(GetState().hidden.empty());
}

}  // namespace
}  // namespace pmix::server::get
