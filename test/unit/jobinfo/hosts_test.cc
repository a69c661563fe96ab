// Registrations as real hosts send them: Open MPI 4.1's mpirun/orted
// (facts/open-mpi-4.1-and-python3-pmix.md: 21 job-level infos plus one
// PMIX_PROC_DATA per rank), Slurm's mpi/pmix plugin (pmixp_client.c:
// PMIX_INT app numbers, every proc tagged with the local node's id), and a
// minimal host (job size and the two maps). Map strings are what
// OpenPMIx 4.2.2's PMIx_generate_regex/ppn produce ("pmix[...]", "raw:")
// or what ours produce, as PMIX_STRING or PMIX_REGEX.
#include <string>
#include <vector>

#include "mca/preg/base/preg_base.h"
#include "src/jobinfo/derive.h"
#include "test/unit/jobinfo/jobinfo_test_util.h"

namespace pmix::jobinfo::test {
namespace {

constexpr pmix_rank_t kJob = PMIX_RANK_WILDCARD;

struct OmpiJob {
  std::vector<std::string> hosts;
  std::vector<std::vector<pmix_rank_t>> ranks;  // per host
  std::vector<uint32_t> vpids;                  // daemon vpid per host = its node id
  size_t local = 0;                             // the orted/mpirun's host
  const char* nmap;
  const char* pmap;
};

void AddOmpiProc(Infos& job, pmix_rank_t rank, uint32_t vpid, const std::string& host,
                 uint16_t lrank) {
  Infos proc;
  proc.Rank(PMIX_RANK, rank)
      .Str(PMIX_LOCALITY_STRING, "SK0:L30:L20:L10:CR0:HT0-1")
      .Str(PMIX_CPUSET, "hwloc:0x00000003")
      .Rank(PMIX_GLOBAL_RANK, rank)
      .U16(PMIX_LOCAL_RANK, lrank)
      .U16(PMIX_NODE_RANK, lrank)
      .U32(PMIX_NODEID, vpid)
      .Str(PMIX_HOSTNAME, host.c_str());
  job.Array(PMIX_PROC_DATA, proc);
}

// The 21 job-level infos of orte's pmix_server_register_nspace, in order,
// then the per-rank arrays.
void BuildOmpi(const OmpiJob& j, Infos& out) {
  const auto& mine = j.ranks[j.local];
  uint32_t size = 0;
  for (const auto& on_node : j.ranks) size += static_cast<uint32_t>(on_node.size());
  std::string peers;
  for (pmix_rank_t r : mine) peers += (peers.empty() ? "" : ",") + std::to_string(r);
  out.Str(PMIX_SERVER_NSPACE, "815595520")
      .Rank(PMIX_SERVER_RANK, j.vpids[j.local])
      .Str(PMIX_JOBID, "[12445,1]")
      .Rank(PMIX_NPROC_OFFSET, 0)
      .Str(PMIX_NODE_MAP, j.nmap)
      .Str(PMIX_PROC_MAP, j.pmap)
      .U32(PMIX_NODEID, j.vpids[j.local])
      .U32(PMIX_NODE_SIZE, static_cast<uint32_t>(mine.size()))
      .U32(PMIX_NUM_NODES, static_cast<uint32_t>(j.hosts.size()))
      .U32(PMIX_UNIV_SIZE, size)
      .U32(PMIX_JOB_SIZE, size)
      .U32(PMIX_JOB_NUM_APPS, 1)
      .U32(PMIX_LOCAL_SIZE, static_cast<uint32_t>(mine.size()))
      .U32(PMIX_MAX_PROCS, size)
      .Str(PMIX_TOPOLOGY_SIGNATURE, "1N:1S:1L3:2L2:2L1:2C:2H:x86_64:le")
      .U64(PMIX_AVAIL_PHYS_MEMORY, 4ull << 30)
      .Str(PMIX_MAPBY, "BYCORE")
      .Str(PMIX_RANKBY, "SLOT")
      .Str(PMIX_BINDTO, "CORE")
      .Str(PMIX_LOCAL_PEERS, peers.c_str())
      .Rank(PMIX_LOCALLDR, mine.front());
  for (size_t n = 0; n < j.hosts.size(); ++n) {
    for (size_t i = 0; i < j.ranks[n].size(); ++i) {
      AddOmpiProc(out, j.ranks[n][i], j.vpids[n], j.hosts[n], static_cast<uint16_t>(i));
    }
  }
}

class HostsTest : public IngestTest {};

TEST_F(HostsTest, OpenMpi41MpirunSingleNode) {
  Infos infos;
  BuildOmpi({{"vm"}, {{0, 1}}, {0}, 0, "pmix[vm]", "raw:0,1"}, infos);
  ASSERT_EQ(infos.size(), 23u);
  auto summary = Run("815595521", 2, infos, "vm");
  ASSERT_TRUE(summary.ok()) << summary.status().code();
  EXPECT_EQ(summary->job_size, 2u);
  EXPECT_EQ(summary->local_ranks, (std::vector<pmix_rank_t>{0, 1}));
  EXPECT_EQ(summary->nodes, (std::vector<std::string>{"vm"}));
  EXPECT_EQ(summary->local_nodeid, 0u);
  EXPECT_EQ(summary->num_apps, 1u);
  EXPECT_EQ(summary->nlocalprocs, 2);
  const char* ns = "815595521";
  // What an Open MPI 4.1 rank Gets, where RFC0009 puts it.
  ExpectU16(ns, 1, PMIX_LOCAL_RANK, 1);
  ExpectU16(ns, 1, PMIX_NODE_RANK, 1);
  ExpectU32(ns, kJob, PMIX_MAX_PROCS, 2);
  ExpectU32(ns, kJob, PMIX_JOB_SIZE, 2);
  ExpectU32(ns, 0, PMIX_APPNUM, 0);
  ExpectU32(ns, kJob, PMIX_LOCAL_SIZE, 2);
  ExpectU32(ns, kJob, PMIX_NUM_NODES, 1);
  ExpectStr(ns, kJob, PMIX_LOCAL_PEERS, "0,1");
  ExpectStr(ns, 1, PMIX_LOCALITY_STRING, "SK0:L30:L20:L10:CR0:HT0-1");
  ExpectStr(ns, 0, PMIX_CPUSET, "hwloc:0x00000003");
  ExpectStr(ns, kJob, PMIX_MAPBY, "BYCORE");
  ExpectU32(ns, kJob, PMIX_UNIV_SIZE, 2);
  ExpectStr(ns, 0, PMIX_HOSTNAME, "vm");
  ExpectAbsent(ns, kJob, PMIX_TMPDIR);
  // Derived where the host was silent.
  ExpectStr(ns, kJob, PMIX_NODE_LIST, "vm");
  ExpectStr(ns, kJob, PMIX_NSPACE, ns);
  ExpectStr(ns, kJob, PMIX_JOBID, "[12445,1]");
  ExpectRank(ns, 1, PMIX_APP_RANK, 1);
  ExpectAbsent(ns, 0, PMIX_RANK);
  // The node and app realms.
  for (const gds::Where& node : {gds::Where::Host("vm"), gds::Where::NodeId(0)}) {
    ExpectStr(ns, kJob, PMIX_LOCAL_PEERS, "0,1", node);
    ExpectU32(ns, kJob, PMIX_NODE_SIZE, 2, node);
    ExpectRank(ns, kJob, PMIX_LOCALLDR, 0, node);
    ExpectStr(ns, kJob, PMIX_HOSTNAME, "vm", node);
  }
  ExpectU32(ns, kJob, PMIX_APP_SIZE, 2, gds::Where::App(0));
  ExpectRank(ns, kJob, PMIX_APPLDR, 0, gds::Where::App(0));
}

TEST_F(HostsTest, OpenMpi41OrtedOfTwoNodes) {
  // mpirun on "head" (vpid 0, no ranks), orteds on n1 (vpid 1), n2 (vpid 2):
  // node ids are vpids, so the map index must not override them.
  Infos infos;
  BuildOmpi({{"n1", "n2"}, {{0, 2}, {1, 3}}, {1, 2}, 1, "pmix[n[1:1-2]]", "raw:0,2;1,3"}, infos);
  auto summary = Run("job1", 2, infos, "n2");
  ASSERT_TRUE(summary.ok()) << summary.status().code();
  EXPECT_EQ(summary->local_ranks, (std::vector<pmix_rank_t>{1, 3}));
  EXPECT_EQ(summary->local_nodeid, 2u);
  EXPECT_EQ(summary->nodes, (std::vector<std::string>{"n1", "n2"}));
  ExpectStr("job1", kJob, PMIX_LOCAL_PEERS, "1,3");
  ExpectStr("job1", kJob, PMIX_LOCAL_PEERS, "0,2", gds::Where::Host("n1"));
  ExpectStr("job1", kJob, PMIX_LOCAL_PEERS, "0,2", gds::Where::NodeId(1));
  ExpectStr("job1", kJob, PMIX_HOSTNAME, "n2", gds::Where::NodeId(2));
  ExpectAbsent("job1", kJob, PMIX_LOCAL_PEERS, gds::Where::NodeId(0));
  ExpectU32("job1", 3, PMIX_NODEID, 2);
  ExpectU16("job1", 3, PMIX_LOCAL_RANK, 1);
  // job-level node keys describe the local node only
  ExpectU32("job1", kJob, PMIX_NODE_SIZE, 2, gds::Where::Host("n2"));
  ExpectAbsent("job1", kJob, PMIX_NODE_SIZE, gds::Where::Host("n1"));
}

// Slurm 22.05's registration of a 2-node step, seen from the second node.
void BuildSlurm(const std::string& nmap, const std::string& pmap, Infos& out) {
  const uint32_t local_id = 1;
  out.Bool(PMIX_SPAWNED, false)
      .Str(PMIX_TMPDIR, "/tmp")
      .Str(PMIX_NSDIR, "/tmp/spmix_appdir_0_1234.0")
      .Bool(PMIX_TDIR_RMCLEAN, true)
      .Str(PMIX_JOBID, "1234.0")
      .U32(PMIX_NODEID, local_id);
  const char* hosts[] = {"cn01", "cn01", "cn02", "cn02"};
  for (int r = 0; r < 4; ++r) {
    Infos proc;
    int zero = 0;
    uint32_t rank = static_cast<uint32_t>(r);
    proc.Rank(PMIX_RANK, rank)
        .Int(PMIX_APPNUM, zero)
        .Int(PMIX_APPLDR, zero)
        .U32(PMIX_GLOBAL_RANK, rank)
        .U32(PMIX_APP_RANK, rank);
    if (r >= 2) proc.U16(PMIX_LOCAL_RANK, r - 2).U16(PMIX_NODE_RANK, r - 2);
    proc.Str(PMIX_HOSTNAME, hosts[r]).U32(PMIX_NODEID, local_id);  // sic: local id for all
    out.Array(PMIX_PROC_DATA, proc);
  }
  out.U32(PMIX_UNIV_SIZE, 4)
      .U32(PMIX_JOB_SIZE, 4)
      .U32(PMIX_LOCAL_SIZE, 2)
      .U32(PMIX_NODE_SIZE, 2)
      .U32(PMIX_MAX_PROCS, 4)
      .Str(PMIX_NODE_MAP, nmap.c_str())
      .Str(PMIX_PROC_MAP, pmap.c_str())
      .Str(PMIX_ANL_MAP, "(vector,(0,2,2))")
      .Str(PMIX_LOCAL_PEERS, "2,3")
      .U32(PMIX_LOCALLDR, 2);
}

TEST_F(HostsTest, Slurm2205StepOnSecondNode) {
  auto nmap = preg::GenerateNodeRegex("cn01,cn02");
  auto pmap = preg::GeneratePpn("0,1;2,3");
  ASSERT_TRUE(nmap.ok() && pmap.ok());
  Infos infos;
  BuildSlurm(*nmap, *pmap, infos);
  auto summary = Run("slurm.pmix.1234.0", 2, infos, "cn02");
  ASSERT_TRUE(summary.ok()) << summary.status().code();
  const char* ns = "slurm.pmix.1234.0";
  EXPECT_EQ(summary->local_ranks, (std::vector<pmix_rank_t>{2, 3}));
  EXPECT_EQ(summary->local_nodeid, 1u);
  // The host's values stay, even Slurm's node id on remote ranks.
  ExpectU32(ns, 0, PMIX_NODEID, 1);
  ExpectU32(ns, 0, PMIX_APP_RANK, 0);
  ExpectU32(ns, kJob, PMIX_LOCALLDR, 2);
  // Derived: remote local ranks, nodes by map index, app 0.
  ExpectU16(ns, 1, PMIX_LOCAL_RANK, 1);
  ExpectStr(ns, kJob, PMIX_LOCAL_PEERS, "0,1", gds::Where::NodeId(0));
  ExpectStr(ns, kJob, PMIX_HOSTNAME, "cn02", gds::Where::NodeId(1));
  ExpectU32(ns, kJob, PMIX_APP_SIZE, 4, gds::Where::App(0));
  ExpectStr(ns, kJob, PMIX_NSDIR, "/tmp/spmix_appdir_0_1234.0", gds::Where::Host("cn02"));
}

TEST_F(HostsTest, MinimalJobSizeAndMaps) {
  Infos infos;
  infos.U32(PMIX_JOB_SIZE, 4)
      .Regex(PMIX_NODE_MAP, "pmix[nodeA,nodeB]")
      .Regex(PMIX_PROC_MAP, "raw:0,1;2,3")
      .Str("custom.key", "hello");
  auto summary = Run("min", 2, infos, "nodeA");
  ASSERT_TRUE(summary.ok()) << summary.status().code();
  EXPECT_EQ(summary->job_size, 4u);
  EXPECT_EQ(summary->local_ranks, (std::vector<pmix_rank_t>{0, 1}));
  EXPECT_EQ(summary->num_nodes, 2u);
  // What OpenPMIx 4.2.2 answers for this registration (probed), and more.
  ExpectU32("min", kJob, PMIX_NUM_NODES, 2);
  ExpectStr("min", kJob, PMIX_NODE_LIST, "nodeA,nodeB");
  ExpectStr("min", kJob, PMIX_LOCAL_PEERS, "0,1");
  ExpectU32("min", kJob, PMIX_LOCAL_SIZE, 2);
  ExpectRank("min", kJob, PMIX_LOCALLDR, 0);
  ExpectU32("min", kJob, PMIX_MAX_PROCS, 4);
  ExpectStr("min", kJob, "custom.key", "hello");
  ExpectU16("min", 3, PMIX_LOCAL_RANK, 1);
  ExpectU16("min", 2, PMIX_NODE_RANK, 0);
  ExpectStr("min", 2, PMIX_HOSTNAME, "nodeB");
  ExpectU32("min", 3, PMIX_NODEID, 1);
  ExpectU32("min", 3, PMIX_APPNUM, 0);
  ExpectStr("min", kJob, PMIX_LOCAL_PEERS, "2,3", gds::Where::Host("nodeB"));
  ExpectU32("min", kJob, PMIX_LOCAL_SIZE, 2, gds::Where::NodeId(1));
  ExpectRank("min", kJob, PMIX_LOCALLDR, 2, gds::Where::NodeId(1));
  ExpectU32("min", kJob, PMIX_JOB_NUM_APPS, 1);
  // The universe is the session's allocation: never the job size (OpenPMIx
  // 4.2.2 does not derive it either, measured); MAX_PROCS is, as there.
  ExpectAbsent("min", kJob, PMIX_UNIV_SIZE);
}

TEST_F(HostsTest, NodeRankCountsTheJobsRegisteredBefore) {
  // The server adds kNodeRankOffsetKey = 5: five processes of earlier jobs
  // are on nodeA. Node ranks there follow them; on nodeB nothing is known
  // of other jobs, so the node rank is the local rank.
  Infos infos;
  infos.U32(PMIX_JOB_SIZE, 4)
      .Regex(PMIX_NODE_MAP, "pmix[nodeA,nodeB]")
      .Regex(PMIX_PROC_MAP, "raw:0,1;2,3")
      .U32(jobinfo::kNodeRankOffsetKey, 5);
  auto summary = Run("nr", 2, infos, "nodeA");
  ASSERT_TRUE(summary.ok()) << summary.status().code();
  ExpectU16("nr", 0, PMIX_LOCAL_RANK, 0);
  ExpectU16("nr", 0, PMIX_NODE_RANK, 5);
  ExpectU16("nr", 1, PMIX_NODE_RANK, 6);
  ExpectU16("nr", 3, PMIX_LOCAL_RANK, 1);
  ExpectU16("nr", 3, PMIX_NODE_RANK, 1);
  // The host's own node ranks win.
  Infos given, proc;
  proc.Rank(PMIX_RANK, 1).U16(PMIX_NODE_RANK, 9);
  given.U32(PMIX_JOB_SIZE, 2)
      .Regex(PMIX_NODE_MAP, "pmix[nodeA]")
      .Regex(PMIX_PROC_MAP, "raw:0,1")
      .U32(jobinfo::kNodeRankOffsetKey, 5)
      .Array(PMIX_PROC_DATA, proc);
  ASSERT_TRUE(Run("nr2", 2, given, "nodeA").ok());
  ExpectU16("nr2", 0, PMIX_NODE_RANK, 5);
  ExpectU16("nr2", 1, PMIX_NODE_RANK, 9);
}

struct MapCase {
  const char* nmap;
  const char* pmap;
  bool regex_type;
};

// One layout, n001..n003 with ranks 0,3 / 1,4 / 2,5, in every accepted form.
TEST_F(HostsTest, MapFormatsGiveTheSameLayout) {
  auto nmap = preg::GenerateNodeRegex("n001,n002,n003");
  auto pmap = preg::GeneratePpn("0,3;1,4;2,5");
  ASSERT_TRUE(nmap.ok() && pmap.ok());
  const MapCase cases[] = {
      {"pmix[n[3:1-3]]", "raw:0,3;1,4;2,5", false},  // OpenPMIx 4.2.2's output
      {"pmix[n[3:1-3]]", "raw:0,3;1,4;2,5", true},
      {"n001,n002,n003", "0,3;1,4;2,5", false},  // plain lists
      {nmap->c_str(), pmap->c_str(), false},     // ours
      {nmap->c_str(), pmap->c_str(), true},
  };
  for (const MapCase& c : cases) {
    SCOPED_TRACE(std::string(c.nmap) + " " + c.pmap);
    SetUp();
    Infos infos;
    if (c.regex_type) {
      infos.Regex(PMIX_NODE_MAP, c.nmap).Regex(PMIX_PROC_MAP, c.pmap);
    } else {
      infos.Str(PMIX_NODE_MAP, c.nmap).Str(PMIX_PROC_MAP, c.pmap);
    }
    auto summary = Run("fmt", 2, infos, "n002");
    ASSERT_TRUE(summary.ok()) << summary.status().code();
    EXPECT_EQ(summary->job_size, 6u);
    EXPECT_EQ(summary->local_ranks, (std::vector<pmix_rank_t>{1, 4}));
    EXPECT_EQ(summary->nodes, (std::vector<std::string>{"n001", "n002", "n003"}));
    ExpectStr("fmt", 5, PMIX_HOSTNAME, "n003");
    ExpectU16("fmt", 5, PMIX_LOCAL_RANK, 1);
    ExpectU32("fmt", kJob, PMIX_JOB_SIZE, 6);
  }
}

TEST_F(HostsTest, RangesInAPpnMap) {
  Infos infos;
  infos.Str(PMIX_NODE_MAP, "pmix[c[1:1-2]]").Str(PMIX_PROC_MAP, "raw:0-3;4-7");
  auto summary = Run("rng", 4, infos, "c2");
  ASSERT_TRUE(summary.ok()) << summary.status().code();
  EXPECT_EQ(summary->local_ranks, (std::vector<pmix_rank_t>{4, 5, 6, 7}));
  ExpectStr("rng", kJob, PMIX_LOCAL_PEERS, "4,5,6,7");
}

}  // namespace
}  // namespace pmix::jobinfo::test
