// gds/hash: bad input (right status, nothing changed), not-found cases and
// removal of a process, a namespace and a session.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>

#include "pmix.h"
#include "pmix/mca/gds.h"
#include "test/unit/gds/gds_test_util.h"

namespace pmix::gds::test {
namespace {

constexpr const char* kNs = "ns-E";

// Seeds rank 0, rank 1, job, node 1 ("node1"), app 1 and session 7 with
// int values, so snapshots can show any change.
void Seed(TestStore& store) {
  Infos r0, r1, job, node, app, session, nq, aq, sq;
  r0.Int("a", 1).Int("b", 2);
  r1.Int("c", 3);
  job.Int("j", 4).U32(PMIX_SESSION_ID, 7);
  node.Int("n", 5);
  app.Int("p", 6);
  session.Int("s", 7);
  nq.U32(PMIX_NODEID, 1).Str(PMIX_HOSTNAME, "node1");
  aq.U32(PMIX_APPNUM, 1);
  sq.U32(PMIX_SESSION_ID, 7);
  ASSERT_EQ(store.Put(Proc(kNs, 0), PMIX_GDS_REALM_PROC, PMIX_GLOBAL, nullptr, r0), 0);
  ASSERT_EQ(store.Put(Proc(kNs, 1), PMIX_GDS_REALM_PROC, PMIX_LOCAL, nullptr, r1), 0);
  ASSERT_EQ(store.Put(Proc(kNs, 0), PMIX_GDS_REALM_JOB, PMIX_SCOPE_UNDEF, nullptr, job), 0);
  ASSERT_EQ(store.Put(Proc(kNs, 0), PMIX_GDS_REALM_NODE, PMIX_SCOPE_UNDEF, &nq, node), 0);
  ASSERT_EQ(store.Put(Proc(kNs, 0), PMIX_GDS_REALM_APP, PMIX_SCOPE_UNDEF, &aq, app), 0);
  ASSERT_EQ(store.Put(Proc(kNs, 0), PMIX_GDS_REALM_SESSION, PMIX_SCOPE_UNDEF, &sq, session), 0);
}

// Every key/value of the seeded instances, as "instance/key" -> value text.
std::map<std::string, std::string> Snapshot(TestStore& store) {
  struct { const char* name; pmix_rank_t rank; pmix_gds_realm_t realm; void (*q)(Infos&); }
  targets[] = {
      {"r0", 0, PMIX_GDS_REALM_PROC, [](Infos&) {}},
      {"r1", 1, PMIX_GDS_REALM_PROC, [](Infos&) {}},
      {"job", 0, PMIX_GDS_REALM_JOB, [](Infos&) {}},
      {"node", 0, PMIX_GDS_REALM_NODE, [](Infos& q) { q.U32(PMIX_NODEID, 1); }},
      {"node2", 0, PMIX_GDS_REALM_NODE, [](Infos& q) { q.U32(PMIX_NODEID, 2); }},
      {"app", 0, PMIX_GDS_REALM_APP, [](Infos& q) { q.U32(PMIX_APPNUM, 1); }},
      {"session", 0, PMIX_GDS_REALM_SESSION, [](Infos& q) { q.U32(PMIX_SESSION_ID, 7); }},
  };
  std::map<std::string, std::string> snap;
  for (auto& t : targets) {
    Infos q;
    t.q(q);
    Fetched out;
    store.Get(Proc(kNs, t.rank), t.realm, PMIX_GDS_VIEW_ALL, nullptr, &q, &out);
    snap[std::string(t.name) + "/status"] = std::to_string(out.status);
    for (size_t i = 0; i < out.n; ++i) {
      char* text = PMIx_Value_string(&out.kvs[i].value);
      snap[std::string(t.name) + "/" + out.kvs[i].key] = text ? text : "?";
      free(text);
    }
  }
  return snap;
}

using Op = pmix_status_t (*)(TestStore&);

struct BadCase {
  const char* name;
  Op op;
};

pmix_status_t PutInt(TestStore& s, const pmix_proc_t& proc, pmix_gds_realm_t realm,
                     pmix_scope_t scope, Infos* quals) {
  Infos kv;
  kv.Int("a", 99);
  return s.Put(proc, realm, scope, quals, kv);
}

const BadCase kBad[] = {
    {"store: NULL proc", [](TestStore& s) {
       Infos kv;
       kv.Int("a", 9);
       return s.module()->store(s.handle(), nullptr, PMIX_GDS_REALM_PROC, PMIX_GLOBAL, nullptr,
                                0, kv.data(), kv.size());
     }},
    {"store: NULL store", [](TestStore& s) {
       Infos kv;
       kv.Int("a", 9);
       pmix_proc_t p = Proc(kNs, 0);
       return s.module()->store(nullptr, &p, PMIX_GDS_REALM_PROC, PMIX_GLOBAL, nullptr, 0,
                                kv.data(), kv.size());
     }},
    {"store: overlong key after a good one", [](TestStore& s) {
       Infos kv;
       kv.Int("new", 5).RawKey(PMIX_MAX_KEYLEN + 1, 1);
       return s.Put(Proc(kNs, 0), PMIX_GDS_REALM_PROC, PMIX_GLOBAL, nullptr, kv);
     }},
    {"store: empty key", [](TestStore& s) {
       Infos kv;
       kv.RawKey(0, 1);
       return s.Put(Proc(kNs, 0), PMIX_GDS_REALM_PROC, PMIX_GLOBAL, nullptr, kv);
     }},
    {"store: repeated key in one call", [](TestStore& s) {
       Infos kv;
       kv.Int("a", 50).Int("b", 51).Int("a", 52);
       return s.Put(Proc(kNs, 0), PMIX_GDS_REALM_PROC, PMIX_GLOBAL, nullptr, kv);
     }},
    {"store: unknown realm", [](TestStore& s) {
       // 7: no realm, but a value the enum can hold (its enumerators need
       // 3 bits; a number beyond that would be undefined in C++ already).
       return PutInt(s, Proc(kNs, 0), static_cast<pmix_gds_realm_t>(7), PMIX_GLOBAL, nullptr);
     }},
    {"store: unknown scope", [](TestStore& s) {
       return PutInt(s, Proc(kNs, 0), PMIX_GDS_REALM_PROC, 9, nullptr);
     }},
    {"store: rank undef", [](TestStore& s) {
       return PutInt(s, Proc(kNs, PMIX_RANK_UNDEF), PMIX_GDS_REALM_PROC, PMIX_GLOBAL, nullptr);
     }},
    {"store: rank local-node", [](TestStore& s) {
       return PutInt(s, Proc(kNs, PMIX_RANK_LOCAL_NODE), PMIX_GDS_REALM_PROC, PMIX_GLOBAL,
                     nullptr);
     }},
    {"store: empty nspace", [](TestStore& s) {
       return PutInt(s, Proc("", 0), PMIX_GDS_REALM_PROC, PMIX_GLOBAL, nullptr);
     }},
    {"store: overlong nspace", [](TestStore& s) {
       pmix_proc_t p = Proc(kNs, 0);
       memset(p.nspace, 'n', sizeof(p.nspace));
       return PutInt(s, p, PMIX_GDS_REALM_PROC, PMIX_GLOBAL, nullptr);
     }},
    {"store: node without qualifier", [](TestStore& s) {
       return PutInt(s, Proc(kNs, 0), PMIX_GDS_REALM_NODE, PMIX_GLOBAL, nullptr);
     }},
    {"store: app without qualifier", [](TestStore& s) {
       return PutInt(s, Proc(kNs, 0), PMIX_GDS_REALM_APP, PMIX_GLOBAL, nullptr);
     }},
    {"store: session without qualifier", [](TestStore& s) {
       return PutInt(s, Proc(kNs, 0), PMIX_GDS_REALM_SESSION, PMIX_GLOBAL, nullptr);
     }},
    {"store: mistyped node id", [](TestStore& s) {
       Infos q;
       q.Str(PMIX_NODEID, "1");
       return PutInt(s, Proc(kNs, 0), PMIX_GDS_REALM_NODE, PMIX_GLOBAL, &q);
     }},
    {"store: node id and host on different nodes", [](TestStore& s) {
       Infos q2, q3;
       q2.U32(PMIX_NODEID, 2).Str(PMIX_HOSTNAME, "node2");
       q3.U32(PMIX_NODEID, 1).Str(PMIX_HOSTNAME, "node2");
       pmix_status_t rc = PutInt(s, Proc(kNs, 0), PMIX_GDS_REALM_NODE, PMIX_GLOBAL, &q2);
       if (rc != PMIX_SUCCESS) return PMIX_ERROR;
       return PutInt(s, Proc(kNs, 0), PMIX_GDS_REALM_NODE, PMIX_GLOBAL, &q3);
     }},
    {"fetch: NULL proc", [](TestStore& s) {
       pmix_info_t* kvs = nullptr;
       size_t n = 0;
       return s.module()->fetch(s.handle(), nullptr, PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_ALL,
                                "a", nullptr, 0, &kvs, &n);
     }},
    {"fetch: NULL outputs", [](TestStore& s) {
       pmix_proc_t p = Proc(kNs, 0);
       return s.module()->fetch(s.handle(), &p, PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_ALL, "a",
                                nullptr, 0, nullptr, nullptr);
     }},
    {"fetch: overlong key", [](TestStore& s) {
       std::string key(PMIX_MAX_KEYLEN + 1, 'a');
       return s.Status(Proc(kNs, 0), PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_ALL, key.c_str());
     }},
    {"fetch: unknown realm", [](TestStore& s) {
       return s.Status(Proc(kNs, 0), static_cast<pmix_gds_realm_t>(7), PMIX_GDS_VIEW_ALL, "a");
     }},
    {"fetch: unknown view", [](TestStore& s) {
       // 3: no view, but representable (the enumerators need 2 bits)
       return s.Status(Proc(kNs, 0), PMIX_GDS_REALM_PROC, static_cast<pmix_gds_view_t>(3), "a");
     }},
    {"fetch: rank undef with NULL key", [](TestStore& s) {
       return s.Status(Proc(kNs, PMIX_RANK_UNDEF), PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_ALL,
                       nullptr);
     }},
    {"fetch: node without qualifier", [](TestStore& s) {
       return s.Status(Proc(kNs, 0), PMIX_GDS_REALM_NODE, PMIX_GDS_VIEW_ALL, "n");
     }},
    {"fetch: app without qualifier, wildcard rank", [](TestStore& s) {
       return s.Status(Proc(kNs, PMIX_RANK_WILDCARD), PMIX_GDS_REALM_APP, PMIX_GDS_VIEW_ALL,
                       "p");
     }},
    {"remove: NULL proc", [](TestStore& s) { return s.module()->remove(s.handle(), nullptr); }},
    {"remove: rank local-node", [](TestStore& s) {
       pmix_proc_t p = Proc(kNs, PMIX_RANK_LOCAL_NODE);
       return s.module()->remove(s.handle(), &p);
     }},
};

TEST(GdsHashErrors, BadInputChangesNothing) {
  for (const BadCase& c : kBad) {
    SCOPED_TRACE(c.name);
    TestStore store(HashModule());
    Seed(store);
    auto before = Snapshot(store);
    EXPECT_EQ(c.op(store), PMIX_ERR_BAD_PARAM);
    auto after = Snapshot(store);
    if (std::string(c.name).find("different nodes") != std::string::npos) {
      before["node2/status"] = std::to_string(PMIX_SUCCESS);  // the first, good, store
      before["node2/a"] = after["node2/a"];
    }
    EXPECT_EQ(before, after);
  }
}

struct NotFoundCase {
  const char* name;
  const char* nspace;
  pmix_rank_t rank;
  pmix_gds_realm_t realm;
  void (*q)(Infos&);
  const char* key;
};

const NotFoundCase kNotFound[] = {
    {"unknown nspace", "other", 0, PMIX_GDS_REALM_PROC, [](Infos&) {}, "a"},
    {"unknown nspace, job", "other", 0, PMIX_GDS_REALM_JOB, [](Infos&) {}, nullptr},
    {"unknown key", kNs, 0, PMIX_GDS_REALM_PROC, [](Infos&) {}, "zz"},
    {"unknown rank", kNs, 9, PMIX_GDS_REALM_PROC, [](Infos&) {}, "a"},
    {"unknown rank, NULL key", kNs, 9, PMIX_GDS_REALM_PROC, [](Infos&) {}, nullptr},
    {"proc key not in job", kNs, PMIX_RANK_WILDCARD, PMIX_GDS_REALM_PROC, [](Infos&) {}, "a"},
    {"unknown node id", kNs, 0, PMIX_GDS_REALM_NODE, [](Infos& q) { q.U32(PMIX_NODEID, 4); },
     "n"},
    {"unknown hostname", kNs, 0, PMIX_GDS_REALM_NODE,
     [](Infos& q) { q.Str(PMIX_HOSTNAME, "nodeX"); }, "n"},
    {"unknown appnum", kNs, 0, PMIX_GDS_REALM_APP, [](Infos& q) { q.U32(PMIX_APPNUM, 3); }, "p"},
    {"proc has no appnum", kNs, 0, PMIX_GDS_REALM_APP, [](Infos&) {}, "p"},
    {"unknown session", kNs, 0, PMIX_GDS_REALM_SESSION,
     [](Infos& q) { q.U32(PMIX_SESSION_ID, 8); }, "s"},
    {"job of other nspace has no session", "other", 0, PMIX_GDS_REALM_SESSION, [](Infos&) {},
     "s"},
};

TEST(GdsHashErrors, NotFound) {
  TestStore store(HashModule());
  Seed(store);
  for (const NotFoundCase& c : kNotFound) {
    Infos q;
    c.q(q);
    EXPECT_EQ(store.Status(Proc(c.nspace, c.rank), c.realm, PMIX_GDS_VIEW_ALL, c.key, &q),
              PMIX_ERR_NOT_FOUND) << c.name;
  }
}

TEST(GdsHashErrors, RemoveProcNamespaceSession) {
  TestStore store(HashModule());
  Seed(store);
  Infos other_kv;
  other_kv.Int("o", 1);
  ASSERT_EQ(store.Put(Proc("other", 0), PMIX_GDS_REALM_PROC, PMIX_GLOBAL, nullptr, other_kv), 0);
  const pmix_gds_module_t* m = store.module();
  pmix_proc_t r1 = Proc(kNs, 1), whole = Proc(kNs, PMIX_RANK_WILDCARD);
  EXPECT_EQ(m->remove(store.handle(), &r1), PMIX_SUCCESS);
  EXPECT_EQ(store.Status(r1, PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_ALL, "c"), PMIX_ERR_NOT_FOUND);
  EXPECT_EQ(store.Status(Proc(kNs, 0), PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_ALL, "a"), 0);
  EXPECT_EQ(store.Status(Proc(kNs, 0), PMIX_GDS_REALM_JOB, PMIX_GDS_VIEW_ALL, "j"), 0);
  EXPECT_EQ(m->remove(store.handle(), &r1), PMIX_ERR_NOT_FOUND);

  EXPECT_EQ(m->remove(store.handle(), &whole), PMIX_SUCCESS);
  Infos nq, aq, sq;
  nq.U32(PMIX_NODEID, 1);
  aq.U32(PMIX_APPNUM, 1);
  sq.U32(PMIX_SESSION_ID, 7);
  EXPECT_EQ(store.Status(Proc(kNs, 0), PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_ALL, "a"),
            PMIX_ERR_NOT_FOUND);
  EXPECT_EQ(store.Status(Proc(kNs, 0), PMIX_GDS_REALM_JOB, PMIX_GDS_VIEW_ALL, nullptr),
            PMIX_ERR_NOT_FOUND);
  EXPECT_EQ(store.Status(Proc(kNs, 0), PMIX_GDS_REALM_NODE, PMIX_GDS_VIEW_ALL, "n", &nq),
            PMIX_ERR_NOT_FOUND);
  EXPECT_EQ(store.Status(Proc(kNs, 0), PMIX_GDS_REALM_APP, PMIX_GDS_VIEW_ALL, "p", &aq),
            PMIX_ERR_NOT_FOUND);
  EXPECT_EQ(m->remove(store.handle(), &whole), PMIX_ERR_NOT_FOUND);
  // Other namespaces and the session stay.
  EXPECT_EQ(store.Status(Proc("other", 0), PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_ALL, "o"), 0);
  EXPECT_EQ(store.Status(Proc("", 0), PMIX_GDS_REALM_SESSION, PMIX_GDS_VIEW_ALL, "s", &sq), 0);
  EXPECT_EQ(m->remove_session(store.handle(), 7), PMIX_SUCCESS);
  EXPECT_EQ(store.Status(Proc("", 0), PMIX_GDS_REALM_SESSION, PMIX_GDS_VIEW_ALL, "s", &sq),
            PMIX_ERR_NOT_FOUND);
  EXPECT_EQ(m->remove_session(store.handle(), 7), PMIX_ERR_NOT_FOUND);
}

}  // namespace
}  // namespace pmix::gds::test

