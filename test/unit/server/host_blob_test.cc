// The host's fence buffer filled as the commits come (src/server/host_blob.h):
// handed over only when it holds exactly the fence's local participants'
// records as the store holds them at launch, and the store's generations
// that tell, and partial copies of a process whose records grew.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "mca/bfrops/base/bfrops_base.h"
#include "pmix.h"
#include "src/server/host_blob.h"
#include "src/server/modex_store.h"
#include "src/wire/proc_data.h"
#include "test/unit/common/proc_ids.h"

namespace pmix::server::fence {
namespace {

using test::P;

class HostBlobTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto codec = bfrops::DefaultCodec();
    ASSERT_TRUE(codec.ok());
    codec_ = *codec;
  }
  // Stores one record of proc: key = value, in scope.
  void Commit(const pmix_proc_t& proc, pmix_scope_t scope, const char* key, const std::string& value) {
    wire::Infos kvs;
    ASSERT_TRUE(kvs.Add(key, value.c_str(), PMIX_STRING).ok());
    wire::Bytes record;
    ASSERT_TRUE(wire::AppendRecord(codec_, proc, kvs.view(), record).ok());
    ASSERT_TRUE(store_.Add(proc, scope, record, kvs.view()).ok());
  }
  // What a fence of `procs` copies for the host at launch.
  wire::Bytes Copied(const std::vector<pmix_proc_t>& procs) {
    wire::Bytes out;
    for (const auto& p : procs) store_.Append(p, PMIX_GDS_VIEW_REMOTE, out);
    return out;
  }
  // The records of a blob, each whole, in a canonical order: the host's
  // buffer may hold a process's records apart, and in any order.
  static std::vector<wire::Bytes> Records(const wire::Bytes& blob) {
    std::vector<wire::Bytes> out;
    auto refs = wire::IndexRecords(blob);
    EXPECT_TRUE(refs.ok());
    if (!refs.ok()) return out;
    for (const auto& ref : *refs) {
      auto bytes = ref.Record(blob);
      out.emplace_back(bytes.begin(), bytes.end());
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  // Takes the blob for procs: its bytes, or nothing (empty optional).
  std::optional<wire::Bytes> Take(const std::vector<pmix_proc_t>& procs) {
    auto [data, size] = blob_.Take(store_, procs);
    if (data == nullptr) return std::nullopt;
    wire::Bytes out(reinterpret_cast<uint8_t*>(data), reinterpret_cast<uint8_t*>(data) + size);
    std::free(data);  // as the host does
    return out;
  }

  const pmix_bfrops_module_t* codec_ = nullptr;
  modex::Store store_;
  HostBlob blob_;
  const std::vector<pmix_proc_t> procs_{P("job", 0), P("job", 1), P("job", 2)};
};

TEST_F(HostBlobTest, HoldsWhatTheFenceWouldCopy) {
  for (const auto& p : procs_) {
    Commit(p, PMIX_GLOBAL, "card", std::string(3000 + p.rank, 'a' + p.rank));
    Commit(p, PMIX_REMOTE, "far", "only remote readers");
    Commit(p, PMIX_LOCAL, "near", "never handed to the host");
    blob_.Add(store_, p);
  }
  EXPECT_EQ(blob_.size(), Copied(procs_).size());
  auto taken = Take(procs_);
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(*taken, Copied(procs_));
  // Taken: the next fence starts from nothing.
  EXPECT_EQ(blob_.size(), 0u);
  EXPECT_FALSE(Take(procs_).has_value());
}

TEST_F(HostBlobTest, GrowsOverManyCommits) {
  std::vector<pmix_proc_t> many;
  for (pmix_rank_t r = 0; r < 64; ++r) {
    many.push_back(P("job", r));
    Commit(many.back(), PMIX_GLOBAL, "card", std::string(1000 * (r % 7 + 1), 'x'));
    blob_.Add(store_, many.back());
  }
  auto taken = Take(many);
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(*taken, Copied(many));
}

TEST_F(HostBlobTest, OtherParticipantsGetNone) {
  for (const auto& p : procs_) {
    Commit(p, PMIX_GLOBAL, "card", "abc");
    blob_.Add(store_, p);
  }
  // A subset, a superset and other ranks of the same size: none matches.
  EXPECT_FALSE(Take({procs_[0], procs_[1]}).has_value());
  for (const auto& p : procs_) blob_.Add(store_, p);
  EXPECT_FALSE(Take({procs_[0], procs_[1], procs_[2], P("job", 3)}).has_value());
  for (const auto& p : procs_) blob_.Add(store_, p);
  EXPECT_FALSE(Take({procs_[0], procs_[1], P("job", 7)}).has_value());
  for (const auto& p : procs_) blob_.Add(store_, p);
  EXPECT_FALSE(Take({P("other", 0), P("other", 1), P("other", 2)}).has_value());
}

TEST_F(HostBlobTest, LaterCommitsAddTheirRecords) {
  for (const auto& p : procs_) {
    Commit(p, PMIX_GLOBAL, "card", std::string(5000, 'c'));
    blob_.Add(store_, p);
  }
  // More commits of new keys: appended, in any scope.
  Commit(procs_[1], PMIX_GLOBAL, "card2", "more");
  blob_.Add(store_, procs_[1]);
  Commit(procs_[1], PMIX_REMOTE, "far", "more still");
  blob_.Add(store_, procs_[1]);
  Commit(procs_[0], PMIX_LOCAL, "near", "nothing for the host");
  blob_.Add(store_, procs_[0]);
  EXPECT_EQ(blob_.size(), Copied(procs_).size());
  auto taken = Take(procs_);
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(Records(*taken), Records(Copied(procs_)));
}

TEST_F(HostBlobTest, RewrittenRecordsMakeItStale) {
  for (const auto& p : procs_) {
    Commit(p, PMIX_GLOBAL, "card", "first");
    blob_.Add(store_, p);
  }
  Commit(procs_[1], PMIX_GLOBAL, "card", "second");  // the key again: merged
  blob_.Add(store_, procs_[1]);
  EXPECT_EQ(blob_.size(), 0u);  // dropped at once, not held until the fence
  EXPECT_FALSE(Take(procs_).has_value());
  // After that fence it fills again.
  for (const auto& p : procs_) blob_.Add(store_, p);
  auto taken = Take(procs_);
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(*taken, Copied(procs_));
}

TEST_F(HostBlobTest, ChangeBehindItsBackIsSeen) {
  for (const auto& p : procs_) {
    Commit(p, PMIX_GLOBAL, "card", "first");
    blob_.Add(store_, p);
  }
  // The store changes for a process after the blob copied it (a new key):
  // the blob no longer matches.
  Commit(procs_[2], PMIX_GLOBAL, "card2", "first");
  EXPECT_FALSE(Take(procs_).has_value());
  // Nor when a process's data went.
  for (const auto& p : procs_) blob_.Add(store_, p);
  store_.Remove(procs_[0]);
  EXPECT_FALSE(Take(procs_).has_value());
}

TEST_F(HostBlobTest, TheSameDataAgainChangesNothing) {
  for (const auto& p : procs_) {
    Commit(p, PMIX_GLOBAL, "card", "same");
    blob_.Add(store_, p);
  }
  uint64_t before = store_.Generation(procs_[0]);
  Commit(procs_[0], PMIX_GLOBAL, "card", "same");  // dropped by the store
  EXPECT_EQ(store_.Generation(procs_[0]), before);
  EXPECT_TRUE(Take(procs_).has_value());
}

TEST_F(HostBlobTest, DisabledFillsNothing) {
  blob_.Disable();
  for (const auto& p : procs_) {
    Commit(p, PMIX_GLOBAL, "card", "abc");
    blob_.Add(store_, p);
  }
  EXPECT_EQ(blob_.size(), 0u);
  EXPECT_FALSE(Take(procs_).has_value());
}

TEST_F(HostBlobTest, GenerationsChangeWithTheRecords) {
  pmix_proc_t p = procs_[0];
  EXPECT_EQ(store_.Generation(p), 0u);
  Commit(p, PMIX_GLOBAL, "a", "1");
  uint64_t g1 = store_.Generation(p);
  uint64_t lineage = store_.Lineage(p);
  EXPECT_NE(g1, 0u);
  EXPECT_NE(lineage, 0u);
  Commit(p, PMIX_LOCAL, "b", "2");
  uint64_t g2 = store_.Generation(p);
  EXPECT_NE(g2, g1);
  EXPECT_EQ(store_.Lineage(p), lineage);  // appended only
  Commit(p, PMIX_GLOBAL, "a", "3");  // merged
  EXPECT_NE(store_.Generation(p), g2);
  EXPECT_NE(store_.Lineage(p), lineage);
  EXPECT_EQ(store_.Generation(procs_[1]), 0u);
  store_.Remove(p);
  EXPECT_EQ(store_.Generation(p), 0u);
  EXPECT_EQ(store_.Lineage(p), 0u);
  // Back after it went: another lineage, though only appended again.
  Commit(p, PMIX_GLOBAL, "a", "1");
  EXPECT_NE(store_.Lineage(p), 0u);
  EXPECT_NE(store_.Lineage(p), lineage);
}

}  // namespace
}  // namespace pmix::server::fence
