// Other processes' data in the client (src/client/client_modex.h): kept as
// received, decoded on demand, later data winning, corrupt data refused
// without losing what was there, and concurrent first Gets.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <atomic>
#include <thread>

#include "mca/bfrops/base/bfrops_base.h"
#include "pmix.h"
#include "src/client/client_modex.h"
#include "src/wire/proc_data.h"
#include "src/wire/proc_data_region.h"
#include "test/unit/common/proc_ids.h"

namespace pmix::client {
namespace {

using test::P;

class PeerDataTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto codec = bfrops::DefaultCodec();
    ASSERT_TRUE(codec.ok());
    codec_ = *codec;
  }
  // Appends a record of proc with key = value.
  void Record(wire::Bytes& blob, const pmix_proc_t& proc, const char* key, const char* value) {
    wire::Infos kvs;
    ASSERT_TRUE(kvs.Add(key, value, PMIX_STRING).ok());
    ASSERT_TRUE(wire::AppendRecord(codec_, proc, kvs.view(), blob).ok());
  }
  // A message: a 3-byte head the index must skip, then the records.
  std::shared_ptr<const wire::Bytes> Message(const wire::Bytes& records) {
    wire::Bytes out(3 + records.size(), 9);
    std::copy(records.begin(), records.end(), out.begin() + 3);
    return std::make_shared<const wire::Bytes>(std::move(out));
  }
  Status Add(const wire::Bytes& records) { return peers_.Add(codec_, Message(records), 3, self_, &jobs_); }
  std::string Get(const pmix_proc_t& proc, const char* key) {
    auto v = peers_.Fetch(proc, key);
    if (!v.ok()) return std::string("<") + PMIx_Error_string(v.status().code()) + ">";
    return (*v)->data.string;
  }

  const pmix_bfrops_module_t* codec_ = nullptr;
  PeerData peers_;
  std::vector<wire::ProcData> jobs_;
  const pmix_proc_t self_ = P("job", 0);
  const std::string kNotFound = std::string("<") + PMIx_Error_string(PMIX_ERR_NOT_FOUND) + ">";
};

TEST_F(PeerDataTest, DecodesAProcessOnlyWhenAskedFor) {
  wire::Bytes records;
  Record(records, P("job", 1), "k", "one");
  Record(records, P("job", 2), "k", "two");
  ASSERT_TRUE(Add(records).ok());
  EXPECT_TRUE(peers_.Waiting(P("job", 1)));
  EXPECT_TRUE(peers_.Waiting(P("job", 2)));
  EXPECT_EQ(Get(P("job", 1), "k"), "one");
  EXPECT_FALSE(peers_.Waiting(P("job", 1)));
  EXPECT_TRUE(peers_.Waiting(P("job", 2)));  // not asked about: still bytes
  EXPECT_EQ(Get(P("job", 1), "k"), "one");  // from the decoded copy
  EXPECT_EQ(Get(P("job", 1), "nope"), kNotFound);
  EXPECT_EQ(Get(P("job", 3), "k"), kNotFound);
  EXPECT_EQ(Get(P("other", 1), "k"), kNotFound);
}

TEST_F(PeerDataTest, RankUndefFindsTheLowestRankHoldingTheKey) {
  wire::Bytes records;
  Record(records, P("job", 5), "k", "five");
  Record(records, P("job", 3), "x", "three");
  Record(records, P("job", 4), "k", "four");
  ASSERT_TRUE(Add(records).ok());
  EXPECT_EQ(Get(P("job", PMIX_RANK_UNDEF), "k"), "four");
  EXPECT_EQ(Get(P("job", PMIX_RANK_UNDEF), "x"), "three");
}

TEST_F(PeerDataTest, SkipsItsOwnDataAndHandsOtherJobsBack) {
  wire::Bytes records;
  Record(records, self_, "k", "mine");
  Record(records, P("job", PMIX_RANK_WILDCARD), "j", "own job");
  Record(records, P("other", PMIX_RANK_WILDCARD), "j", "their job");
  ASSERT_TRUE(Add(records).ok());
  EXPECT_EQ(Get(self_, "k"), kNotFound);
  ASSERT_EQ(jobs_.size(), 1u);
  EXPECT_STREQ(jobs_[0].proc.nspace, "other");
  EXPECT_STREQ(jobs_[0].kvs.view()[0].value.data.string, "their job");
}

