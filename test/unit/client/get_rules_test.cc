// The pure Put/Get rules: key and scope validation, directive parsing and
// where a get looks (src/client/get_rules.h).
#include "src/client/get_rules.h"

#include <gtest/gtest.h>

#include <cstring>
#include <deque>
#include <string>
#include <vector>

namespace pmix::getrules {
namespace {

// A proc that lives as long as the test program: plans borrow their
// target (LookupPlan).
const pmix_proc_t& Proc(const char* ns, pmix_rank_t rank) {
  static std::deque<pmix_proc_t> procs;
  pmix_proc_t& p = procs.emplace_back();
  PMIx_Load_procid(&p, ns, rank);
  return p;
}

const pmix_proc_t kMe = Proc("job", 3);
Requester Me() { return {kMe, "node1"}; }

struct Infos {
  std::vector<pmix_info_t> v;
  ~Infos() {
    for (auto& i : v) PMIx_Info_destruct(&i);
  }
  Infos& Add(const char* key, const void* data, pmix_data_type_t type) {
    v.emplace_back();
    PMIx_Info_construct(&v.back());
    EXPECT_EQ(PMIX_SUCCESS, PMIx_Info_load(&v.back(), key, data, type));
    return *this;
  }
  Infos& Flag(const char* key) {
    bool t = true;
    return Add(key, &t, PMIX_BOOL);
  }
  std::span<const pmix_info_t> span() const { return {v.data(), v.size()}; }
};

TEST(GetRules, ReservedKeysStartWithPmix) {
  EXPECT_TRUE(IsReservedKey("pmix.job.size"));
  EXPECT_TRUE(IsReservedKey("pmixfoo"));
  EXPECT_FALSE(IsReservedKey("pmi.x"));
  EXPECT_FALSE(IsReservedKey("PMIX.upper"));
  EXPECT_FALSE(IsReservedKey(""));
}

TEST(GetRules, PutKeyValidation) {
  struct Case {
    std::string key;
    bool null;
    bool reserved_allowed;
    pmix_status_t want;
  };
  const std::string max(PMIX_MAX_KEYLEN, 'k');
  const Case cases[] = {
      {"", true, false, PMIX_ERR_BAD_PARAM},       {"", false, false, PMIX_ERR_BAD_PARAM},
      {"ok", false, false, PMIX_SUCCESS},          {"pmix.x", false, false, PMIX_ERR_BAD_PARAM},
      {"pmix.x", false, true, PMIX_SUCCESS},       {max, false, false, PMIX_SUCCESS},
      {max + "k", false, false, PMIX_ERR_BAD_PARAM},
      // facts a process posts about itself (Open MPI 4.1 puts these)
      {PMIX_HOSTNAME, false, false, PMIX_SUCCESS}, {PMIX_CPUSET, false, false, PMIX_SUCCESS},
      {PMIX_PROC_URI, false, false, PMIX_SUCCESS}, {PMIX_JOB_SIZE, false, false, PMIX_ERR_BAD_PARAM},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.want, CheckPutKey(c.null ? nullptr : c.key.c_str(), c.reserved_allowed).code())
        << "key '" << c.key.substr(0, 20) << "' null=" << c.null;
  }
}

TEST(GetRules, PutScopes) {
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, CheckPutScope(PMIX_SCOPE_UNDEF).code());
  for (pmix_scope_t s : {PMIX_LOCAL, PMIX_REMOTE, PMIX_GLOBAL, PMIX_INTERNAL})
    EXPECT_TRUE(CheckPutScope(s).ok());
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, CheckPutScope(77).code());
}

TEST(GetRules, GetKeyMayBeNullButNotEmptyOrLong) {
  EXPECT_TRUE(CheckGetKey(nullptr).ok());
  EXPECT_FALSE(CheckGetKey("").ok());
  EXPECT_FALSE(CheckGetKey(std::string(PMIX_MAX_KEYLEN + 1, 'a').c_str()).ok());
}

