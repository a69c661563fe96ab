// The server's fence bookkeeping (src/server/server_fence.h): participant
// sets, their resolution against what the server knows, and trackers.
#include <gtest/gtest.h>

#include <climits>
#include <cstring>
#include <map>

#include "pmix.h"
#include "src/server/server_collective.h"
#include "src/server/server_fence.h"
#include "test/unit/common/proc_ids.h"

namespace pmix::server::fence {
namespace {

using test::P;

constexpr pmix_rank_t kAll = PMIX_RANK_WILDCARD;

std::string Text(const std::vector<pmix_proc_t>& procs) {
  std::string out;
  for (const auto& p : procs)
    out += std::string(p.nspace) + ":" + (p.rank == kAll ? "*" : std::to_string(p.rank)) + " ";
  return out;
}

// What a client was sent of a chunk (server_collective.h): kept sorted
// and merged, and subtracted from what a later answer names.
TEST(SentExtents, AddSentKeepsThemSortedAndMerged) {
  Extents sent;
  AddSent(sent, {{10, 5}, {0, 5}});
  EXPECT_EQ(sent, (Extents{{0, 5}, {10, 5}}));
  AddSent(sent, {{5, 5}});  // touches both: one range
  EXPECT_EQ(sent, (Extents{{0, 15}}));
  AddSent(sent, {{12, 10}, {30, 1}});  // overlaps the end; a range apart
  EXPECT_EQ(sent, (Extents{{0, 22}, {30, 1}}));
  AddSent(sent, {{2, 3}});  // inside: nothing changes
  EXPECT_EQ(sent, (Extents{{0, 22}, {30, 1}}));
  AddSent(sent, {});
  EXPECT_EQ(sent, (Extents{{0, 22}, {30, 1}}));
}

TEST(SentExtents, UnsentLeavesOutWhatWasSent) {
  const Extents named{{0, 10}, {20, 10}, {40, 10}};
  EXPECT_EQ(Unsent(named, {}), named);
  EXPECT_EQ(Unsent(named, {{0, 100}}), Extents{});
  EXPECT_EQ(Unsent(named, {{5, 20}}), (Extents{{0, 5}, {25, 5}, {40, 10}}));
  EXPECT_EQ(Unsent(named, {{10, 10}, {30, 10}}), named) << "sent ranges only touching the named ones";
  EXPECT_EQ(Unsent(named, {{0, 10}, {40, 10}}), (Extents{{20, 10}}));
  EXPECT_EQ(Unsent(named, {{22, 2}, {26, 2}}), (Extents{{0, 10}, {20, 2}, {24, 2}, {28, 2}, {40, 10}}));
  EXPECT_EQ(Unsent(named, {{60, 5}}), named);
}

TEST(FenceCanonicalize, SortsAndDropsDuplicates) {
  std::vector<pmix_proc_t> in = {P("b", 1), P("a", 3), P("a", 1), P("b", 1), P("a", 3)};
  auto c = Canonicalize(in);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(Text(*c), "a:1 a:3 b:1 ");
}

TEST(FenceCanonicalize, WildcardAbsorbsRanksOfItsNamespaceOnly) {
  std::vector<pmix_proc_t> in = {P("a", 2), P("b", 0), P("a", kAll), P("a", 0), P("a", kAll)};
  auto c = Canonicalize(in);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(Text(*c), "a:* b:0 ");
}

TEST(FenceCanonicalize, RejectsBadInput) {
  pmix_proc_t unterminated{};
  std::memset(unterminated.nspace, 'x', sizeof unterminated.nspace);
  const std::vector<std::vector<pmix_proc_t>> cases = {
      {},                                         // empty
      {P("", 0)},                                 // empty nspace
      {unterminated},                             // no terminator
      {P("a", PMIX_RANK_UNDEF)},                  // not a rank
      {P("a", 0), P("a", PMIX_RANK_LOCAL_NODE)},  // not a rank, after a good one
      {P("a", PMIX_RANK_INVALID)},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    auto c = Canonicalize(cases[i]);
    EXPECT_EQ(c.status().code(), PMIX_ERR_BAD_PARAM) << "case " << i;
  }
}

TEST(FenceKey, SameSetSameKeyWhateverTheOrder) {
  auto a = Canonicalize(std::vector<pmix_proc_t>{P("n", 2), P("n", 0), P("m", 1)});
  auto b = Canonicalize(std::vector<pmix_proc_t>{P("m", 1), P("n", 0), P("n", 2), P("n", 0)});
  auto c = Canonicalize(std::vector<pmix_proc_t>{P("m", 1), P("n", 0)});
  auto d = Canonicalize(std::vector<pmix_proc_t>{P("n", kAll)});
  ASSERT_TRUE(a.ok() && b.ok() && c.ok() && d.ok());
  EXPECT_EQ(CollectiveKey(*a), CollectiveKey(*b));
  EXPECT_NE(CollectiveKey(*a), CollectiveKey(*c));
  EXPECT_NE(CollectiveKey(*a), CollectiveKey(*d));
}

TEST(FenceKey, NamespaceBoundariesAreNotAmbiguous) {
  auto a = Canonicalize(std::vector<pmix_proc_t>{P("n1", 1)});
  auto b = Canonicalize(std::vector<pmix_proc_t>{P("n", 11)});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(CollectiveKey(*a), CollectiveKey(*b));
}

TEST(FenceIncludes, ByRankAndByWildcard) {
  auto c = Canonicalize(std::vector<pmix_proc_t>{P("a", kAll), P("b", 3)});
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(Includes(*c, {"a", 7}));
  EXPECT_TRUE(Includes(*c, {"b", 3}));
  EXPECT_FALSE(Includes(*c, {"b", 4}));
  EXPECT_FALSE(Includes(*c, {"c", 0}));
}

// A server that knows namespace "job" (ranks 0..3 local, size `size`).
struct Lookup {
  uint32_t size = 4;
  int calls = 0;
  NamespaceLookup Fn() {
    return [this](std::string_view ns) -> std::optional<NamespaceFacts> {
      ++calls;
      if (ns != "job") return std::nullopt;
      return NamespaceFacts{{0, 1, 2, 3}, size};
    };
  }
};

TEST(FenceResolve, WholeLocalJobHasNoRemoteParticipants) {
  Lookup l;
  auto r = Resolve(std::vector<pmix_proc_t>{P("job", kAll)}, l.Fn());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->local.size(), 4u);
  EXPECT_FALSE(r->remote);
}

TEST(FenceResolve, LargerJobHasRemoteParticipants) {
  Lookup l;
  l.size = 6;
  auto r = Resolve(std::vector<pmix_proc_t>{P("job", kAll)}, l.Fn());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->local.size(), 4u);
  EXPECT_TRUE(r->remote);
}

