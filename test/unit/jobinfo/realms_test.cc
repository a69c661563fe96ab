// The §17.2.3 registration arrays (session, job, app, node, proc), what is
// derived from them, and the rules: host values are never overwritten,
// unknown keys are kept, the same input gives the same store.
#include <string>
#include <vector>

#include "mca/preg/base/preg_base.h"
#include "test/unit/jobinfo/jobinfo_test_util.h"

namespace pmix::jobinfo::test {
namespace {

constexpr pmix_rank_t kJob = PMIX_RANK_WILDCARD;

void TwoNodeMaps(Infos& infos) {
  infos.Str(PMIX_NODE_MAP, "pmix[nodeA,nodeB]").Str(PMIX_PROC_MAP, "raw:0,1;2,3");
}

class RealmsTest : public IngestTest {};

TEST_F(RealmsTest, SessionArrayFeedsSessionAndJob) {
  Infos session, infos;
  session.U32(PMIX_SESSION_ID, 7).U32(PMIX_UNIV_SIZE, 64).Str("site.key", "s");
  infos.Array(PMIX_SESSION_INFO_ARRAY, session);
  TwoNodeMaps(infos);
  auto summary = Run("ssn", 2, infos, "nodeA");
  ASSERT_TRUE(summary.ok()) << summary.status().code();
  EXPECT_EQ(summary->session_id, 7u);
  ExpectU32("ssn", kJob, PMIX_UNIV_SIZE, 64, gds::Where::Session(7));
  ExpectStr("ssn", kJob, "site.key", "s", gds::Where::Session(7));
  ExpectU32("ssn", kJob, PMIX_SESSION_ID, 7);
  ExpectU32("ssn", kJob, PMIX_UNIV_SIZE, 64);  // the session's, not the job size
  ExpectU32("ssn", kJob, PMIX_MAX_PROCS, 4);
  // A SESSION fetch without qualifier finds the job's session.
  gds::Where session_of_job = gds::Where::Session(0);
  session_of_job.session.reset();
  ExpectU32("ssn", kJob, PMIX_UNIV_SIZE, 64, session_of_job);
}

TEST_F(RealmsTest, TopLevelSessionKeysJoinTheNamedSession) {
  Infos infos;
  infos.U32(PMIX_SESSION_ID, 3).U32(PMIX_UNIV_SIZE, 16).Str(PMIX_RM_NAME, "test-rm");
  TwoNodeMaps(infos);
  ASSERT_TRUE(Run("ssn3", 2, infos, "nodeA").ok());
  ExpectU32("ssn3", kJob, PMIX_UNIV_SIZE, 16, gds::Where::Session(3));
  ExpectStr("ssn3", kJob, PMIX_RM_NAME, "test-rm", gds::Where::Session(3));
  ExpectU32("ssn3", kJob, PMIX_SESSION_ID, 3, gds::Where::Session(3));
}

TEST_F(RealmsTest, JobArrayIsJobLevelAndOtherJobsInASessionAreSkipped) {
  Infos ours, theirs, session, infos;
  ours.Str(PMIX_NSPACE, "jarr").U32(PMIX_JOB_SIZE, 4);
  TwoNodeMaps(ours);
  theirs.Str(PMIX_NSPACE, "other").U32(PMIX_JOB_SIZE, 99);
  session.U32(PMIX_SESSION_ID, 1).Array(PMIX_JOB_INFO_ARRAY, theirs);
  infos.Array(PMIX_JOB_INFO_ARRAY, ours).Array(PMIX_SESSION_INFO_ARRAY, session);
  auto summary = Run("jarr", 2, infos, "nodeB");
  ASSERT_TRUE(summary.ok()) << summary.status().code();
  EXPECT_EQ(summary->job_size, 4u);
  EXPECT_EQ(summary->local_ranks, (std::vector<pmix_rank_t>{2, 3}));
  ExpectU32("jarr", kJob, PMIX_JOB_SIZE, 4);
  ExpectStr("jarr", kJob, PMIX_LOCAL_PEERS, "2,3");
  ExpectAbsent("jarr", kJob, PMIX_JOB_SIZE, gds::Where::Session(1));
}

TEST_F(RealmsTest, NestedSessionJobNodeArrays) {
  Infos node, job, session, infos;
  node.Str(PMIX_HOSTNAME, "nodeB").U32(PMIX_NODEID, 8).U32(PMIX_NODE_SIZE, 5);
  job.U32(PMIX_JOB_SIZE, 4).Array(PMIX_NODE_INFO_ARRAY, node);
  TwoNodeMaps(job);
  session.U32(PMIX_SESSION_ID, 2).Array(PMIX_JOB_INFO_ARRAY, job);
  infos.Array(PMIX_SESSION_INFO_ARRAY, session);
  auto summary = Run("nest", 2, infos, "nodeA");
  ASSERT_TRUE(summary.ok()) << summary.status().code();
  EXPECT_EQ(summary->session_id, 2u);
  ExpectU32("nest", kJob, PMIX_NODE_SIZE, 5, gds::Where::NodeId(8));
  ExpectStr("nest", kJob, PMIX_LOCAL_PEERS, "2,3", gds::Where::NodeId(8));
  ExpectU32("nest", 2, PMIX_NODEID, 8);
  ExpectU32("nest", 0, PMIX_NODEID, 0);
}

TEST_F(RealmsTest, AppArraysWithContiguousRanges) {
  Infos app0, app1, infos;
  app0.U32(PMIX_APPNUM, 0).U32(PMIX_APP_SIZE, 3).Rank(PMIX_APPLDR, 0).Str(PMIX_WDIR, "/a");
  app1.U32(PMIX_APPNUM, 1).U32(PMIX_APP_SIZE, 1).Rank(PMIX_APPLDR, 3).Str(PMIX_WDIR, "/b");
  infos.U32(PMIX_JOB_NUM_APPS, 2).Array(PMIX_APP_INFO_ARRAY, app0).Array(PMIX_APP_INFO_ARRAY, app1);
  TwoNodeMaps(infos);
  auto summary = Run("mpmd", 2, infos, "nodeA");
  ASSERT_TRUE(summary.ok()) << summary.status().code();
  EXPECT_EQ(summary->num_apps, 2u);
  ExpectU32("mpmd", 2, PMIX_APPNUM, 0);
  ExpectU32("mpmd", 3, PMIX_APPNUM, 1);
  ExpectRank("mpmd", 3, PMIX_APP_RANK, 0);
  ExpectRank("mpmd", 2, PMIX_APP_RANK, 2);
  ExpectStr("mpmd", kJob, PMIX_WDIR, "/b", gds::Where::App(1));
  ExpectU32("mpmd", kJob, PMIX_NUM_NODES, 2, gds::Where::App(0));
  ExpectU32("mpmd", kJob, PMIX_NUM_NODES, 1, gds::Where::App(1));
  ExpectAbsent("mpmd", kJob, PMIX_WDIR);
}

TEST_F(RealmsTest, PerProcAppNumbersGiveAppSizesAndLeaders) {
  Infos infos;
  for (pmix_rank_t r = 0; r < 4; ++r) {
    Infos proc;
    proc.Rank(PMIX_RANK, r).U32(PMIX_APPNUM, r % 2);
    infos.Array(PMIX_PROC_DATA, proc);
  }
  TwoNodeMaps(infos);
  auto summary = Run("odd", 2, infos, "nodeA");
  ASSERT_TRUE(summary.ok()) << summary.status().code();
  EXPECT_EQ(summary->num_apps, 2u);
  ExpectU32("odd", kJob, PMIX_APP_SIZE, 2, gds::Where::App(1));
  ExpectRank("odd", kJob, PMIX_APPLDR, 1, gds::Where::App(1));
  ExpectRank("odd", 3, PMIX_APP_RANK, 1);
  ExpectU32("odd", kJob, PMIX_JOB_NUM_APPS, 2);
}

TEST_F(RealmsTest, SingleAppTakesJobLevelAppKeys) {
  Infos infos;
  infos.Str(PMIX_WDIR, "/work").Str(PMIX_APP_ARGV, "./a.out -x");
  TwoNodeMaps(infos);
  ASSERT_TRUE(Run("one", 2, infos, "nodeA").ok());
  ExpectStr("one", kJob, PMIX_WDIR, "/work", gds::Where::App(0));
  ExpectStr("one", kJob, PMIX_APP_ARGV, "./a.out -x", gds::Where::App(0));
  ExpectU32("one", kJob, PMIX_APP_SIZE, 4, gds::Where::App(0));
  ExpectRank("one", kJob, PMIX_APPLDR, 0, gds::Where::App(0));
  ExpectU32("one", kJob, PMIX_APPNUM, 0, gds::Where::App(0));
}

TEST_F(RealmsTest, NodeArraysNameNodesByIdHostOrBoth) {
  Infos b, by_id, login, infos;
  b.Str(PMIX_HOSTNAME, "nodeB").U32(PMIX_NODEID, 5).U32(PMIX_NODE_SIZE, 9);
  by_id.U32(PMIX_NODEID, 0).Str("rack", "r1");  // nodeA, by its map index
  login.Str(PMIX_HOSTNAME, "login").Str("role", "frontend");
  infos.Array(PMIX_NODE_INFO_ARRAY, b)
      .Array(PMIX_NODE_INFO_ARRAY, by_id)
      .Array(PMIX_NODE_INFO_ARRAY, login);
  TwoNodeMaps(infos);
  auto summary = Run("nodes", 2, infos, "nodeB");
  ASSERT_TRUE(summary.ok()) << summary.status().code();
  EXPECT_EQ(summary->local_nodeid, 5u);
  EXPECT_EQ(summary->num_nodes, 2u);
  ExpectU32("nodes", 3, PMIX_NODEID, 5);
  ExpectU32("nodes", kJob, PMIX_NODE_SIZE, 9, gds::Where::Host("nodeB"));
  ExpectStr("nodes", kJob, "rack", "r1", gds::Where::Host("nodeA"));
  ExpectStr("nodes", kJob, "role", "frontend", gds::Where::Host("login"));
  ExpectAbsent("nodes", kJob, PMIX_LOCAL_PEERS, gds::Where::Host("login"));
}

TEST_F(RealmsTest, LocalNodeFoundByAliasOrShortName) {
  Infos alias, infos;
  alias.Str(PMIX_HOSTNAME, "nodeB").Str(PMIX_HOSTNAME_ALIASES, "nodeB-ib,10.0.0.2");
  infos.Array(PMIX_NODE_INFO_ARRAY, alias);
  TwoNodeMaps(infos);
  auto by_alias = Run("alias", 2, infos, "nodeB-ib");
  ASSERT_TRUE(by_alias.ok());
  EXPECT_EQ(by_alias->local_ranks, (std::vector<pmix_rank_t>{2, 3}));
  auto by_short = Run("short", 2, infos, "nodeA.cluster.example");
  ASSERT_TRUE(by_short.ok());
  EXPECT_EQ(by_short->local_ranks, (std::vector<pmix_rank_t>{0, 1}));
  auto elsewhere = Run("none", 0, infos, "login1");
  ASSERT_TRUE(elsewhere.ok());
  EXPECT_TRUE(elsewhere->local_ranks.empty());
  ExpectAbsent("none", kJob, PMIX_LOCAL_PEERS);
}

TEST_F(RealmsTest, ProcDataAloneGivesThePlacement) {
  Infos infos;
  const char* hosts[] = {"x1", "x2", "x1"};
  for (pmix_rank_t r = 0; r < 3; ++r) {
    Infos proc;
    proc.Rank(PMIX_RANK, r).Str(PMIX_HOSTNAME, hosts[r]);
    infos.Array(PMIX_PROC_DATA, proc);
  }
  auto summary = Run("pd", 2, infos, "x1");
  ASSERT_TRUE(summary.ok()) << summary.status().code();
  EXPECT_EQ(summary->job_size, 3u);
  EXPECT_EQ(summary->nodes, (std::vector<std::string>{"x1", "x2"}));
  EXPECT_EQ(summary->local_ranks, (std::vector<pmix_rank_t>{0, 2}));
  ExpectU16("pd", 2, PMIX_LOCAL_RANK, 1);
  ExpectStr("pd", kJob, PMIX_LOCAL_PEERS, "0,2");
}

TEST_F(RealmsTest, HostValuesAreNeverOverwritten) {
  Infos proc, infos;
  proc.Rank(PMIX_RANK, 1)
      .U16(PMIX_LOCAL_RANK, 7)
      .Str(PMIX_HOSTNAME, "elsewhere")
      .Str("app.key", "v");
  infos.U32(PMIX_JOB_SIZE, 10)
      .U32(PMIX_NUM_NODES, 3)
      .Str(PMIX_JOBID, "job.7")
      .Array(PMIX_PROC_DATA, proc);
  TwoNodeMaps(infos);
  auto summary = Run("keep", 2, infos, "nodeA");
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ(summary->job_size, 10u);
  ExpectU16("keep", 1, PMIX_LOCAL_RANK, 7);
  ExpectStr("keep", 1, PMIX_HOSTNAME, "elsewhere");
  ExpectStr("keep", 1, "app.key", "v");
  ExpectU32("keep", kJob, PMIX_JOB_SIZE, 10);
  ExpectU32("keep", kJob, PMIX_NUM_NODES, 3);
  ExpectStr("keep", kJob, PMIX_JOBID, "job.7");
  ExpectU32("keep", kJob, PMIX_MAX_PROCS, 10);
}

TEST_F(RealmsTest, LaterDuplicatesWinAndProcArraysMerge) {
  Infos first, second, infos;
  first.Rank(PMIX_RANK, 0).Str("k1", "a").Str("k2", "old");
  second.Rank(PMIX_RANK, 0).Str("k2", "new");
  infos.Str("dup", "1").Str("dup", "2").Array(PMIX_PROC_DATA, first).Array(PMIX_PROC_DATA, second);
  ASSERT_TRUE(Run("dup", 1, infos, "h").ok());
  ExpectStr("dup", kJob, "dup", "2");
  ExpectStr("dup", 0, "k1", "a");
  ExpectStr("dup", 0, "k2", "new");
}

TEST_F(RealmsTest, ManyJobKeysWithDuplicates) {
  Infos infos;
  std::vector<std::string> keys;
  for (int k = 0; k < 100; ++k) keys.push_back("user.k" + std::to_string(k));
  for (int k = 0; k < 100; ++k) infos.U32(keys[k].c_str(), k);
  infos.U32(keys[3].c_str(), 1003).U32(keys[90].c_str(), 1090).U32(PMIX_JOB_SIZE, 2);
  ASSERT_TRUE(Run("many", 0, infos, "h").ok());
  ExpectU32("many", kJob, keys[3].c_str(), 1003);
  ExpectU32("many", kJob, keys[90].c_str(), 1090);
  ExpectU32("many", kJob, keys[50].c_str(), 50);
  ExpectU32("many", kJob, PMIX_MAX_PROCS, 2);
  size_t job_keys = 0;
  for (const auto& [where, value] : Snapshot("many")) job_keys += where.rfind("job/", 0) == 0;
  // + size, max, nspace, jobid, napps (no univ: never derived from the job size)
  EXPECT_EQ(job_keys, 100u + 5);
  ExpectAbsent("many", kJob, PMIX_UNIV_SIZE);
}

TEST_F(RealmsTest, GlobalRankFromOffset) {
  Infos infos;
  infos.Rank(PMIX_NPROC_OFFSET, 100);
  TwoNodeMaps(infos);
  ASSERT_TRUE(Run("off", 2, infos, "nodeA").ok());
  ExpectRank("off", 3, PMIX_GLOBAL_RANK, 103);
}

TEST_F(RealmsTest, NoDataStoresNothing) {
  Infos infos;
  infos.Bool(PMIX_REGISTER_NODATA, true);
  auto summary = Run("srv", 1, infos, "vm");
  ASSERT_TRUE(summary.ok());
  EXPECT_TRUE(summary->nodata);
  EXPECT_TRUE(Snapshot("srv").empty());
}

TEST_F(RealmsTest, NothingButTheNamespace) {
  Infos infos;
  auto summary = Run("bare", 0, infos, "vm");
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ(summary->job_size, 0u);
  ExpectStr("bare", kJob, PMIX_NSPACE, "bare");
  ExpectAbsent("bare", kJob, PMIX_JOB_SIZE);
}

TEST_F(RealmsTest, SameInputSameStoreAndIdempotent) {
  Infos session, node, infos;
  session.U32(PMIX_SESSION_ID, 4).U32(PMIX_UNIV_SIZE, 8);
  node.Str(PMIX_HOSTNAME, "nodeB").U32(PMIX_NODEID, 3);
  infos.U32(PMIX_JOB_SIZE, 4)
      .Array(PMIX_SESSION_INFO_ARRAY, session)
      .Array(PMIX_NODE_INFO_ARRAY, node);
  TwoNodeMaps(infos);
  ASSERT_TRUE(Run("det", 2, infos, "nodeA").ok());
  auto server = Snapshot("det");
  EXPECT_GT(server.size(), 30u);
  SetUp();  // a client's fresh cache
  ASSERT_TRUE(Run("det", 2, infos, "nodeA").ok());
  EXPECT_EQ(Snapshot("det"), server);
  ASSERT_TRUE(Run("det", 2, infos, "nodeA").ok());
  EXPECT_EQ(Snapshot("det"), server);
}

TEST_F(RealmsTest, ThousandNodesStayQuick) {
  std::string hosts, ppn;
  for (int n = 0; n < 1000; ++n) {
    hosts += (n ? "," : "") + ("c" + std::to_string(n));
    ppn += (n ? ";" : "") + RankList(static_cast<pmix_rank_t>(n * 16), 16);
  }
  auto nmap = preg::GenerateNodeRegex(hosts);
  auto pmap = preg::GeneratePpn(ppn);
  ASSERT_TRUE(nmap.ok() && pmap.ok());
  Infos infos;
  infos.Str(PMIX_NODE_MAP, nmap->c_str()).Str(PMIX_PROC_MAP, pmap->c_str());
  auto summary = Run("big", 16, infos, "c500");
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ(summary->job_size, 16000u);
  EXPECT_EQ(summary->local_ranks.front(), 8000u);
  ExpectU32("big", 15999, PMIX_NODEID, 999);
  ExpectStr("big", kJob, PMIX_LOCAL_PEERS, RankList(16, 16), gds::Where::Host("c1"));
}

}  // namespace
}  // namespace pmix::jobinfo::test
