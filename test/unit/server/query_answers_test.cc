// Query answers: copying and checking queries, their wire form, and the
// merging of answers from several sources (src/server/query_answers.h).
#include "src/server/query_answers.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "mca/bfrops/base/bfrops_base.h"
#include "pmix.h"
#include "pmix_server.h"
#include "src/server/server_query_keys.h"

namespace pmix::query {
namespace {

QueryList Make(std::vector<std::vector<std::string>> keys) {
  QueryList out;
  for (auto& k : keys) out.push_back(Query{std::move(k), wire::Infos()});
  return out;
}

wire::Infos Strings(std::vector<std::pair<const char*, const char*>> kvs) {
  wire::Infos out;
  for (auto& [k, v] : kvs) EXPECT_TRUE(out.Add(k, v, PMIX_STRING).ok());
  return out;
}

std::vector<std::string> KeysOf(const wire::Infos& infos) {
  std::vector<std::string> out;
  for (const pmix_info_t& i : infos.view()) out.emplace_back(i.key);
  return out;
}

pmix_value_t StringValue(const char* s) {
  pmix_value_t v;
  PMIx_Value_construct(&v);
  v.type = PMIX_STRING;
  v.data.string = const_cast<char*>(s);
  return v;
}

TEST(QueryCopy, RejectsNoQueriesNoKeysAndEmptyKeys) {
  EXPECT_EQ(CopyQueries(nullptr, 1).status().code(), PMIX_ERR_BAD_PARAM);
  pmix_query_t q;
  PMIX_QUERY_CONSTRUCT(&q);
  EXPECT_EQ(CopyQueries(&q, 0).status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(CopyQueries(&q, 1).status().code(), PMIX_ERR_BAD_PARAM);  // keys NULL
  char* none[] = {nullptr};
  q.keys = none;
  EXPECT_EQ(CopyQueries(&q, 1).status().code(), PMIX_ERR_BAD_PARAM);
  char empty[] = "";
  char* blank[] = {empty, nullptr};
  q.keys = blank;
  EXPECT_EQ(CopyQueries(&q, 1).status().code(), PMIX_ERR_BAD_PARAM);
  char key[] = "pmix.qry.ns";
  char* ok[] = {key, nullptr};
  q.keys = ok;
  q.nqual = 1;  // with NULL qualifiers
  EXPECT_EQ(CopyQueries(&q, 1).status().code(), PMIX_ERR_BAD_PARAM);
  q.nqual = 0;
  EXPECT_TRUE(CopyQueries(&q, 1).ok());
}

TEST(QueryCopy, RejectsAProcessNamedTwice) {
  pmix_proc_t p;
  PMIx_Load_procid(&p, "job", 1);
  pmix_info_t qual[2];
  PMIx_Info_load(&qual[0], PMIX_PROCID, &p, PMIX_PROC);
  PMIx_Info_load(&qual[1], PMIX_NSPACE, "job", PMIX_STRING);
  char key[] = "pmix.hname";
  char* keys[] = {key, nullptr};
  pmix_query_t q{keys, qual, 2};
  EXPECT_EQ(CopyQueries(&q, 1).status().code(), PMIX_ERR_BAD_PARAM);
  q.nqual = 1;
  auto copy = CopyQueries(&q, 1);
  ASSERT_TRUE(copy.ok());
  pmix_proc_t me;
  PMIx_Load_procid(&me, "mine", 0);
  pmix_proc_t target = QueryTarget((*copy)[0], me);
  EXPECT_STREQ(target.nspace, "job");
  EXPECT_EQ(target.rank, 1u);
  PMIx_Info_destruct(&qual[0]);
  PMIx_Info_destruct(&qual[1]);
}

TEST(QueryTarget, DefaultsToTheRequestersJob) {
  pmix_proc_t me;
  PMIx_Load_procid(&me, "mine", 3);
  QueryList q = Make({{"k"}});
  pmix_proc_t t = QueryTarget(q[0], me);
  EXPECT_STREQ(t.nspace, "mine");
  EXPECT_EQ(t.rank, PMIX_RANK_WILDCARD);
  q[0].qualifiers = Strings({{PMIX_NSPACE, "other"}});
  t = QueryTarget(q[0], me);
  EXPECT_STREQ(t.nspace, "other");
  EXPECT_EQ(t.rank, PMIX_RANK_WILDCARD);
  EXPECT_EQ(QueryNspace(q[0]), "other");
}

TEST(QueryWire, RoundTrips) {
  auto codec = bfrops::DefaultCodec();
  ASSERT_TRUE(codec.ok());
  QueryList q = Make({{"a", "b"}, {"c"}});
  q[1].qualifiers = Strings({{PMIX_NSPACE, "ns"}});
  wire::Writer w(*codec);
  PackQueries(w, q);
  auto bytes = w.Take();
  ASSERT_TRUE(bytes.ok());
  wire::Reader r(*codec, *bytes);
  QueryList back = UnpackQueries(r);
  ASSERT_TRUE(r.status().ok());
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].keys, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(back[1].keys, (std::vector<std::string>{"c"}));
  ASSERT_EQ(back[1].qualifiers.size(), 1u);
  EXPECT_TRUE(CheckQueries(back).ok());
  EXPECT_EQ(CheckQueries(Make({{}})).code(), PMIX_ERR_BAD_PARAM);
}

TEST(QueryWire, TruncatedBodyIsAnError) {
  auto codec = bfrops::DefaultCodec();
  ASSERT_TRUE(codec.ok());
  wire::Writer w(*codec);
  w.U32(3).U32(1);
  auto bytes = w.Take();
  ASSERT_TRUE(bytes.ok());
  wire::Reader r(*codec, *bytes);
  EXPECT_TRUE(UnpackQueries(r).empty());
  EXPECT_FALSE(r.status().ok());
}

TEST(QueryAnswers, AllLocalIsSuccessInQueryOrder) {
  QueryList q = Make({{"b", "a"}, {"c"}});
  Answers a(q);
  pmix_value_t va = StringValue("A"), vb = StringValue("B"), vc = StringValue("C");
  ASSERT_TRUE(a.Answer(1, 0, vc).ok());
  ASSERT_TRUE(a.Answer(0, 1, va).ok());
  EXPECT_FALSE(a.Complete());
  ASSERT_TRUE(a.Answer(0, 0, vb).ok());
  EXPECT_TRUE(a.Complete());
  EXPECT_EQ(a.Outcome(), PMIX_SUCCESS);
  auto merged = a.Merged();
  ASSERT_TRUE(merged.ok());
  EXPECT_EQ(KeysOf(*merged), (std::vector<std::string>{"b", "a", "c"}));
  EXPECT_STREQ(merged->view()[2].value.data.string, "C");
}

TEST(QueryAnswers, PendingKeepsQualifiersAndOnlyMissingKeys) {
  QueryList q = Make({{"a", "b"}, {"c"}});
  q[0].qualifiers = Strings({{PMIX_NSPACE, "ns"}});
  Answers a(q);
  pmix_value_t v = StringValue("x");
  ASSERT_TRUE(a.Answer(0, 0, v).ok());
  ASSERT_TRUE(a.Answer(1, 0, v).ok());
  auto pending = a.Unanswered(q);
  ASSERT_TRUE(pending.ok());
  ASSERT_EQ(pending->queries.size(), 1u);
  EXPECT_EQ(pending->queries[0].keys, (std::vector<std::string>{"b"}));
  EXPECT_EQ(pending->queries[0].qualifiers.size(), 1u);
  ASSERT_EQ(pending->slots.size(), 1u);
  EXPECT_EQ(pending->slots[0].query, 0u);
  EXPECT_EQ(pending->slots[0].key, 1u);
}

// Outcome of merging: local answers for some keys, then one source's reply.
struct MergeCase {
  const char* name;
  std::vector<std::string> keys;   // one query
  std::vector<std::string> local;  // answered before the source
  pmix_status_t source_status;
  std::vector<std::string> source;  // keys the source returned (values "v")
  pmix_status_t want;
  std::vector<std::string> want_keys;
};

class QueryMerge : public ::testing::TestWithParam<MergeCase> {};

TEST_P(QueryMerge, Outcome) {
  const MergeCase& c = GetParam();
  QueryList q = Make({c.keys});
  Answers a(q);
  pmix_value_t v = StringValue("v");
  for (size_t k = 0; k < c.keys.size(); ++k) {
    for (const auto& l : c.local) {
      if (c.keys[k] == l) {
        ASSERT_TRUE(a.Answer(0, k, v).ok());
      }
    }
  }
  auto pending = a.Unanswered(q);
  ASSERT_TRUE(pending.ok());
  wire::Infos reply;
  for (const auto& k : c.source) ASSERT_TRUE(reply.Add(k.c_str(), "v", PMIX_STRING).ok());
  ASSERT_TRUE(a.Absorb(*pending, c.source_status, reply).ok());
  EXPECT_EQ(a.Outcome(), c.want) << PMIx_Error_string(a.Outcome());
  auto merged = a.Merged();
  ASSERT_TRUE(merged.ok());
  EXPECT_EQ(KeysOf(*merged), c.want_keys);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, QueryMerge,
    ::testing::Values(
        MergeCase{
            "HostAnswersTheRest", {"a", "b"}, {"a"}, PMIX_SUCCESS, {"b"}, PMIX_SUCCESS, {"a", "b"}},
        MergeCase{"HostFindsNothing",
                  {"a", "b"},
                  {"a"},
                  PMIX_ERR_NOT_FOUND,
                  {},
                  PMIX_ERR_PARTIAL_SUCCESS,
                  {"a"}},
        MergeCase{
            "NobodyFindsAnything", {"a", "b"}, {}, PMIX_ERR_NOT_FOUND, {}, PMIX_ERR_NOT_FOUND, {}},
        MergeCase{
            "NoHostUpcall", {"a"}, {}, PMIX_ERR_NOT_SUPPORTED, {}, PMIX_ERR_NOT_SUPPORTED, {}},
        MergeCase{"NoHostUpcallButLocal",
                  {"a", "b"},
                  {"b"},
                  PMIX_ERR_NOT_SUPPORTED,
                  {},
                  PMIX_ERR_PARTIAL_SUCCESS,
                  {"b"}},
        MergeCase{"PartialFromHost",
                  {"a", "b", "c"},
                  {},
                  PMIX_ERR_PARTIAL_SUCCESS,
                  {"c"},
                  PMIX_ERR_PARTIAL_SUCCESS,
                  {"c"}},
        MergeCase{"HostSuccessUnderOtherKeys",
                  {"a"},
                  {},
                  PMIX_SUCCESS,
                  {"pmix.qry.res"},
                  PMIX_SUCCESS,
                  {"pmix.qry.res"}},
        MergeCase{"HostSuccessButEmpty", {"a"}, {}, PMIX_SUCCESS, {}, PMIX_ERR_NOT_FOUND, {}},
        MergeCase{"DuplicateKeysEachAnswered",
                  {"a", "a"},
                  {},
                  PMIX_ERR_PARTIAL_SUCCESS,
                  {"a", "a"},
                  PMIX_SUCCESS,
                  {"a", "a"}},
        MergeCase{"HostError", {"a"}, {}, PMIX_ERR_TIMEOUT, {"a"}, PMIX_ERR_TIMEOUT, {}}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace pmix::query

namespace pmix::server {
namespace {

pmix_status_t AnyUpcall() { return PMIX_SUCCESS; }

// PMIX_HOST_FUNCTIONS is true: an upcall the library never calls is not
// listed even when the host set it (issue 14).
TEST(HostFunctions, ListsOnlyTheUpcallsTheLibraryCalls) {
  pmix_server_module_t module;
  // Every slot set (the values are never called here).
  auto* slots = reinterpret_cast<void (**)()>(&module);
  for (size_t i = 0; i < sizeof module / sizeof(void (*)()); ++i)
    slots[i] = reinterpret_cast<void (*)()>(&AnyUpcall);
  std::string list = "," + HostFunctions(module) + ",";
  for (const char* api : {"PMIx_Fence", "PMIx_Get", "PMIx_Spawn", "PMIx_Connect", "PMIx_Query_info",
                          "PMIx_Log", "PMIx_Job_control", "PMIx_Notify_event"})
    EXPECT_NE(list.find(std::string(",") + api + ","), std::string::npos) << api;
  for (const char* api : {"PMIx_Register_event_handler", "PMIx_Deregister_event_handler",
                          "PMIx_IOF_pull", "PMIx_IOF_push", "PMIx_Group_construct",
                          "PMIx_Fabric_register"})
    EXPECT_EQ(list.find(std::string(",") + api + ","), std::string::npos) << api;
  pmix_server_module_t none{};
  EXPECT_EQ(HostFunctions(none), "");
}

}  // namespace
}  // namespace pmix::server