TEST(FenceResolve, UnknownJobSizeAssumesNothingRemote) {
  Lookup l;
  l.size = 0;
  auto r = Resolve(std::vector<pmix_proc_t>{P("job", kAll), P("job", 9)}, l.Fn());
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->remote);  // rank 9 is not local: it must be elsewhere
  auto w = Resolve(std::vector<pmix_proc_t>{P("job", kAll)}, l.Fn());
  ASSERT_TRUE(w.ok());
  EXPECT_FALSE(w->remote);
}

TEST(FenceResolve, ExplicitRanks) {
  Lookup l;
  l.size = 8;
  auto r = Resolve(std::vector<pmix_proc_t>{P("job", 1), P("job", 3)}, l.Fn());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->local, (std::set<ProcName>{{"job", 1}, {"job", 3}}));
  EXPECT_FALSE(r->remote);
  auto s = Resolve(std::vector<pmix_proc_t>{P("job", 1), P("job", 5)}, l.Fn());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->local.size(), 1u);
  EXPECT_TRUE(s->remote);
}

TEST(FenceResolve, RankBeyondTheJobIsNotFound) {
  Lookup l;
  auto r = Resolve(std::vector<pmix_proc_t>{P("job", 0), P("job", 4)}, l.Fn());
  EXPECT_EQ(r.status().code(), PMIX_ERR_NOT_FOUND);
}

