// gds/hash driven through its descriptor: placement by realm, replacement,
// scope visibility and NULL-key fetches.
#include <gtest/gtest.h>

#include <string>

#include "pmix/mca/gds.h"
#include "pmix/mca/mca.h"
#include "test/unit/gds/gds_test_util.h"

extern "C" pmix_mca_component_t pmix_mca_gds_hash_component;

namespace pmix::gds::test {

const pmix_gds_module_t* HashModule() {
  static const void* module = [] {
    const pmix_mca_component_t& c = pmix_mca_gds_hash_component;
    void* context = nullptr;
    const void* found = nullptr;
    int priority = 0;
    if (c.open(nullptr, nullptr, &context) != PMIX_SUCCESS) return found;
    if (c.query(context, &found, &priority) != PMIX_SUCCESS) return found;
    return found;
  }();
  return static_cast<const pmix_gds_module_t*>(module);
}

namespace {

constexpr const char* kNs = "ns-A";

TEST(GdsHashComponent, Descriptor) {
  EXPECT_STREQ(pmix_mca_gds_hash_component.framework, "gds");
  EXPECT_STREQ(pmix_mca_gds_hash_component.name, "hash");
  EXPECT_EQ(pmix_mca_gds_hash_component.default_priority, 50);
  ASSERT_NE(HashModule(), nullptr);
  EXPECT_STREQ(HashModule()->name, "hash");
  // Interface 2.0: a store without regions (images of a hash-only process
  // live on the heap).
  EXPECT_NE(HashModule()->create, nullptr);
  EXPECT_EQ(HashModule()->region_create, nullptr);
  EXPECT_EQ(HashModule()->region_seal, nullptr);
  EXPECT_EQ(HashModule()->region_attach, nullptr);
  EXPECT_EQ(HashModule()->region_release, nullptr);
}

using QualFn = void (*)(Infos&);
void NoQuals(Infos&) {}
void Node1Id(Infos& q) { q.U32(PMIX_NODEID, 1); }
void Node1Host(Infos& q) { q.Str(PMIX_HOSTNAME, "node1"); }
void Node1Both(Infos& q) { q.U32(PMIX_NODEID, 1).Str(PMIX_HOSTNAME, "node1"); }
void App1(Infos& q) { q.U32(PMIX_APPNUM, 1); }
void Session7(Infos& q) { q.U32(PMIX_SESSION_ID, 7); }

struct PlacementCase {
  const char* name;
  pmix_gds_realm_t realm;
  pmix_rank_t store_rank;
  QualFn store_quals;
  pmix_gds_realm_t fetch_realm;
  pmix_rank_t fetch_rank;
  QualFn fetch_quals;
};

// Seeded: rank 2 has PMIX_APPNUM 1; the job has PMIX_SESSION_ID 7.
const PlacementCase kPlacement[] = {
    {"job", PMIX_GDS_REALM_JOB, PMIX_RANK_WILDCARD, NoQuals, PMIX_GDS_REALM_JOB, 3, NoQuals},
    {"job via proc wildcard", PMIX_GDS_REALM_JOB, 0, NoQuals, PMIX_GDS_REALM_PROC,
     PMIX_RANK_WILDCARD, NoQuals},
    {"proc wildcard stores job", PMIX_GDS_REALM_PROC, PMIX_RANK_WILDCARD, NoQuals,
     PMIX_GDS_REALM_JOB, 0, NoQuals},
    {"proc", PMIX_GDS_REALM_PROC, 2, NoQuals, PMIX_GDS_REALM_PROC, 2, NoQuals},
    {"node by id", PMIX_GDS_REALM_NODE, 0, Node1Both, PMIX_GDS_REALM_NODE, 0, Node1Id},
    {"node by hostname", PMIX_GDS_REALM_NODE, 0, Node1Both, PMIX_GDS_REALM_NODE, 0, Node1Host},
    {"node stored by host, found by id after link", PMIX_GDS_REALM_NODE, 0, Node1Host,
     PMIX_GDS_REALM_NODE, 0, Node1Id},
    {"app by appnum", PMIX_GDS_REALM_APP, 0, App1, PMIX_GDS_REALM_APP, 0, App1},
    {"app of the proc", PMIX_GDS_REALM_APP, 0, App1, PMIX_GDS_REALM_APP, 2, NoQuals},
    {"session by id", PMIX_GDS_REALM_SESSION, 0, Session7, PMIX_GDS_REALM_SESSION, 0, Session7},
    {"session of the job", PMIX_GDS_REALM_SESSION, 0, Session7, PMIX_GDS_REALM_SESSION, 5,
     NoQuals},
};

TEST(GdsHash, PlacementByRealm) {
  for (const PlacementCase& c : kPlacement) {
    SCOPED_TRACE(c.name);
    TestStore store(HashModule());
    Infos appnum, session, link, none;
    appnum.U32(PMIX_APPNUM, 1);
    session.U32(PMIX_SESSION_ID, 7);
    ASSERT_EQ(store.Put(Proc(kNs, 2), PMIX_GDS_REALM_PROC, PMIX_SCOPE_UNDEF, nullptr, appnum),
              PMIX_SUCCESS);
    ASSERT_EQ(store.Put(Proc(kNs, 0), PMIX_GDS_REALM_JOB, PMIX_SCOPE_UNDEF, nullptr, session),
              PMIX_SUCCESS);
    Node1Both(link);  // a later store naming both links id and hostname
    ASSERT_EQ(store.Put(Proc(kNs, 0), PMIX_GDS_REALM_NODE, PMIX_SCOPE_UNDEF, &link, none),
              PMIX_SUCCESS);
    Infos sq, fq, kvs;
    c.store_quals(sq);
    c.fetch_quals(fq);
    kvs.Str("pmix.test.key", c.name).Int("other", 4);
    ASSERT_EQ(store.Put(Proc(kNs, c.store_rank), c.realm, PMIX_SCOPE_UNDEF, &sq, kvs),
              PMIX_SUCCESS);
    Fetched out;
    store.Get(Proc(kNs, c.fetch_rank), c.fetch_realm, PMIX_GDS_VIEW_REMOTE, "pmix.test.key",
              &fq, &out);
    ASSERT_EQ(out.status, PMIX_SUCCESS);
    ASSERT_EQ(out.n, 1u);
    EXPECT_STREQ(out.kvs[0].key, "pmix.test.key");
    EXPECT_TRUE(SameValue(out.kvs[0].value, kvs[0].value));
    // Exactly one place: the proc realm of another rank does not have it.
    if (c.realm != PMIX_GDS_REALM_PROC || c.store_rank == PMIX_RANK_WILDCARD) {
      EXPECT_EQ(store.Status(Proc(kNs, 2), PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_ALL,
                             "pmix.test.key"), PMIX_ERR_NOT_FOUND);
    } else {
      EXPECT_EQ(store.Status(Proc(kNs, 3), PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_ALL,
                             "pmix.test.key"), PMIX_ERR_NOT_FOUND);
    }
  }
}

TEST(GdsHash, ReplaceKeepsOneValue) {
  TestStore store(HashModule());
  Infos first, second;
  first.Int("k", 1).Int("stay", 9);
  second.Int("k", 2);
  ASSERT_EQ(store.Put(Proc(kNs, 0), PMIX_GDS_REALM_PROC, PMIX_GLOBAL, nullptr, first), 0);
  ASSERT_EQ(store.Put(Proc(kNs, 0), PMIX_GDS_REALM_PROC, PMIX_GLOBAL, nullptr, second), 0);
  Fetched one, all;
  store.Get(Proc(kNs, 0), PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_ALL, "k", nullptr, &one);
  ASSERT_EQ(one.status, PMIX_SUCCESS);
  EXPECT_TRUE(SameValue(one.kvs[0].value, second[0].value));
  store.Get(Proc(kNs, 0), PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_ALL, nullptr, nullptr, &all);
  ASSERT_EQ(all.status, PMIX_SUCCESS);
  EXPECT_EQ(all.n, 2u);
  EXPECT_EQ(all.count["k"], 1);
  EXPECT_TRUE(SameValue(*all.Value("k"), second[0].value));
}

// Puts of "k" in order (value = index + 1); what each view then sees
// (0 = PMIX_ERR_EXISTS_OUTSIDE_SCOPE, else the value seen).
struct ScopeCase {
  const char* name;
  std::vector<pmix_scope_t> puts;
  int local, remote, all;
};

const ScopeCase kScopes[] = {
    {"local", {PMIX_LOCAL}, 1, 0, 1},
    {"remote", {PMIX_REMOTE}, 0, 1, 1},
    {"global", {PMIX_GLOBAL}, 1, 1, 1},
    {"undef acts as global", {PMIX_SCOPE_UNDEF}, 1, 1, 1},
    {"internal", {PMIX_INTERNAL}, 0, 0, 1},
    {"local and remote coexist", {PMIX_LOCAL, PMIX_REMOTE}, 1, 2, 1},
    {"global replaces both", {PMIX_LOCAL, PMIX_REMOTE, PMIX_GLOBAL}, 3, 3, 3},
    {"local replaces global", {PMIX_GLOBAL, PMIX_LOCAL}, 2, 0, 2},
    {"remote replaces global", {PMIX_GLOBAL, PMIX_REMOTE}, 0, 2, 2},
    {"internal beside global", {PMIX_GLOBAL, PMIX_INTERNAL}, 1, 1, 2},
    {"same scope replaces", {PMIX_LOCAL, PMIX_LOCAL}, 2, 0, 2},
};

void ExpectSeen(TestStore& store, pmix_gds_view_t view, int want) {
  Fetched out;
  store.Get(Proc(kNs, 0), PMIX_GDS_REALM_PROC, view, "k", nullptr, &out);
  if (want == 0) {
    EXPECT_EQ(out.status, PMIX_ERR_EXISTS_OUTSIDE_SCOPE) << "view " << view;
    return;
  }
  ASSERT_EQ(out.status, PMIX_SUCCESS) << "view " << view;
  EXPECT_EQ(out.kvs[0].value.type, PMIX_INT);
  EXPECT_EQ(out.kvs[0].value.data.integer, want) << "view " << view;
}

TEST(GdsHash, ScopeVisibility) {
  for (const ScopeCase& c : kScopes) {
    SCOPED_TRACE(c.name);
    TestStore store(HashModule());
    for (size_t i = 0; i < c.puts.size(); ++i) {
      Infos kv;
      kv.Int("k", static_cast<int>(i + 1));
      ASSERT_EQ(store.Put(Proc(kNs, 0), PMIX_GDS_REALM_PROC, c.puts[i], nullptr, kv), 0);
    }
    ExpectSeen(store, PMIX_GDS_VIEW_LOCAL, c.local);
    ExpectSeen(store, PMIX_GDS_VIEW_REMOTE, c.remote);
    ExpectSeen(store, PMIX_GDS_VIEW_ALL, c.all);
  }
}

TEST(GdsHash, NullKeyReturnsEveryVisibleKeyOnce) {
  TestStore store(HashModule());
  Infos global, local, remote, job;
  global.Int("g1", 1).Int("g2", 2).Str("both", "global");
  local.Int("l1", 3).Str("both", "local");
  remote.Int("r1", 4);
  job.U32(PMIX_UNIV_SIZE, 8).U32(PMIX_JOB_SIZE, 4);
  const pmix_proc_t p = Proc(kNs, 1);
  ASSERT_EQ(store.Put(p, PMIX_GDS_REALM_PROC, PMIX_GLOBAL, nullptr, global), 0);
  ASSERT_EQ(store.Put(p, PMIX_GDS_REALM_PROC, PMIX_LOCAL, nullptr, local), 0);
  ASSERT_EQ(store.Put(p, PMIX_GDS_REALM_PROC, PMIX_REMOTE, nullptr, remote), 0);
  ASSERT_EQ(store.Put(p, PMIX_GDS_REALM_JOB, PMIX_SCOPE_UNDEF, nullptr, job), 0);

  struct { pmix_gds_view_t view; std::map<std::string, int> want; } cases[] = {
      {PMIX_GDS_VIEW_ALL, {{"g1", 1}, {"g2", 1}, {"both", 1}, {"l1", 1}, {"r1", 1}}},
      {PMIX_GDS_VIEW_LOCAL, {{"g1", 1}, {"g2", 1}, {"both", 1}, {"l1", 1}}},
      {PMIX_GDS_VIEW_REMOTE, {{"g1", 1}, {"g2", 1}, {"r1", 1}}},
  };
  for (auto& c : cases) {
    Fetched out;
    store.Get(p, PMIX_GDS_REALM_PROC, c.view, nullptr, nullptr, &out);
    ASSERT_EQ(out.status, PMIX_SUCCESS);
    EXPECT_EQ(out.count, c.want) << "view " << c.view;
    EXPECT_EQ(out.n, c.want.size());
  }
  Fetched jobs;
  store.Get(Proc(kNs, PMIX_RANK_WILDCARD), PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_REMOTE, nullptr,
            nullptr, &jobs);
  ASSERT_EQ(jobs.status, PMIX_SUCCESS);
  EXPECT_EQ(jobs.count, (std::map<std::string, int>{{PMIX_UNIV_SIZE, 1}, {PMIX_JOB_SIZE, 1}}));
  // Only LOCAL data: a remote peer sees nothing.
  Infos only_local;
  only_local.Int("x", 1);
  ASSERT_EQ(store.Put(Proc(kNs, 2), PMIX_GDS_REALM_PROC, PMIX_LOCAL, nullptr, only_local), 0);
  EXPECT_EQ(store.Status(Proc(kNs, 2), PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_REMOTE, nullptr),
            PMIX_ERR_NOT_FOUND);
}

TEST(GdsHash, RankUndefFindsThePoster) {
  TestStore store(HashModule());
  Infos kv;
  kv.Str("unique.key", "from 5");
  ASSERT_EQ(store.Put(Proc(kNs, 5), PMIX_GDS_REALM_PROC, PMIX_GLOBAL, nullptr, kv), 0);
  Fetched out;
  store.Get(Proc(kNs, PMIX_RANK_UNDEF), PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_REMOTE, "unique.key",
            nullptr, &out);
  ASSERT_EQ(out.status, PMIX_SUCCESS);
  EXPECT_TRUE(SameValue(out.kvs[0].value, kv[0].value));
  EXPECT_EQ(store.Status(Proc(kNs, PMIX_RANK_UNDEF), PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_ALL,
                         "absent"), PMIX_ERR_NOT_FOUND);
}

// The key of an answer to a PMIX_RANK_UNDEF Get outlives the lookup: a key
// longer than the short-string buffer once came back from freed memory.
TEST(GdsHash, RankUndefAnswerCarriesTheKey) {
  TestStore store(HashModule());
  const std::string key = "a.key.long.enough.to.live.on.the.heap.of.a.string";
  Infos kv;
  kv.Str(key.c_str(), "from 3");
  ASSERT_EQ(store.Put(Proc(kNs, 3), PMIX_GDS_REALM_PROC, PMIX_GLOBAL, nullptr, kv), 0);
  for (int round = 0; round < 4; ++round) {
    Fetched out;
    store.Get(Proc(kNs, PMIX_RANK_UNDEF), PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_ALL, key.c_str(),
              nullptr, &out);
    ASSERT_EQ(out.status, PMIX_SUCCESS);
    ASSERT_EQ(out.n, 1u);
    EXPECT_EQ(std::string(out.kvs[0].key), key);
  }
}

TEST(GdsHash, ValuesAreDeepCopies) {
  TestStore store(HashModule());
  {
    Infos kv;
    kv.Str("s", "original");
    ASSERT_EQ(store.Put(Proc(kNs, 0), PMIX_GDS_REALM_PROC, PMIX_GLOBAL, nullptr, kv), 0);
    kv.data()[0].value.data.string[0] = 'X';  // the caller's copy changes, then goes
  }
  Fetched a;
  store.Get(Proc(kNs, 0), PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_ALL, "s", nullptr, &a);
  ASSERT_EQ(a.status, PMIX_SUCCESS);
  EXPECT_STREQ(a.kvs[0].value.data.string, "original");
  a.kvs[0].value.data.string[0] = 'Y';  // nor does changing what fetch returned
  Fetched b;
  store.Get(Proc(kNs, 0), PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_ALL, "s", nullptr, &b);
  EXPECT_STREQ(b.kvs[0].value.data.string, "original");
}

}  // namespace
}  // namespace pmix::gds::test
