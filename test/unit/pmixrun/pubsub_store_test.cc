// pmixrun's publish/lookup datastore rules (src/tools/pmixrun/pubsub_store.h).
#include "src/tools/pmixrun/pubsub_store.h"

#include <gtest/gtest.h>

#include <cstring>

#include "pmix.h"

namespace pmixrun::pubsub {
namespace {

Identity Proc(const char* nspace, pmix_rank_t rank, uint32_t uid = 1000, uint32_t gid = 100) {
  Identity who;
  PMIx_Load_procid(&who.proc, nspace, rank);
  who.uid = uid;
  who.gid = gid;
  return who;
}

ValuePtr Int(int v) {
  pmix_value_t tmp;
  PMIx_Value_construct(&tmp);
  EXPECT_EQ(PMIx_Value_load(&tmp, &v, PMIX_INT), PMIX_SUCCESS);
  ValuePtr copy = CopyValue(tmp);
  PMIx_Value_destruct(&tmp);
  return copy;
}

PublishRequest Pub(const Identity& who, const char* key, int v,
                   pmix_data_range_t range = PMIX_RANGE_SESSION,
                   pmix_persistence_t persistence = PMIX_PERSIST_APP) {
  PublishRequest req;
  req.who = who;
  req.range = range;
  req.persistence = persistence;
  req.data.emplace_back(key, Int(v));
  return req;
}

LookupRequest Ask(const Identity& who, std::vector<std::string> keys,
                  pmix_data_range_t range = PMIX_RANGE_SESSION) {
  LookupRequest req;
  req.who = who;
  req.range = range;
  req.keys = std::move(keys);
  return req;
}

class StoreTest : public ::testing::Test {
 protected:
  pmix_status_t Publish(PublishRequest req) { return store_.Publish(std::move(req), &answered_); }
  LookupResult LookupNow(LookupRequest req) {
    auto r = store_.Lookup(std::move(req), next_id_++);
    EXPECT_TRUE(r.has_value());
    return r ? std::move(*r) : LookupResult{};
  }