TEST(FenceResolve, UnregisteredNamespaceIsRemoteOnlyAndLookedUpOnce) {
  Lookup l;
  auto r = Resolve(std::vector<pmix_proc_t>{P("job", 0), P("other", 0), P("other", 1), P("other", 5)},
                   l.Fn());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->local, (std::set<ProcName>{{"job", 0}}));
  EXPECT_TRUE(r->remote);
  EXPECT_EQ(l.calls, 2);
}

TEST(FenceTable, ContributorsOfOneSetShareATracker) {
  Table table;
  Tracker& t = table.Create("k", {P("job", kAll)}, Participants{{{"job", 0}, {"job", 1}}, false});
  t.contributions[{"job", 0}] = {};
  EXPECT_FALSE(t.Ready());
  EXPECT_EQ(table.FindJoinable("k", {"job", 1}), &t);
  EXPECT_EQ(table.FindJoinable("other", {"job", 1}), nullptr);
  t.contributions[{"job", 1}] = {};
  EXPECT_TRUE(t.Ready());
}

TEST(FenceTable, ReadyNeedsEveryLocalParticipantNotJustAsManyContributions) {
  Table table;
  Tracker& t = table.Create("k", {P("job", kAll)}, Participants{{{"job", 0}, {"job", 1}}, false});
  t.contributions[{"job", 0}] = {};
  t.contributions[{"job", 7}] = {};  // not a local participant
  EXPECT_FALSE(t.Ready());
  t.participants.local.erase({"job", 1});  // dropped (died, finalized)
  EXPECT_TRUE(t.Ready());
}

TEST(FenceTable, ASecondCallByTheSameProcStartsTheNextFence) {
  Table table;
  Tracker& first = table.Create("k", {P("job", kAll)}, Participants{{{"job", 0}, {"job", 1}}, false});
  first.contributions[{"job", 0}] = {};
  EXPECT_EQ(table.FindJoinable("k", {"job", 0}), nullptr);
  Tracker& second = table.Create("k", {P("job", kAll)}, Participants{{{"job", 0}, {"job", 1}}, false});
  second.contributions[{"job", 0}] = {};
  // rank 1's first call joins the older one, its second the newer one.
  EXPECT_EQ(table.FindJoinable("k", {"job", 1}), &first);
  first.contributions[{"job", 1}] = {};
  EXPECT_EQ(table.FindJoinable("k", {"job", 1}), &second);
  EXPECT_LT(first.id, second.id);
}

TEST(FenceTable, HandedToTheHostIsNotJoinable) {
  Table table;
  Tracker& t = table.Create("k", {P("job", kAll)}, Participants{{{"job", 0}}, true});
  t.host_called = true;
  EXPECT_EQ(table.FindJoinable("k", {"job", 1}), nullptr);
}

TEST(FenceTable, TakeRemovesAndIdsAreNotReused) {
  Table table;
  uint64_t a = table.Create("a", {}, {}).id;
  uint64_t b = table.Create("b", {}, {}).id;
  EXPECT_EQ(table.Ids(), (std::vector<uint64_t>{a, b}));
  auto taken = table.Take(a);
  ASSERT_NE(taken, nullptr);
  EXPECT_EQ(taken->key, "a");
  EXPECT_EQ(table.Take(a), nullptr);
  EXPECT_EQ(table.Find(a), nullptr);
  uint64_t c = table.Create("c", {}, {}).id;
  EXPECT_NE(c, a);
  EXPECT_EQ(table.size(), 2u);
}

}  // namespace
}  // namespace pmix::server::fence