TEST_F(PeerDataTest, LaterDataWins) {
  wire::Bytes first, second;
  Record(first, P("job", 1), "k", "old");
  Record(first, P("job", 1), "kept", "yes");
  Record(second, P("job", 1), "k", "new");
  ASSERT_TRUE(Add(first).ok());
  EXPECT_EQ(Get(P("job", 1), "k"), "old");
  ASSERT_TRUE(Add(second).ok());
  EXPECT_EQ(Get(P("job", 1), "k"), "new");
  auto all = peers_.FetchAll(P("job", 1));
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 2u);
}

// Many keys (beyond what a small entry holds), some replaced by a later
// record and one repeated in two records of one delivery: each key answers
// its latest value, FetchAll names every key once.
TEST_F(PeerDataTest, ManyKeysAnswerTheirLatestValues) {
  auto record = [&](wire::Bytes& blob, int from, int to, const char* round) {
    wire::Infos kvs;
    for (int i = from; i < to; ++i) {
      std::string key = "key." + std::to_string(i), value = std::string(round) + std::to_string(i);
      ASSERT_TRUE(kvs.Add(key.c_str(), value.c_str(), PMIX_STRING).ok());
    }
    ASSERT_TRUE(wire::AppendRecord(codec_, P("job", 3), kvs.view(), blob).ok());
  };
  wire::Bytes first, second;
  record(first, 0, 100, "a");
  ASSERT_TRUE(Add(first).ok());
  EXPECT_EQ(Get(P("job", 3), "key.7"), "a7");
  record(second, 50, 60, "b");
  record(second, 55, 56, "c");  // the same key twice in one delivery: the later
  ASSERT_TRUE(Add(second).ok());
  for (int i = 0; i < 100; ++i) {
    std::string key = "key." + std::to_string(i);
    std::string want = (i == 55 ? "c" : i >= 50 && i < 60 ? "b" : "a") + std::to_string(i);
    EXPECT_EQ(Get(P("job", 3), key.c_str()), want) << key;
  }
  EXPECT_EQ(Get(P("job", 3), "key.100"), kNotFound);
  auto all = peers_.FetchAll(P("job", 3));
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 100u);
  std::vector<std::string> keys;
  for (const pmix_info_t& info : all->view()) keys.emplace_back(info.key);
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(std::unique(keys.begin(), keys.end()), keys.end());
}

// Many fences, no Get: what later records replace goes as they come (the
// part or region holding it released), not when someone asks; a process
// whose data comes for the first time stays undecoded; a value not
// replaced keeps its part.
TEST_F(PeerDataTest, ReplacedDataGoesWithoutAGet) {
  auto part = [&](const pmix_proc_t& proc, const char* key, const char* value) {
    wire::Bytes records;
    Record(records, proc, key, value);
    return std::make_shared<const wire::Bytes>(records);
  };
  auto add = [&](std::shared_ptr<const wire::Bytes> bytes) {
    wire::SharedBytes parts[] = {wire::Share(std::move(bytes))};
    return peers_.Add(codec_, parts, self_, &jobs_);
  };
  auto first = part(P("job", 1), "k", "round 1");
  auto other = part(P("job", 1), "other", "stays");
  std::weak_ptr<const wire::Bytes> watch_first = first, watch_other = other;
  ASSERT_TRUE(add(std::move(first)).ok());
  EXPECT_TRUE(peers_.Waiting(P("job", 1)));  // a first arrival: not decoded
  ASSERT_TRUE(add(std::move(other)).ok());
  std::weak_ptr<const wire::Bytes> previous = watch_first;
  for (int round = 2; round <= 50; ++round) {
    std::string value = "round " + std::to_string(round);
    auto next = part(P("job", 1), "k", value.c_str());
    std::weak_ptr<const wire::Bytes> watch = next;
    ASSERT_TRUE(add(std::move(next)).ok());
    EXPECT_TRUE(previous.expired()) << "round " << round << ": the replaced part is still held";
    EXPECT_FALSE(watch.expired());
    previous = watch;
  }
  EXPECT_FALSE(watch_other.expired()) << "a value nothing replaced lost its part";
  EXPECT_EQ(Get(P("job", 1), "k"), "round 50");
  EXPECT_EQ(Get(P("job", 1), "other"), "stays");
  // Several records of one process in one delivery (commits of one fence)
  // are no replacement of each other: still lazy.
  wire::Bytes both;
  Record(both, P("job", 2), "a", "1");
  Record(both, P("job", 2), "b", "2");
  ASSERT_TRUE(Add(both).ok());
  EXPECT_TRUE(peers_.Waiting(P("job", 2)));
  EXPECT_EQ(Get(P("job", 2), "b"), "2");
}

