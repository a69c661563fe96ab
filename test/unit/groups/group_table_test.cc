// The pure parts of process groups and sets: group records, group ids in
// proc lists, member lists (src/groups/group_table.h), process sets
// (src/groups/pset_table.h) and the kGroup bodies
// (src/server/server_group_msg.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mca/bfrops/base/bfrops_base.h"
#include "pmix.h"
#include "src/groups/group_table.h"
#include "src/groups/pset_table.h"
#include "src/server/server_group_msg.h"
#include "test/unit/common/proc_ids.h"

namespace pmix::groups {
namespace {

using test::P;

std::vector<std::string> Names(const std::vector<pmix_proc_t>& procs) {
  std::vector<std::string> out;
  for (const auto& p : procs)
    out.push_back(std::string(p.nspace) + ":" +
                  (p.rank == PMIX_RANK_WILDCARD ? std::string("*") : std::to_string(p.rank)));
  return out;
}

Table Sample() {
  Table t;
  EXPECT_TRUE(t.Add(Group::Of("g", {P("a", 3), P("b", 0), P("a", 1)})).ok());
  return t;
}

TEST(GroupTable, AddRefusesADuplicateName) {
  Table t = Sample();
  EXPECT_EQ(t.Add(Group::Of("g", {P("a", 0)})).code(), PMIX_EXISTS);
  EXPECT_EQ(t.Find("g")->members.size(), 3u);
}

TEST(GroupTable, GroupRanksStayWhenAMemberLeaves) {
  Table t = Sample();
  Group* g = t.Find("g");
  EXPECT_TRUE(g->Remove(P("b", 0)));
  EXPECT_FALSE(g->Remove(P("b", 0)));
  EXPECT_EQ(g->RankOf(P("a", 1)), std::optional<size_t>(2));
  EXPECT_EQ(Names(g->Current()), (std::vector<std::string>{"a:3", "a:1"}));
  EXPECT_TRUE(t.NamesOf(P("b", 0)).empty());
  EXPECT_EQ(t.NamesOf(P("a", 3)), std::vector<std::string>{"g"});
}

TEST(GroupTable, TranslateReplacesGroupIdsByMembers) {
  Table t = Sample();
  Lookup lookup = [&t](std::string_view n) { return t.Find(n); };
  std::vector<pmix_proc_t> in = {P("x", 0), P("g", PMIX_RANK_WILDCARD), P("g", 1)};
  auto out = Translate(in, lookup);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(Names(*out), (std::vector<std::string>{"x:0", "a:3", "b:0", "a:1", "b:0"}));
  EXPECT_TRUE(RefersToGroup(in, lookup));
  EXPECT_FALSE(RefersToGroup(std::vector<pmix_proc_t>{P("x", 0)}, lookup));
}

TEST(GroupTable, TranslateRefusesRanksBeyondTheGroupOrGone) {
  Table t = Sample();
  Lookup lookup = [&t](std::string_view n) { return t.Find(n); };
  EXPECT_EQ(Translate(std::vector<pmix_proc_t>{P("g", 3)}, lookup).status().code(),
            PMIX_ERR_NOT_FOUND);
  t.Find("g")->Remove(P("a", 3));
  EXPECT_EQ(Translate(std::vector<pmix_proc_t>{P("g", 0)}, lookup).status().code(),
            PMIX_ERR_NOT_FOUND);
  auto all = Translate(std::vector<pmix_proc_t>{P("g", PMIX_RANK_WILDCARD)}, lookup);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 2u);
}

TEST(GroupTable, ExpandMembersKeepsOrderAndExpandsKnownJobs) {
  JobSize sizes = [](std::string_view n) -> std::optional<uint32_t> {
    if (n == "a") return 2;
    return std::nullopt;
  };
  std::vector<pmix_proc_t> in = {P("b", 5), P("a", PMIX_RANK_WILDCARD), P("a", 1),
                                 P("c", PMIX_RANK_WILDCARD), P("b", 5)};
  auto out = ExpandMembers(in, sizes);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(Names(*out), (std::vector<std::string>{"b:5", "a:0", "a:1", "c:*"}));
}

TEST(GroupTable, ExpandMembersRefusesBadEntries) {
  JobSize none = [](std::string_view) { return std::optional<uint32_t>(); };
  EXPECT_EQ(ExpandMembers({}, none).status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(ExpandMembers(std::vector<pmix_proc_t>{P("", 0)}, none).status().code(),
            PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(ExpandMembers(std::vector<pmix_proc_t>{P("a", PMIX_RANK_UNDEF)}, none).status().code(),
            PMIX_ERR_BAD_PARAM);
}

TEST(GroupTable, ValidNameBoundsTheLength) {
  EXPECT_FALSE(ValidName(nullptr));
  EXPECT_FALSE(ValidName(""));
  EXPECT_TRUE(ValidName("myapp-foo"));
  std::string longest(PMIX_MAX_NSLEN, 'x');
  EXPECT_TRUE(ValidName(longest.c_str()));
  std::string longer(PMIX_MAX_NSLEN + 1, 'x');
  EXPECT_FALSE(ValidName(longer.c_str()));
}

TEST(GroupTable, ProcArraysRoundTripThroughInfos) {
  wire::Infos infos;
  std::vector<pmix_proc_t> procs = {P("a", 0), P("b", 7)};
  ASSERT_TRUE(AddProcArray(infos, PMIX_GROUP_MEMBERSHIP, procs).ok());
  auto back = InfoProcs(infos.view(), PMIX_GROUP_MEMBERSHIP);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(Names(*back), Names(procs));
  EXPECT_FALSE(InfoProcs(infos.view(), PMIX_GROUP_ID).has_value());
}

TEST(PsetTable, DefineFindDelete) {
  PsetTable t;
  std::vector<pmix_proc_t> ocean = {P("a", PMIX_RANK_WILDCARD)};
  std::vector<pmix_proc_t> ice = {P("b", 0), P("a", 2)};
  ASSERT_TRUE(t.Define("ocean", ocean).ok());
  ASSERT_TRUE(t.Define("ice", ice).ok());
  EXPECT_EQ(t.Define("ice", ocean).code(), PMIX_EXISTS);
  EXPECT_EQ(t.Find("ice")->size(), 2u);
  EXPECT_EQ(t.Names(), (std::vector<std::string>{"ice", "ocean"}));
  EXPECT_EQ(t.NamesOf(P("a", 2)), (std::vector<std::string>{"ice", "ocean"}));
  EXPECT_EQ(t.NamesOf(P("a", 5)), std::vector<std::string>{"ocean"});
  EXPECT_TRUE(t.NamesOf(P("c", 0)).empty());
  EXPECT_TRUE(t.Delete("ocean").ok());
  EXPECT_EQ(t.Delete("ocean").code(), PMIX_ERR_NOT_FOUND);
  EXPECT_EQ(t.size(), 1u);
}

TEST(PsetTable, DefineRefusesBadInputAndKeepsWhatIsThere) {
  PsetTable t;
  ASSERT_TRUE(t.Define("s", std::vector<pmix_proc_t>{P("a", 0)}).ok());
  EXPECT_EQ(t.Define("", std::vector<pmix_proc_t>{P("a", 0)}).code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(t.Define("t", {}).code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(t.Define("t", std::vector<pmix_proc_t>{P("", 0)}).code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(t.Define(std::string(PMIX_MAX_NSLEN + 1, 'x'), std::vector<pmix_proc_t>{P("a", 0)})
                .code(),
            PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(t.Names(), std::vector<std::string>{"s"});
}

class GroupMsg : public ::testing::Test {
 protected:
  void SetUp() override {
    auto c = bfrops::DefaultCodec();
    ASSERT_TRUE(c.ok());
    codec_ = *c;
  }
  const pmix_bfrops_module_t* codec_ = nullptr;
};

TEST_F(GroupMsg, RequestRoundTrips) {
  server::group::Request req;
  req.op = server::group::Op::kJoin;
  req.grp = "grp";
  req.procs = {P("a", 1)};
  uint32_t t = 5;
  ASSERT_TRUE(req.infos.Add(PMIX_TIMEOUT, &t, PMIX_UINT32).ok());
  req.opt = PMIX_GROUP_ACCEPT;
  req.code = PMIX_GROUP_LEADER_FAILED;
  wire::Writer w(codec_);
  ASSERT_TRUE(server::group::PackRequest(w, req).ok());
  auto bytes = w.Take();
  ASSERT_TRUE(bytes.ok());
  wire::Reader r(codec_, *bytes);
  auto back = server::group::UnpackRequest(r);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->op, server::group::Op::kJoin);
  EXPECT_EQ(back->grp, "grp");
  EXPECT_EQ(Names(back->procs), Names(req.procs));
  EXPECT_EQ(back->infos.size(), 1u);
  EXPECT_EQ(back->opt, static_cast<uint32_t>(PMIX_GROUP_ACCEPT));
  EXPECT_EQ(back->code, PMIX_GROUP_LEADER_FAILED);
}

TEST_F(GroupMsg, UnknownOpIsRefused) {
  wire::Writer w(codec_);
  w.U32(99).Str("g").Procs({}).InfoArray({}).U32(0).I32(0);
  auto bytes = w.Take();
  ASSERT_TRUE(bytes.ok());
  wire::Reader r(codec_, *bytes);
  EXPECT_EQ(server::group::UnpackRequest(r).status().code(), PMIX_ERR_BAD_PARAM);
}

TEST_F(GroupMsg, ReplyRoundTripsAndAStatusAloneReadsAsThatStatus) {
  wire::Infos results;
  size_t cid = 42;
  ASSERT_TRUE(results.Add(PMIX_GROUP_CONTEXT_ID, &cid, PMIX_SIZE).ok());
  std::vector<server::JobInfoRecord> jobs(1);
  jobs[0].nspace = "other";
  std::vector<wire::ProcData> data(1);
  data[0].proc = P("other", 1);
  uint64_t x = 7;
  ASSERT_TRUE(data[0].kvs.Add("k", &x, PMIX_UINT64).ok());
  wire::Writer w(codec_);
  ASSERT_TRUE(server::group::PackReply(w, PMIX_ERR_PARTIAL_SUCCESS, results.view(), jobs, data).ok());
  auto bytes = w.Take();
  ASSERT_TRUE(bytes.ok());
  wire::Reader r(codec_, *bytes);
  auto back = server::group::UnpackReply(r);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->status, PMIX_ERR_PARTIAL_SUCCESS);
  EXPECT_EQ(back->results.size(), 1u);
  ASSERT_EQ(back->jobs.size(), 1u);
  EXPECT_EQ(back->jobs[0].nspace, "other");
  EXPECT_EQ(back->jobs[0].image, nullptr);  // no image: a NODATA job
  ASSERT_EQ(back->data.size(), 1u);
  EXPECT_EQ(back->data[0].kvs.size(), 1u);

  wire::Writer s(codec_);
  s.Status(PMIX_ERR_NOT_FOUND);
  auto only = s.Take();
  ASSERT_TRUE(only.ok());
  wire::Reader rs(codec_, *only);
  auto status_only = server::group::UnpackReply(rs);
  ASSERT_TRUE(status_only.ok());
  EXPECT_EQ(status_only->status, PMIX_ERR_NOT_FOUND);
  EXPECT_EQ(status_only->results.size(), 0u);
}

}  // namespace
}  // namespace pmix::groups