namespace pmix::gds::test {
namespace {

// "key=value" of each instance info, sorted.
std::set<std::string> Ids(TestStore& store, const pmix_proc_t* proc, pmix_gds_realm_t realm,
                          pmix_status_t* status) {
  pmix_info_t* ids = nullptr;
  size_t n = 0;
  *status = store.module()->instances(store.handle(), proc, realm, &ids, &n);
  std::set<std::string> out;
  for (size_t i = 0; *status == PMIX_SUCCESS && i < n; ++i) {
    char* text = PMIx_Value_string(&ids[i].value);
    out.insert(std::string(ids[i].key) + "=" + (text ? text : "?"));
    free(text);
  }
  if (*status == PMIX_SUCCESS) PMIx_Info_free(ids, n);
  return out;
}

TEST(GdsHashInstances, ListsEachRealmsInstances) {
  TestStore store(HashModule());
  Seed(store);
  Infos host_only, kv;
  host_only.Str(PMIX_HOSTNAME, "lonely");
  kv.Int("z", 1);
  ASSERT_EQ(store.Put(Proc(kNs, 0), PMIX_GDS_REALM_NODE, 0, &host_only, kv), 0);
  pmix_proc_t p = Proc(kNs, 0);
  pmix_status_t rc = PMIX_ERROR;
  auto ranks = Ids(store, &p, PMIX_GDS_REALM_PROC, &rc);
  EXPECT_EQ(rc, PMIX_SUCCESS);
  EXPECT_EQ(ranks.size(), 2u);  // ranks 0 and 1, not the job
  auto apps = Ids(store, &p, PMIX_GDS_REALM_APP, &rc);
  EXPECT_EQ(apps.size(), 1u);
  auto nodes = Ids(store, &p, PMIX_GDS_REALM_NODE, &rc);
  ASSERT_EQ(nodes.size(), 2u);  // node1 by its id, "lonely" by name
  bool lonely = false;
  for (const std::string& id : nodes) lonely |= id.find("lonely") != std::string::npos;
  EXPECT_TRUE(lonely);
  auto sessions = Ids(store, nullptr, PMIX_GDS_REALM_SESSION, &rc);
  EXPECT_EQ(rc, PMIX_SUCCESS);
  EXPECT_EQ(sessions.size(), 1u);
  // Every listed instance fetches as a qualifier.
  for (pmix_gds_realm_t realm : {PMIX_GDS_REALM_PROC, PMIX_GDS_REALM_APP, PMIX_GDS_REALM_NODE}) {
    pmix_info_t* ids = nullptr;
    size_t n = 0;
    ASSERT_EQ(store.module()->instances(store.handle(), &p, realm, &ids, &n), PMIX_SUCCESS);
    for (size_t i = 0; i < n; ++i) {
      pmix_proc_t target = p;
      if (realm == PMIX_GDS_REALM_PROC) target.rank = ids[i].value.data.rank;
      pmix_info_t* kvs = nullptr;
      size_t nkvs = 0;
      EXPECT_EQ(store.module()->fetch(store.handle(), &target, realm, PMIX_GDS_VIEW_ALL,
                                      nullptr, &ids[i], 1, &kvs, &nkvs), PMIX_SUCCESS);
      PMIx_Info_free(kvs, nkvs);
    }
    PMIx_Info_free(ids, n);
  }
  Ids(store, &p, PMIX_GDS_REALM_JOB, &rc);
  EXPECT_EQ(rc, PMIX_ERR_BAD_PARAM);
  pmix_proc_t other = Proc("other", 0);
  Ids(store, &other, PMIX_GDS_REALM_PROC, &rc);
  EXPECT_EQ(rc, PMIX_ERR_NOT_FOUND);
}

}  // namespace
}  // namespace pmix::gds::test