TEST(GetRules, ParsesDirectives) {
  int timeout = 5;
  pmix_scope_t scope = PMIX_REMOTE;
  uint32_t nodeid = 7;
  Infos in;
  in.Flag(PMIX_OPTIONAL).Flag(PMIX_IMMEDIATE).Flag(PMIX_GET_REFRESH_CACHE);
  in.Flag(PMIX_GET_POINTER_VALUES).Flag(PMIX_NODE_INFO);
  in.Add(PMIX_TIMEOUT, &timeout, PMIX_INT).Add(PMIX_DATA_SCOPE, &scope, PMIX_SCOPE);
  in.Add(PMIX_NODEID, &nodeid, PMIX_UINT32).Add(PMIX_HOSTNAME, "n2", PMIX_STRING);
  auto d = ParseGetDirectives(in.span());
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->optional && d->immediate && d->refresh && d->pointer_values);
  EXPECT_FALSE(d->static_values);
  EXPECT_EQ(5, d->timeout);
  EXPECT_EQ(PMIX_REMOTE, *d->scope);
  EXPECT_EQ(Realm::kNode, d->realm);
  EXPECT_EQ(7u, *d->nodeid);
  EXPECT_EQ("n2", *d->hostname);
  EXPECT_EQ(PMIX_GDS_VIEW_REMOTE, CacheView(*d));
}

TEST(GetRules, UndefTypedFlagCountsAsTrue) {
  Infos in;
  in.v.emplace_back();
  PMIx_Info_construct(&in.v.back());
  PMIX_LOAD_KEY(in.v.back().key, PMIX_OPTIONAL);
  auto d = ParseGetDirectives(in.span());
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->optional);
}

TEST(GetRules, RejectsBadDirectives) {
  int negative = -1;
  Infos t;
  t.Add(PMIX_TIMEOUT, &negative, PMIX_INT);
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, ParseGetDirectives(t.span()).status().code());
  Infos h;
  uint32_t number = 3;
  h.Add(PMIX_HOSTNAME, &number, PMIX_UINT32);
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, ParseGetDirectives(h.span()).status().code());
  EXPECT_EQ(PMIX_ERR_BAD_PARAM,
            ParseGetDirectives(std::span<const pmix_info_t>(static_cast<pmix_info_t*>(nullptr), 2))
                .status()
                .code());
  EXPECT_TRUE(ParseGetDirectives({}).ok());
}

// (target rank, key, realm) -> the realms looked at, in order.
TEST(GetRules, DefaultPlans) {
  GetDirectives none;
  struct Case {
    pmix_rank_t rank;
    const char* key;
    std::vector<pmix_gds_realm_t> want;
    std::vector<pmix_rank_t> ranks;
  };
  const pmix_rank_t W = PMIX_RANK_WILDCARD, U = PMIX_RANK_UNDEF;
  const Case cases[] = {
      {5, "user", {PMIX_GDS_REALM_PROC}, {5}},
      {5, PMIX_LOCAL_RANK, {PMIX_GDS_REALM_PROC}, {5}},
      {5, PMIX_JOB_SIZE, {PMIX_GDS_REALM_PROC}, {5}},
      {W, PMIX_JOB_SIZE, {PMIX_GDS_REALM_JOB, PMIX_GDS_REALM_SESSION}, {W, W}},
      {W, "user", {PMIX_GDS_REALM_JOB}, {W}},
      {U, "user", {PMIX_GDS_REALM_PROC}, {U}},
      {U, PMIX_APPNUM, {PMIX_GDS_REALM_JOB, PMIX_GDS_REALM_PROC}, {W, U}},
      {5, "", {PMIX_GDS_REALM_PROC}, {5}},
      {W, "", {PMIX_GDS_REALM_JOB}, {W}},
  };
  for (const Case& c : cases) {
    auto plan = PlanLookup(Proc("other", c.rank), c.key, none, Me());
    ASSERT_TRUE(plan.ok()) << c.key;
    ASSERT_EQ(c.want.size(), plan.size()) << c.key << " rank " << c.rank;
    for (size_t i = 0; i < c.want.size(); ++i) {
      EXPECT_EQ(c.want[i], plan[i].where.realm) << c.key << " step " << i;
      EXPECT_EQ(c.ranks[i], plan[i].proc().rank) << c.key << " step " << i;
      EXPECT_STREQ("other", plan[i].proc().nspace);
    }
  }
}