TEST_F(PeerDataTest, AMalformedBlobIsRefusedWhole) {
  wire::Bytes records;
  Record(records, P("job", 1), "k", "one");
  Record(records, P("other", PMIX_RANK_WILDCARD), "j", "their job");
  auto refs = wire::IndexRecords(records);
  ASSERT_TRUE(refs.ok());
  for (size_t n = 1; n < records.size(); ++n) {
    if (n == (*refs)[0].size) continue;  // a whole first record: valid
    wire::Bytes cut(records.begin(), records.begin() + static_cast<ptrdiff_t>(n));
    EXPECT_FALSE(Add(cut).ok()) << n;
    EXPECT_FALSE(peers_.Waiting(P("job", 1))) << n;
    EXPECT_TRUE(jobs_.empty()) << n;
  }
  wire::Bytes undef;
  Record(undef, P("job", PMIX_RANK_UNDEF), "k", "x");
  EXPECT_EQ(Add(undef).code(), PMIX_ERR_BAD_PARAM);
}

TEST_F(PeerDataTest, ACorruptRecordIsDroppedAndLosesNothing) {
  wire::Bytes good;
  Record(good, P("job", 1), "k", "kept");
  ASSERT_TRUE(Add(good).ok());
  EXPECT_EQ(Get(P("job", 1), "k"), "kept");
  // Rank 1's new record is framed right but its key/values are garbage;
  // rank 2's record is fine.
  wire::Bytes records;
  Record(records, P("job", 1), "k", "replacement");
  auto refs = wire::IndexRecords(records);
  ASSERT_TRUE(refs.ok());
  for (size_t i = (*refs)[0].kvs_offset; i < records.size(); ++i) records[i] = 0xee;
  Record(records, P("job", 2), "k", "two");
  ASSERT_TRUE(Add(records).ok());
  EXPECT_EQ(Get(P("job", 1), "k"), "kept");
  EXPECT_FALSE(peers_.Waiting(P("job", 1)));
  EXPECT_EQ(Get(P("job", 2), "k"), "two");
}

// Records in several parts (a reply's inline bytes and mapped regions):
// every part is kept as long as a value of it is, a part is dropped with
// the last record referring to it, and one bad part refuses them all.
TEST_F(PeerDataTest, PartsAreKeptWhileReferredToAndRefusedWhole) {
  wire::Bytes one, two;
  Record(one, P("job", 1), "k", "one");
  Record(two, P("job", 2), "k", "two");
  auto first = std::make_shared<const wire::Bytes>(one);
  auto second = std::make_shared<const wire::Bytes>(two);
  std::weak_ptr<const wire::Bytes> watch_first = first, watch_second = second;
  {
    wire::SharedBytes parts[] = {wire::Share(std::move(first)), wire::Share(std::move(second))};
    ASSERT_TRUE(peers_.Add(codec_, parts, self_, &jobs_).ok());
  }
  EXPECT_FALSE(watch_first.expired());
  EXPECT_EQ(Get(P("job", 2), "k"), "two");
  EXPECT_EQ(Get(P("job", 1), "k"), "one");
  // Later data for rank 1 replaces its value: the first part goes.
  wire::Bytes newer;
  Record(newer, P("job", 1), "k", "newer");
  ASSERT_TRUE(Add(newer).ok());
  EXPECT_EQ(Get(P("job", 1), "k"), "newer");
  EXPECT_TRUE(watch_first.expired()) << "no value refers to it any more";
  EXPECT_FALSE(watch_second.expired());
  peers_.Clear();
  EXPECT_TRUE(watch_second.expired());
  // A good part and a cut one: nothing is kept.
  wire::Bytes three, cut;
  Record(three, P("job", 3), "k", "three");
  Record(cut, P("job", 4), "k", "four");
  cut.resize(cut.size() - 3);
  wire::SharedBytes bad[] = {wire::Share(std::make_shared<const wire::Bytes>(three)),
                             wire::Share(std::make_shared<const wire::Bytes>(cut))};
  EXPECT_FALSE(peers_.Add(codec_, bad, self_, &jobs_).ok());
  EXPECT_FALSE(peers_.Waiting(P("job", 3)));
  EXPECT_EQ(Get(P("job", 3), "k"), kNotFound);
}