  Store store_;
  std::vector<Answered> answered_;
  WaiterId next_id_ = 1;
  const Identity a0_ = Proc("job.a", 0), a1_ = Proc("job.a", 1), b0_ = Proc("job.b", 0);
};

TEST_F(StoreTest, LookupReturnsValueAndPublisher) {
  ASSERT_EQ(Publish(Pub(a0_, "svc", 42)), PMIX_SUCCESS);
  LookupResult r = LookupNow(Ask(a1_, {"svc"}));
  ASSERT_EQ(r.status, PMIX_SUCCESS);
  ASSERT_EQ(r.found.size(), 1u);
  EXPECT_EQ(r.found[0].key, "svc");
  EXPECT_EQ(r.found[0].value->data.integer, 42);
  EXPECT_STREQ(r.found[0].publisher.nspace, "job.a");
  EXPECT_EQ(r.found[0].publisher.rank, 0u);
}

TEST_F(StoreTest, StatusSaysHowMuchWasFound) {
  ASSERT_EQ(Publish(Pub(a0_, "one", 1)), PMIX_SUCCESS);
  EXPECT_EQ(LookupNow(Ask(a1_, {"none"})).status, PMIX_ERR_NOT_FOUND);
  LookupResult partial = LookupNow(Ask(a1_, {"none", "one"}));
  EXPECT_EQ(partial.status, PMIX_ERR_PARTIAL_SUCCESS);
  ASSERT_EQ(partial.found.size(), 1u);
  EXPECT_EQ(partial.found[0].key, "one");
}

TEST_F(StoreTest, DuplicateKeyInSameRangeIsRefused) {
  ASSERT_EQ(Publish(Pub(a0_, "k", 1)), PMIX_SUCCESS);
  EXPECT_EQ(Publish(Pub(b0_, "k", 2)), PMIX_ERR_DUPLICATE_KEY);
  // Another range is another data range.
  EXPECT_EQ(Publish(Pub(a0_, "k", 3, PMIX_RANGE_NAMESPACE)), PMIX_SUCCESS);
  // NAMESPACE ranges of two namespaces are two data ranges.
  EXPECT_EQ(Publish(Pub(b0_, "k", 4, PMIX_RANGE_NAMESPACE)), PMIX_SUCCESS);
  EXPECT_EQ(Publish(Pub(a1_, "k", 5, PMIX_RANGE_NAMESPACE)), PMIX_ERR_DUPLICATE_KEY);
}

TEST_F(StoreTest, DuplicateInOneRequestPublishesNothing) {
  PublishRequest req = Pub(a0_, "x", 1);
  req.data.emplace_back("y", Int(2));
  req.data.emplace_back("x", Int(3));
  EXPECT_EQ(Publish(std::move(req)), PMIX_ERR_DUPLICATE_KEY);
  EXPECT_EQ(store_.size(), 0u);
}

TEST_F(StoreTest, RangesLimitWhoFindsWhat) {
  ASSERT_EQ(Publish(Pub(a0_, "ns", 1, PMIX_RANGE_NAMESPACE)), PMIX_SUCCESS);
  ASSERT_EQ(Publish(Pub(a0_, "mine", 2, PMIX_RANGE_PROC_LOCAL)), PMIX_SUCCESS);
  EXPECT_EQ(LookupNow(Ask(a1_, {"ns"})).status, PMIX_SUCCESS);
  EXPECT_EQ(LookupNow(Ask(b0_, {"ns"})).status, PMIX_ERR_NOT_FOUND);
  EXPECT_EQ(LookupNow(Ask(a1_, {"mine"})).status, PMIX_ERR_NOT_FOUND);
  EXPECT_EQ(LookupNow(Ask(a0_, {"mine"})).status, PMIX_SUCCESS);
  // The requester's range limits the publishers searched.
  ASSERT_EQ(Publish(Pub(b0_, "wide", 3, PMIX_RANGE_GLOBAL)), PMIX_SUCCESS);
  EXPECT_EQ(LookupNow(Ask(a1_, {"wide"}, PMIX_RANGE_NAMESPACE)).status, PMIX_ERR_NOT_FOUND);
  EXPECT_EQ(LookupNow(Ask(a1_, {"wide"}, PMIX_RANGE_GLOBAL)).status, PMIX_SUCCESS);
}

TEST_F(StoreTest, NarrowestRangeWinsAmongDuplicates) {
  ASSERT_EQ(Publish(Pub(a0_, "k", 1, PMIX_RANGE_GLOBAL)), PMIX_SUCCESS);
  ASSERT_EQ(Publish(Pub(a0_, "k", 2, PMIX_RANGE_NAMESPACE)), PMIX_SUCCESS);
  LookupResult r = LookupNow(Ask(a1_, {"k"}, PMIX_RANGE_GLOBAL));
  ASSERT_EQ(r.found.size(), 1u);
  EXPECT_EQ(r.found[0].value->data.integer, 2);
}

TEST_F(StoreTest, UnsupportedAndInvalidRanges) {
  EXPECT_EQ(Publish(Pub(a0_, "k", 1, PMIX_RANGE_CUSTOM)), PMIX_ERR_NOT_SUPPORTED);
  EXPECT_EQ(Publish(Pub(a0_, "k", 1, PMIX_RANGE_RM)), PMIX_ERR_NOT_SUPPORTED);
  EXPECT_EQ(Publish(Pub(a0_, "k", 1, PMIX_RANGE_INVALID)), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(Publish(Pub(a0_, "k", 1, PMIX_RANGE_SESSION, PMIX_PERSIST_INVALID)),
            PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(LookupNow(Ask(a0_, {"k"}, PMIX_RANGE_CUSTOM)).status, PMIX_ERR_NOT_SUPPORTED);
  EXPECT_EQ(LookupNow(Ask(a0_, {})).status, PMIX_ERR_BAD_PARAM);
}

TEST_F(StoreTest, FirstReadIsReadOnce) {
  ASSERT_EQ(Publish(Pub(a0_, "once", 1, PMIX_RANGE_SESSION, PMIX_PERSIST_FIRST_READ)),
            PMIX_SUCCESS);
  EXPECT_EQ(LookupNow(Ask(a1_, {"once"})).status, PMIX_SUCCESS);
  EXPECT_EQ(LookupNow(Ask(a1_, {"once"})).status, PMIX_ERR_NOT_FOUND);
}

TEST_F(StoreTest, PersistenceEndsWithProcOrJob) {
  ASSERT_EQ(Publish(Pub(a0_, "proc", 1, PMIX_RANGE_SESSION, PMIX_PERSIST_PROC)), PMIX_SUCCESS);
  ASSERT_EQ(Publish(Pub(a0_, "app", 2, PMIX_RANGE_SESSION, PMIX_PERSIST_APP)), PMIX_SUCCESS);
  ASSERT_EQ(Publish(Pub(a0_, "sess", 3, PMIX_RANGE_SESSION, PMIX_PERSIST_SESSION)), PMIX_SUCCESS);
  EXPECT_TRUE(store_.ProcGone(a1_.proc, PMIX_ERR_LOST_CONNECTION).empty());
  EXPECT_EQ(store_.size(), 3u);
  store_.ProcGone(a0_.proc, PMIX_ERR_LOST_CONNECTION);
  EXPECT_EQ(LookupNow(Ask(b0_, {"proc"})).status, PMIX_ERR_NOT_FOUND);
  EXPECT_EQ(LookupNow(Ask(b0_, {"app"})).status, PMIX_SUCCESS);
  store_.JobGone("job.a", PMIX_ERR_LOST_CONNECTION);
  EXPECT_EQ(LookupNow(Ask(b0_, {"app"})).status, PMIX_ERR_NOT_FOUND);
  EXPECT_EQ(LookupNow(Ask(b0_, {"sess"})).status, PMIX_SUCCESS);
}

TEST_F(StoreTest, UnpublishOnlyOwnKeys) {
  ASSERT_EQ(Publish(Pub(a0_, "k", 1)), PMIX_SUCCESS);
  ASSERT_EQ(Publish(Pub(a0_, "j", 2, PMIX_RANGE_NAMESPACE)), PMIX_SUCCESS);
  EXPECT_EQ(store_.Unpublish(a1_, {"k"}, std::nullopt), PMIX_ERR_NO_PERMISSIONS);
  EXPECT_EQ(store_.Unpublish(a1_, {"zzz"}, std::nullopt), PMIX_ERR_NOT_FOUND);
  // Same proc, another uid: not the owner.
  EXPECT_EQ(store_.Unpublish(Proc("job.a", 0, 4242), {"k"}, std::nullopt),
            PMIX_ERR_NO_PERMISSIONS);
  EXPECT_EQ(store_.Unpublish(a0_, {"j"}, PMIX_RANGE_SESSION), PMIX_ERR_NOT_FOUND);
  EXPECT_EQ(store_.Unpublish(a0_, {"k"}, std::nullopt), PMIX_SUCCESS);
  EXPECT_EQ(store_.size(), 1u);
  EXPECT_EQ(store_.Unpublish(a0_, {}, std::nullopt), PMIX_SUCCESS);
  EXPECT_EQ(store_.size(), 0u);
  EXPECT_EQ(Publish(Pub(a1_, "k", 3)), PMIX_SUCCESS);  // free to publish again
}

TEST_F(StoreTest, AccessPermissionsAreChecked) {
  PublishRequest req = Pub(a0_, "secret", 7);
  req.access.restricted = true;
  req.access.uids = {2000};
  ASSERT_EQ(Publish(std::move(req)), PMIX_SUCCESS);
  EXPECT_EQ(LookupNow(Ask(Proc("job.a", 1, 3000, 300), {"secret"})).status,
            PMIX_ERR_NO_PERMISSIONS);
  EXPECT_EQ(LookupNow(Ask(Proc("job.a", 1, 2000, 300), {"secret"})).status, PMIX_SUCCESS);
  EXPECT_EQ(LookupNow(Ask(a0_, {"secret"})).status, PMIX_SUCCESS);  // its publisher
}

TEST_F(StoreTest, WaitingLookupIsAnsweredByPublish) {
  LookupRequest ask = Ask(a1_, {"late", "later"});
  ask.wait_for = 2;
  EXPECT_FALSE(store_.Lookup(std::move(ask), 77).has_value());
  EXPECT_EQ(store_.held(), 1u);
  ASSERT_EQ(Publish(Pub(a0_, "late", 1)), PMIX_SUCCESS);
  EXPECT_TRUE(answered_.empty());
  ASSERT_EQ(Publish(Pub(a0_, "later", 2)), PMIX_SUCCESS);
  ASSERT_EQ(answered_.size(), 1u);
  EXPECT_EQ(answered_[0].id, 77u);
  EXPECT_EQ(answered_[0].result.status, PMIX_SUCCESS);
  EXPECT_EQ(answered_[0].result.found.size(), 2u);
  EXPECT_EQ(store_.held(), 0u);
}

TEST_F(StoreTest, WaitForSomeKeys) {
  LookupRequest ask = Ask(a1_, {"p", "q"});
  ask.wait_for = 1;
  EXPECT_FALSE(store_.Lookup(std::move(ask), 5).has_value());
  ASSERT_EQ(Publish(Pub(a0_, "q", 1)), PMIX_SUCCESS);
  ASSERT_EQ(answered_.size(), 1u);
  EXPECT_EQ(answered_[0].result.status, PMIX_ERR_PARTIAL_SUCCESS);
}

TEST_F(StoreTest, FirstReadGoesToTheLongestWaiter) {
  for (WaiterId id : {10, 11}) {
    LookupRequest ask = Ask(a1_, {"token"});
    ask.wait_for = 1;
    EXPECT_FALSE(store_.Lookup(std::move(ask), id).has_value());
  }
  ASSERT_EQ(Publish(Pub(a0_, "token", 1, PMIX_RANGE_SESSION, PMIX_PERSIST_FIRST_READ)),
            PMIX_SUCCESS);
  ASSERT_EQ(answered_.size(), 1u);
  EXPECT_EQ(answered_[0].id, 10u);
  EXPECT_EQ(store_.held(), 1u);
  EXPECT_EQ(store_.size(), 0u);
}

TEST_F(StoreTest, WaitingLookupTimesOut) {
  auto t0 = Clock::now();
  LookupRequest ask = Ask(a1_, {"never"});
  ask.wait_for = 1;
  ask.deadline = t0 + std::chrono::seconds(2);
  EXPECT_FALSE(store_.Lookup(std::move(ask), 3).has_value());
  ASSERT_TRUE(store_.NextDeadline().has_value());
  EXPECT_EQ(*store_.NextDeadline(), t0 + std::chrono::seconds(2));
  EXPECT_TRUE(store_.Expire(t0 + std::chrono::seconds(1)).empty());
  auto expired = store_.Expire(t0 + std::chrono::seconds(2));
  ASSERT_EQ(expired.size(), 1u);
  EXPECT_EQ(expired[0].result.status, PMIX_ERR_TIMEOUT);
  EXPECT_FALSE(store_.NextDeadline().has_value());
}

TEST_F(StoreTest, WaitingLookupEndsWithItsRequester) {
  LookupRequest ask = Ask(a1_, {"never"});
  ask.wait_for = 1;
  EXPECT_FALSE(store_.Lookup(std::move(ask), 9).has_value());
  EXPECT_TRUE(store_.ProcGone(a0_.proc, PMIX_ERR_LOST_CONNECTION).empty());
  auto gone = store_.ProcGone(a1_.proc, PMIX_ERR_LOST_CONNECTION);
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_EQ(gone[0].id, 9u);
  EXPECT_EQ(gone[0].result.status, PMIX_ERR_LOST_CONNECTION);
}

}  // namespace
}  // namespace pmixrun::pubsub