TEST(GetRules, UnusablePlansAreBadParam) {
  GetDirectives none;
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, PlanLookup(Proc("j", PMIX_RANK_UNDEF), "", none, Me()).status().code());
  EXPECT_EQ(PMIX_ERR_BAD_PARAM,
            PlanLookup(Proc("j", PMIX_RANK_LOCAL_NODE), "k", none, Me()).status().code());
}

TEST(GetRules, SessionRealmUsesCallerOrSessionId) {
  GetDirectives d;
  d.realm = Realm::kSession;
  auto plan = PlanLookup(Proc("other", 1), PMIX_UNIV_SIZE, d, Me());
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(1u, plan.size());
  EXPECT_EQ(PMIX_GDS_REALM_SESSION, plan[0].where.realm);
  EXPECT_STREQ("job", plan[0].proc().nspace);  // the caller's session
  EXPECT_FALSE(plan[0].where.session.has_value());
  d.session = 9;
  plan = PlanLookup(Proc("other", 1), PMIX_UNIV_SIZE, d, Me());
  EXPECT_EQ(9u, *plan[0].where.session);
}

TEST(GetRules, AppRealmDefaults) {
  GetDirectives d;
  d.realm = Realm::kApp;
  // A rank: the store resolves its app.
  auto p = PlanLookup(Proc("other", 4), PMIX_APP_SIZE, d, Me());
  EXPECT_EQ(PMIX_GDS_REALM_APP, p[0].where.realm);
  EXPECT_EQ(4u, p[0].proc().rank);
  EXPECT_FALSE(p[0].where.appnum.has_value());
  // Wildcard in the caller's job: the caller's app.
  p = PlanLookup(Proc("job", PMIX_RANK_WILDCARD), PMIX_APP_SIZE, d, Me());
  EXPECT_EQ(3u, p[0].proc().rank);
  // Wildcard in another job: app 0.
  p = PlanLookup(Proc("other", PMIX_RANK_WILDCARD), PMIX_APP_SIZE, d, Me());
  EXPECT_EQ(0u, *p[0].where.appnum);
  d.appnum = 2;
  p = PlanLookup(Proc("other", 4), PMIX_APP_SIZE, d, Me());
  EXPECT_EQ(2u, *p[0].where.appnum);
}

TEST(GetRules, NodeRealmDefaultsToLocalNode) {
  GetDirectives d;
  d.realm = Realm::kNode;
  auto p = PlanLookup(Proc("job", PMIX_RANK_WILDCARD), PMIX_NODE_SIZE, d, Me());
  EXPECT_EQ(PMIX_GDS_REALM_NODE, p[0].where.realm);
  EXPECT_EQ("node1", *p[0].where.hostname);
  p = PlanLookup(Proc("job", 1), PMIX_NODE_SIZE, d, Me(), std::string("node9"));
  EXPECT_EQ("node9", *p[0].where.hostname);
  d.nodeid = 4;
  p = PlanLookup(Proc("job", 1), PMIX_NODE_SIZE, d, Me(), std::string("node9"));
  EXPECT_EQ(4u, *p[0].where.nodeid);
  EXPECT_FALSE(p[0].where.hostname.has_value());
}

TEST(GetRules, JobRealmIgnoresRank) {
  GetDirectives d;
  d.realm = Realm::kJob;
  auto p = PlanLookup(Proc("other", 2), PMIX_NUM_NODES, d, Me());
  EXPECT_EQ(PMIX_GDS_REALM_JOB, p[0].where.realm);
  EXPECT_EQ(PMIX_RANK_WILDCARD, p[0].proc().rank);
}

}  // namespace
}  // namespace pmix::getrules