// Deferred parts (a fence's shared regions) are not looked at until the
// first lookup, then answer like the others; later data still wins over
// them whichever way it came, and they are kept while referred to.
TEST_F(PeerDataTest, DeferredPartsAreFramedAtTheFirstLookup) {
  wire::Bytes region;
  Record(region, P("job", 1), "k", "one");
  Record(region, P("job", 2), "k", "two");
  Record(region, self_, "k", "mine");
  auto bytes = std::make_shared<const wire::Bytes>(region);
  std::weak_ptr<const wire::Bytes> watch = bytes;
  {
    wire::SharedBytes parts[] = {wire::Share(std::move(bytes))};
    peers_.Defer(codec_, parts, self_);
  }
  EXPECT_EQ(peers_.Deferred(), 1u);
  EXPECT_TRUE(peers_.Waiting(P("job", 2)));
  EXPECT_EQ(Get(P("job", 2), "k"), "two");
  EXPECT_EQ(peers_.Deferred(), 0u);
  EXPECT_FALSE(peers_.Waiting(P("job", 2)));
  EXPECT_TRUE(peers_.Waiting(P("job", 1)));  // framed, not indexed
  EXPECT_EQ(Get(self_, "k"), kNotFound) << "our own record is skipped";
  auto all = peers_.FetchAll(P("job", 1));
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 1u);
  // Data that came after the deferred part wins, though framed after it.
  wire::Bytes later, newer;
  Record(later, P("job", 3), "k", "old");
  Record(newer, P("job", 3), "k", "new");
  wire::SharedBytes first[] = {wire::Share(std::make_shared<const wire::Bytes>(later))};
  peers_.Defer(codec_, first, self_);
  ASSERT_TRUE(Add(newer).ok());
  EXPECT_EQ(Get(P("job", 3), "k"), "new");
  EXPECT_FALSE(watch.expired()) << "values of it are referred to";
  peers_.Clear();
  EXPECT_TRUE(watch.expired());
}

// A deferred part that proves malformed is dropped whole at the first
// lookup, records of no valid rank in it are skipped, and the rest stands.
TEST_F(PeerDataTest, AMalformedDeferredPartIsDroppedAndLosesNothing) {
  wire::Bytes good, cut, jobs;
  Record(good, P("job", 1), "k", "one");
  Record(cut, P("job", 2), "k", "two");
  cut.resize(cut.size() - 3);
  Record(jobs, P("other", PMIX_RANK_WILDCARD), "k", "job");
  Record(jobs, P("job", 4), "k", "four");
  wire::SharedBytes parts[] = {wire::Share(std::make_shared<const wire::Bytes>(good)),
                               wire::Share(std::make_shared<const wire::Bytes>(cut)),
                               wire::Share(std::make_shared<const wire::Bytes>(jobs))};
  peers_.Defer(codec_, parts, self_);
  EXPECT_EQ(Get(P("job", 2), "k"), kNotFound);
  EXPECT_EQ(Get(P("job", 1), "k"), "one");
  EXPECT_EQ(Get(P("job", 4), "k"), "four");
  EXPECT_EQ(Get(P("other", PMIX_RANK_WILDCARD), "k"), kNotFound);
  EXPECT_TRUE(jobs_.empty()) << "job records come inline, never from deferred parts";
}

// Deliveries nobody reads: at most one waits unframed, so what later
// ones replace goes without a Get (the fences of a job that never Gets
// keep a bounded number of regions mapped).
TEST_F(PeerDataTest, ReplacedDeferredDataGoesWithoutAGet) {
  std::vector<std::weak_ptr<const wire::Bytes>> watch;
  for (int round = 0; round < 50; ++round) {
    wire::Bytes region;
    Record(region, P("job", 1), "k", std::to_string(round).c_str());
    auto bytes = std::make_shared<const wire::Bytes>(region);
    watch.push_back(bytes);
    wire::SharedBytes parts[] = {wire::Share(std::move(bytes))};
    peers_.Defer(codec_, parts, self_);
    size_t alive = 0;
    for (const auto& w : watch) alive += w.expired() ? 0 : 1;
    EXPECT_LE(alive, 3u) << "round " << round;
  }
  EXPECT_EQ(peers_.Deferred(), 1u);
  EXPECT_EQ(Get(P("job", 1), "k"), "49");
}

TEST_F(PeerDataTest, ConcurrentFirstGetsDecodeOnce) {
  wire::Bytes records;
  for (pmix_rank_t r = 1; r <= 64; ++r) Record(records, P("job", r), "k", std::to_string(r).c_str());
  ASSERT_TRUE(Add(records).ok());
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (pmix_rank_t r = 1; r <= 64; ++r)
        if (Get(P("job", r), "k") != std::to_string(r)) ++wrong;
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace pmix::client
