// Resolve peers and nodes from job data as src/jobinfo stores it
// (src/client/resolve_data.h).
#include "src/client/resolve_data.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "pmix.h"
#include "pmix_server.h"
#include "src/jobinfo/jobinfo.h"
#include "src/wire/buffer.h"

namespace pmix::resolve {
namespace {

std::string Generated(pmix_status_t (*fn)(const char*, char**), const char* input) {
  char* out = nullptr;
  EXPECT_EQ(fn(input, &out), PMIX_SUCCESS);
  std::string s = out != nullptr ? out : "";
  std::free(out);
  return s;
}

class ResolveData : public ::testing::Test {
 protected:
  void SetUp() override {
    auto module = gds::Default();
    ASSERT_TRUE(module.ok());
    auto store = gds::Store::Create(*module);
    ASSERT_TRUE(store.ok());
    store_.emplace(std::move(*store));
  }

  // "job": ranks 0,1 on n1.example (the local node), 2,3 on n2.
  void RegisterTwoNodes() {
    wire::Infos reg;
    uint32_t size = 4;
    std::string nodes = Generated(PMIx_generate_regex, "n1.example,n2");
    std::string procs = Generated(PMIx_generate_ppn, "0,1;2,3");
    ASSERT_TRUE(reg.Add(PMIX_JOB_SIZE, &size, PMIX_UINT32).ok());
    ASSERT_TRUE(reg.Add(PMIX_NODE_MAP, nodes.c_str(), PMIX_STRING).ok());
    ASSERT_TRUE(reg.Add(PMIX_PROC_MAP, procs.c_str(), PMIX_STRING).ok());
    Ingest("job", reg, "n1.example");
  }

  void Ingest(const char* nspace, const wire::Infos& reg, const char* local) {
    auto summary = jobinfo::Ingest(*store_, nspace, 2, reg.view(), jobinfo::Context{local});
    ASSERT_TRUE(summary.ok()) << PMIx_Error_string(summary.status().code());
  }

  std::optional<gds::Store> store_;
};

TEST_F(ResolveData, NodesOfAJobInMapOrder) {
  RegisterTwoNodes();
  auto nodes = NodesOf(*store_, "job");
  ASSERT_TRUE(nodes.ok());
  EXPECT_EQ(*nodes, (std::vector<std::string>{"n1.example", "n2"}));
}

TEST_F(ResolveData, UnknownNamespaceIsNotFound) {
  RegisterTwoNodes();
  EXPECT_EQ(NodesOf(*store_, "other").status().code(), PMIX_ERR_NOT_FOUND);
  EXPECT_EQ(PeersOn(*store_, "other", "n2", "n1.example").status().code(), PMIX_ERR_NOT_FOUND);
}

TEST_F(ResolveData, PeersPerNodeByFullOrShortName) {
  RegisterTwoNodes();
  struct Case {
    const char* node;
    std::vector<pmix_rank_t> want;
  } cases[] = {
      {"n1.example", {0, 1}}, {"n1", {0, 1}}, {"n2", {2, 3}}, {"n2.example", {2, 3}}, {"n9", {}},
  };
  for (const Case& c : cases) {
    auto peers = PeersOn(*store_, "job", c.node, "n1.example");
    ASSERT_TRUE(peers.ok()) << c.node;
    EXPECT_EQ(*peers, c.want) << c.node;
  }
}

TEST_F(ResolveData, ListedNodeWithoutPeersIsNotFound) {
  wire::Infos reg;
  ASSERT_TRUE(reg.Add(PMIX_NODE_LIST, "a,b", PMIX_STRING).ok());
  Ingest("bare", reg, "elsewhere");
  auto nodes = NodesOf(*store_, "bare");
  ASSERT_TRUE(nodes.ok());
  EXPECT_EQ(*nodes, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(PeersOn(*store_, "bare", "a", "elsewhere").status().code(), PMIX_ERR_NOT_FOUND);
  auto none = PeersOn(*store_, "bare", "c", "elsewhere");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST_F(ResolveData, LocalNodeFallsBackToJobLevelPeers) {
  wire::Infos reg;
  ASSERT_TRUE(reg.Add(PMIX_LOCAL_PEERS, "0-2,5", PMIX_STRING).ok());
  Ingest("peers", reg, "here");
  auto peers = PeersOn(*store_, "peers", "here", "here");
  ASSERT_TRUE(peers.ok());
  EXPECT_EQ(*peers, (std::vector<pmix_rank_t>{0, 1, 2, 5}));
}

TEST(ResolveParse, RankLists) {
  EXPECT_EQ(ParseRanks(""), std::vector<pmix_rank_t>{});
  EXPECT_EQ(ParseRanks("3"), std::vector<pmix_rank_t>{3});
  EXPECT_EQ(ParseRanks("0,1,4-6"), (std::vector<pmix_rank_t>{0, 1, 4, 5, 6}));
  EXPECT_FALSE(ParseRanks("1,x"));
  EXPECT_FALSE(ParseRanks("5-2"));
  EXPECT_FALSE(ParseRanks("-1"));
  EXPECT_FALSE(ParseRanks("0-4000000000"));
}

TEST(ResolveParse, NodeNames) {
  std::vector<std::string> nodes{"a.x", "b.x", "b.y"};
  EXPECT_EQ(MatchNode(nodes, "a.x"), "a.x");
  EXPECT_EQ(MatchNode(nodes, "a"), "a.x");
  EXPECT_EQ(MatchNode(nodes, "a.z"), "a.x");
  EXPECT_EQ(MatchNode(nodes, "b.y"), "b.y");
  EXPECT_FALSE(MatchNode(nodes, "b"));  // ambiguous
  EXPECT_FALSE(MatchNode(nodes, "c"));
}

}  // namespace
}  // namespace pmix::resolve
