// Job-data images (mca/gds/base/image.h) as ingestion makes them: compact
// at scale, derived per-rank keys without per-rank records, and safe on
// corrupted or truncated bytes (every lookup returns a status, never a
// wild read: run under ASan in CI).
#include "mca/gds/base/image.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "mca/gds/base/image_derive.h"
#include "mca/preg/base/preg_base.h"
#include "test/unit/gds/region_test_util.h"
#include "test/unit/jobinfo/jobinfo_test_util.h"

namespace pmix::jobinfo::test {
namespace {

constexpr pmix_rank_t kJob = PMIX_RANK_WILDCARD;

// A production-style registration: S ranks over S/ppn nodes, placed by
// slot (or dealt round-robin over the nodes), with the per-rank arrays
// PRRTE sends (every rank, every key it derives itself).
void BuildJob(uint32_t size, uint32_t ppn, Infos& infos, std::vector<std::unique_ptr<Infos>>& keep,
              bool round_robin = false) {
  std::string hosts, map;
  uint32_t nodes = size / ppn;
  auto node_of = [&](uint32_t r) { return round_robin ? r % nodes : r / ppn; };
  auto local_of = [&](uint32_t r) { return round_robin ? r / nodes : r % ppn; };
  for (uint32_t n = 0; n < nodes; ++n) {
    char name[32];
    std::snprintf(name, sizeof name, "node%05u", n);
    hosts += (n ? "," : "") + std::string(name);
    map += n ? ";" : "";
    for (uint32_t i = 0; i < ppn; ++i)
      map += (i ? "," : "") + std::to_string(round_robin ? n + i * nodes : n * ppn + i);
  }
  auto nmap = preg::GenerateNodeRegex(hosts);
  auto pmap = preg::GeneratePpn(map);
  ASSERT_TRUE(nmap.ok() && pmap.ok());
  infos.U32(PMIX_JOB_SIZE, size).Rank(PMIX_NPROC_OFFSET, 0);
  infos.Str(PMIX_NODE_MAP, nmap->c_str()).Str(PMIX_PROC_MAP, pmap->c_str());
  for (uint32_t r = 0; r < size; ++r) {
    char host[32];
    std::snprintf(host, sizeof host, "node%05u", node_of(r));
    auto& proc = *keep.emplace_back(std::make_unique<Infos>());
    proc.Rank(PMIX_RANK, r)
        .U16(PMIX_LOCAL_RANK, static_cast<uint16_t>(local_of(r)))
        .U16(PMIX_NODE_RANK, static_cast<uint16_t>(local_of(r)))
        .U32(PMIX_NODEID, node_of(r))
        .Str(PMIX_HOSTNAME, host)
        .U32(PMIX_APPNUM, 0)
        .Rank(PMIX_APP_RANK, r)
        .Rank(PMIX_GLOBAL_RANK, r)
        .U32(PMIX_REINCARNATION, 0);
    infos.Array(PMIX_PROC_DATA, proc);
  }
}

class ImageTest : public IngestTest {};

// Every registration of these tests goes through the image matrix
// (IngestTest::CheckRegistrationRoundTrip: heap, gds shmem, attached by
// descriptor). Wherever memfds seal, shmem must be in it; where they do
// not, shmem cannot work, and this says so as a skip.
TEST(ImageMatrix, CoversShmemWhereMemfdsSeal) {
  if (!gds::test::MemfdSealingWorks()) {
    GTEST_SKIP() << "memfd_create(MFD_ALLOW_SEALING) + F_ADD_SEALS do not work here: no gds "
                    "shmem, the image matrix covers the heap only";
  }
  const char* why = ShmemMissing();
  EXPECT_TRUE(why == nullptr) << why;
  auto shmem = gds::ByName("shmem");
  ASSERT_TRUE(shmem.ok()) << shmem.status().code();
  EXPECT_NE((*shmem)->region_attach, nullptr);
}

TEST_F(ImageTest, ScalesWithoutPerRankRecords) {
  // The same 2,000 nodes with 8, then 16 ranks each. Nine keys per rank
  // (over 300 bytes as the host passed them), every one either what the
  // placement derives or one value for all ranks: the image stores one run
  // and the data of each node, and nothing per rank (before: 88 bytes per
  // rank, a 20-byte rank record and a 4-byte column slot per key).
  size_t sizes[2];
  for (uint32_t ppn : {8u, 16u}) {
    Infos infos;
    std::vector<std::unique_ptr<Infos>> keep;
    BuildJob(2000 * ppn, ppn, infos, keep);
    std::string name = "big" + std::to_string(ppn);
    const char* ns = name.c_str();
    ASSERT_TRUE(Run(ns, 8, infos, "node00100").ok());
    auto image = store_->FindImage(ns);
    ASSERT_NE(image, nullptr);
    sizes[ppn / 16] = image->region().size();
    pmix_rank_t r = 100 * ppn + 3;
    ExpectStr(ns, r, PMIX_HOSTNAME, "node00100");
    ExpectU32(ns, r, PMIX_NODEID, 100);
    ExpectU16(ns, r, PMIX_LOCAL_RANK, 3);
    ExpectU16(ns, r, PMIX_NODE_RANK, 3);
    ExpectRank(ns, r, PMIX_APP_RANK, r);
    ExpectRank(ns, r, PMIX_GLOBAL_RANK, r);
    ExpectU32(ns, r, PMIX_REINCARNATION, 0);
    char host[32];
    std::snprintf(host, sizeof host, "node%05u", 12345 / ppn);
    ExpectStr(ns, 12345, PMIX_HOSTNAME, host);
    ExpectU32(ns, kJob, PMIX_LOCAL_SIZE, ppn);
    ExpectStr(ns, kJob, PMIX_LOCAL_PEERS, RankList(100 * ppn, ppn));
    EXPECT_EQ(image->LocalRanks().size(), ppn);
    EXPECT_EQ(image->JobNodes().size(), 2000u);
  }
  // What 16,000 more ranks cost: their node's longer PMIX_LOCAL_PEERS
  // lists (about 6 bytes a rank), nothing of their own.
  EXPECT_LT(sizes[1] - sizes[0], 16000u * 8) << sizes[0] << " -> " << sizes[1];
  EXPECT_LT(sizes[0] / 16000, 32u) << sizes[0];
}

// Ranks dealt round-robin over the nodes (map-by node): one run per round,
// the per-rank keys still derived, not stored.
TEST_F(ImageTest, RoundRobinPlacementIsOneRunPerRound) {
  Infos infos;
  std::vector<std::unique_ptr<Infos>> keep;
  BuildJob(16000, 8, infos, keep, true);
  ASSERT_TRUE(Run("rr", 8, infos, "node00100").ok());
  auto image = store_->FindImage("rr");
  ASSERT_NE(image, nullptr);
  EXPECT_LT(image->region().size() / 16000, 32u) << image->region().size();
  for (pmix_rank_t r : {0u, 1999u, 2000u, 4100u, 15999u}) {
    char host[32];
    std::snprintf(host, sizeof host, "node%05u", r % 2000);
    ExpectStr("rr", r, PMIX_HOSTNAME, host);
    ExpectU32("rr", r, PMIX_NODEID, r % 2000);
    ExpectU16("rr", r, PMIX_LOCAL_RANK, static_cast<uint16_t>(r / 2000));
    ExpectRank("rr", r, PMIX_APP_RANK, r);
  }
  ExpectStr("rr", kJob, PMIX_LOCAL_PEERS, "100,2100,4100,6100,8100,10100,12100,14100");
  ExpectAbsent("rr", 16000, PMIX_HOSTNAME);
}

// A per-rank key the placement derives, but with other values for some
// ranks (a host that numbers local ranks its own way): kept as the host
// gave it, rank by rank.
TEST_F(ImageTest, HostValuesThatDifferFromThePlacementAreKept) {
  Infos infos;
  infos.Str(PMIX_NODE_MAP, "pmix[a,b]").Str(PMIX_PROC_MAP, "raw:0,1,2;3,4,5");
  std::vector<std::unique_ptr<Infos>> keep;
  for (pmix_rank_t r = 0; r < 6; ++r) {
    auto& proc = *keep.emplace_back(std::make_unique<Infos>());
    proc.Rank(PMIX_RANK, r).U16(PMIX_LOCAL_RANK, static_cast<uint16_t>(r == 4 ? 7 : r % 3));
    proc.Str(PMIX_HOSTNAME, r < 3 ? "a" : "b").U32("same", 5);
    infos.Array(PMIX_PROC_DATA, proc);
  }
  ASSERT_TRUE(Run("own", 3, infos, "a").ok());
  ExpectU16("own", 3, PMIX_LOCAL_RANK, 0);
  ExpectU16("own", 4, PMIX_LOCAL_RANK, 7);
  ExpectU16("own", 5, PMIX_LOCAL_RANK, 2);
  ExpectStr("own", 4, PMIX_HOSTNAME, "b");
  ExpectU32("own", 2, "same", 5);
  // The whole rank, as a Get of every key returns it.
  auto all = store_->Fetch(pmix_proc_t{"own", 4}, gds::Where::Proc(), PMIX_GDS_VIEW_ALL, "");
  ASSERT_TRUE(all.ok()) << all.status().code();
  std::set<std::string> keys;
  for (const pmix_info_t& kv : all->view()) keys.insert(kv.key);
  for (const char* key : {PMIX_LOCAL_RANK, PMIX_HOSTNAME, "same", PMIX_NODEID})
    EXPECT_EQ(keys.count(key), 1u) << key;
}

TEST_F(ImageTest, DerivesRankKeysFromTheMapsAlone) {
  Infos infos;
  infos.Str(PMIX_NODE_MAP, "pmix[a,b,c]")
      .Str(PMIX_PROC_MAP, "raw:0,3;1,4;2,5")
      .Rank(PMIX_NPROC_OFFSET, 10);
  ASSERT_TRUE(Run("maps", 2, infos, "b").ok());
  ExpectStr("maps", 4, PMIX_HOSTNAME, "b");
  ExpectU32("maps", 5, PMIX_NODEID, 2);
  ExpectU16("maps", 3, PMIX_LOCAL_RANK, 1);
  ExpectU16("maps", 3, PMIX_NODE_RANK, 1);
  ExpectRank("maps", 5, PMIX_GLOBAL_RANK, 15);
  ExpectU32("maps", 5, PMIX_APPNUM, 0);
  ExpectRank("maps", 5, PMIX_APP_RANK, 5);
  ExpectAbsent("maps", 6, PMIX_HOSTNAME);
  // rank UNDEF: the first rank holding the key.
  auto v = store_->FetchValue(pmix_proc_t{"maps", PMIX_RANK_UNDEF}, gds::Where::Proc(),
                              PMIX_GDS_VIEW_ALL, PMIX_HOSTNAME);
  ASSERT_TRUE(v.ok());
  EXPECT_STREQ((*v)->data.string, "a");
}

// A host's NULL string stays NULL and "" stays "" (Open MPI 4.1's orted
// registers a NULL PMIX_LOCALITY_STRING for an unbound proc, and its ranks
// crash when they get "" instead).
TEST_F(ImageTest, KeepsNullStringsApartFromEmptyOnes) {
  Infos proc0, proc1, infos;
  pmix_info_t null_string;
  std::memset(&null_string, 0, sizeof null_string);
  PMIX_LOAD_KEY(null_string.key, PMIX_LOCALITY_STRING);
  null_string.value.type = PMIX_STRING;
  proc0.Rank(PMIX_RANK, 0).Raw(null_string);
  proc1.Rank(PMIX_RANK, 1).Str(PMIX_LOCALITY_STRING, "");
  infos.Str(PMIX_NODE_MAP, "pmix[a]").Str(PMIX_PROC_MAP, "raw:0,1");
  infos.Array(PMIX_PROC_DATA, proc0).Array(PMIX_PROC_DATA, proc1);
  ASSERT_TRUE(Run("nulls", 2, infos, "a").ok());
  auto none = store_->FetchValue(pmix_proc_t{"nulls", 0}, gds::Where::Proc(), PMIX_GDS_VIEW_ALL,
                                 PMIX_LOCALITY_STRING);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ((*none)->type, PMIX_STRING);
  EXPECT_EQ((*none)->data.string, nullptr);
  auto empty = store_->FetchValue(pmix_proc_t{"nulls", 1}, gds::Where::Proc(), PMIX_GDS_VIEW_ALL,
                                  PMIX_LOCALITY_STRING);
  ASSERT_TRUE(empty.ok());
  ASSERT_NE((*empty)->data.string, nullptr);
  EXPECT_STREQ((*empty)->data.string, "");
}

TEST_F(ImageTest, StoredValuesTakePrecedenceOverTheImage) {
  Infos infos;
  infos.Str(PMIX_NODE_MAP, "pmix[a,b]").Str(PMIX_PROC_MAP, "raw:0;1");
  ASSERT_TRUE(Run("mix", 1, infos, "a").ok());
  pmix_proc_t one{"mix", 1};
  pmix_value_t host;
  std::memset(&host, 0, sizeof host);
  host.type = PMIX_STRING;
  host.data.string = const_cast<char*>("b.example");
  ASSERT_TRUE(store_->PutValue(one, gds::Where::Proc(), PMIX_LOCAL, PMIX_HOSTNAME, host).ok());
  auto local = store_->FetchValue(one, gds::Where::Proc(), PMIX_GDS_VIEW_LOCAL, PMIX_HOSTNAME);
  ASSERT_TRUE(local.ok());
  EXPECT_STREQ((*local)->data.string, "b.example");
  // Put in LOCAL scope: a remote reader sees neither it nor the image's value.
  EXPECT_EQ(store_->FetchValue(one, gds::Where::Proc(), PMIX_GDS_VIEW_REMOTE, PMIX_HOSTNAME)
                .status()
                .code(),
            PMIX_ERR_EXISTS_OUTSIDE_SCOPE);
  auto all = store_->Fetch(one, gds::Where::Proc(), PMIX_GDS_VIEW_LOCAL, "");
  ASSERT_TRUE(all.ok());
  int hostnames = 0;
  for (const pmix_info_t& kv : all->view()) hostnames += PMIX_CHECK_KEY(&kv, PMIX_HOSTNAME) ? 1 : 0;
  EXPECT_EQ(hostnames, 1);
}

// A store knows which ranks it holds PROC data for, so that a Get about
// any other rank reads the image alone; what was stored still wins for
// every rank it was stored for, also past the ranks it tracks one by one.
TEST_F(ImageTest, StoredValuesWinForTheirRanksOnly) {
  Infos infos;
  std::string pmap = "raw:" + RankList(0, 20) + ";" + RankList(20, 20);
  infos.Str(PMIX_NODE_MAP, "pmix[a,b]").Str(PMIX_PROC_MAP, pmap.c_str());
  ASSERT_TRUE(Run("ranks", 20, infos, "a").ok());
  std::set<pmix_rank_t> stored;
  auto put = [&](pmix_rank_t rank) {
    std::string name = "host-of-" + std::to_string(rank);
    pmix_value_t host;
    std::memset(&host, 0, sizeof host);
    host.type = PMIX_STRING;
    host.data.string = name.data();
    pmix_proc_t proc{"ranks", rank};
    ASSERT_TRUE(store_->PutValue(proc, gds::Where::Proc(), PMIX_GLOBAL, PMIX_HOSTNAME, host).ok());
    stored.insert(rank);
  };
  auto expect_all = [&] {
    for (pmix_rank_t rank = 0; rank < 40; ++rank) {
      std::string want = stored.count(rank) ? "host-of-" + std::to_string(rank)
                         : rank < 20        ? "a"
                                            : "b";
      ExpectStr("ranks", rank, PMIX_HOSTNAME, want);
    }
  };
  put(3);
  expect_all();
  for (pmix_rank_t rank = 5; rank < 40; rank += 2) put(rank);  // 19 ranks
  expect_all();
  // rank UNDEF: the stored values count too.
  auto any = store_->FetchValue(pmix_proc_t{"ranks", PMIX_RANK_UNDEF}, gds::Where::Proc(),
                                PMIX_GDS_VIEW_ALL, PMIX_HOSTNAME);
  ASSERT_TRUE(any.ok());
  EXPECT_EQ(std::string((*any)->data.string).rfind("host-of-", 0), 0u) << (*any)->data.string;
}

// Reads everything an image offers; returns normally whatever the bytes.
void Exercise(const gds::Image& image) {
  pmix_proc_t job{};
  PMIX_LOAD_NSPACE(job.nspace, std::string(image.nspace()).c_str());
  job.rank = PMIX_RANK_WILDCARD;
  (void)image.Fetch(job, gds::Where::Job(), "");
  (void)image.Registration();
  (void)image.JobNodes();
  (void)image.LocalRanks();
  for (pmix_gds_realm_t realm :
       {PMIX_GDS_REALM_PROC, PMIX_GDS_REALM_APP, PMIX_GDS_REALM_NODE, PMIX_GDS_REALM_SESSION}) {
    auto ids = image.Instances(realm);
    if (!ids.ok()) continue;
    for (size_t i = 0; i < ids->size() && i < 8; ++i) {
      const pmix_info_t& id = (*ids)[i];
      pmix_proc_t proc = job;
      gds::Where where = gds::Where::Proc();
      if (realm == PMIX_GDS_REALM_PROC) proc.rank = id.value.data.rank;
      if (realm == PMIX_GDS_REALM_APP) where = gds::Where::App(id.value.data.uint32);
      if (realm == PMIX_GDS_REALM_SESSION) where = gds::Where::Session(id.value.data.uint32);
      if (realm == PMIX_GDS_REALM_NODE)
        where = id.value.type == PMIX_UINT32 ? gds::Where::NodeId(id.value.data.uint32)
                                             : gds::Where::Host(id.value.data.string);
      (void)image.Fetch(proc, where, "");
    }
  }
  for (pmix_rank_t rank : {0u, 3u, 7u, PMIX_RANK_UNDEF}) {
    pmix_proc_t proc = job;
    proc.rank = rank;
    for (const char* key :
         {PMIX_HOSTNAME, PMIX_NODEID, PMIX_LOCAL_RANK, "custom", PMIX_APPNUM, "var", "odd"})
      (void)image.FetchValue(proc, gds::Where::Proc(), key);
  }
  (void)image.FetchValue(job, gds::Where::Host("n1"), PMIX_LOCAL_PEERS);
  (void)image.FetchValue(job, gds::Where::App(0), PMIX_APP_SIZE);
}

TEST_F(ImageTest, CorruptedOrTruncatedBytesNeverCrash) {
  Infos infos, session, app, node;
  session.U32(PMIX_SESSION_ID, 3).U32(PMIX_UNIV_SIZE, 16);
  app.U32(PMIX_APPNUM, 0).Str(PMIX_WDIR, "/tmp");
  node.Str(PMIX_HOSTNAME, "n1").U32(PMIX_NODEID, 1).Str("vendor.key", "x");
  infos.Str(PMIX_NODE_MAP, "pmix[n0,n1]")
      .Str(PMIX_PROC_MAP, "raw:0,1,2,3;4,5,6,7")
      .Array(PMIX_SESSION_INFO_ARRAY, session)
      .Array(PMIX_APP_INFO_ARRAY, app)
      .Array(PMIX_NODE_INFO_ARRAY, node)
      .U64("custom", 42);
  std::vector<std::unique_ptr<Infos>> keep;
  for (pmix_rank_t r = 0; r < 8; ++r) {
    auto& proc = *keep.emplace_back(std::make_unique<Infos>());
    // Every column kind: constant ("custom", "nested"), derived (local
    // rank), dense ("var") and sparse ("odd").
    proc.Rank(PMIX_RANK, r).Str("custom", "per-rank").Array("nested", app);
    proc.U16(PMIX_LOCAL_RANK, static_cast<uint16_t>(r % 4)).U32("var", r);
    if (r == 5) proc.U32("odd", r);
    infos.Array(PMIX_PROC_DATA, proc);
  }
  ASSERT_TRUE(Run("fuzz", 4, infos, "n1").ok());
  auto good = store_->FindImage("fuzz");
  std::vector<uint8_t> bytes(good->region().bytes().begin(), good->region().bytes().end());
  Exercise(*good);

  // Truncated: refused at open.
  for (size_t len = 0; len < bytes.size(); len += 7) {
    auto region = gds::Region::Copy(std::span<const uint8_t>(bytes.data(), len));
    ASSERT_TRUE(region.ok());
    EXPECT_FALSE(gds::Image::Open(std::move(*region)).ok()) << len;
  }
  // Flipped bytes: refused, or every read answers with some status.
  std::mt19937 rng(20261125);
  int opened = 0;
  for (int round = 0; round < 3000; ++round) {
    std::vector<uint8_t> bad = bytes;
    int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f)
      bad[rng() % bad.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    auto region = gds::Region::Copy(bad);
    ASSERT_TRUE(region.ok());
    auto image = gds::Image::Open(std::move(*region));
    if (!image.ok()) {
      EXPECT_TRUE(image.status().code() == PMIX_ERR_BAD_PARAM ||
                  image.status().code() == PMIX_ERR_NOT_SUPPORTED);  // an unknown codec name
      continue;
    }
    ++opened;
    Exercise(**image);
  }
  EXPECT_GT(opened, 0);  // most flips land in data, which opens and is read safely
}

// PMIX_GLOBAL_RANK is the offset plus the rank only while that stays a
// valid rank: an offset at or past PMIX_RANK_VALID (a host's, or corrupted
// bytes) derives nothing rather than a wrapped or reserved rank.
TEST(ImageDerive, GlobalRankNeverLeavesTheValidRanks) {
  gds::image::RankFacts rank;
  rank.rank = 5;
  pmix_value_t v;
  ASSERT_TRUE(gds::image::DeriveBorrowed(rank, nullptr, 10u, gds::image::Derived::kGlobalRank, &v));
  EXPECT_EQ(v.data.rank, 15u);
  for (uint32_t offset : {PMIX_RANK_VALID - 5, PMIX_RANK_VALID, PMIX_RANK_VALID + 1, UINT32_MAX})
    EXPECT_FALSE(
        gds::image::DeriveBorrowed(rank, nullptr, offset, gds::image::Derived::kGlobalRank, &v))
        << offset;
  EXPECT_FALSE(gds::image::DeriveBorrowed(rank, nullptr, std::nullopt,
                                          gds::image::Derived::kGlobalRank, &v));
}

// The image fuzzer's seeds (test/fuzz/corpus/image/seed-*) are images of
// the registrations above as this build writes them: a layout change that
// left them unreadable would leave libFuzzer stuck at the header check.
// Write them again then (the image's region().bytes()).
TEST(ImageFuzzSeeds, OpenWithThisBuild) {
  const char* top = std::getenv("top_srcdir");
  if (top == nullptr || *top == '\0') GTEST_SKIP() << "top_srcdir is not set (make check sets it)";
  std::filesystem::path dir = std::filesystem::path(top) / "test/fuzz/corpus/image";
  int seeds = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().filename().string().rfind("seed-", 0) != 0) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    auto region = gds::Region::Copy(bytes);
    ASSERT_TRUE(region.ok());
    auto image = gds::Image::Open(std::move(*region));
    EXPECT_TRUE(image.ok()) << entry.path() << ": " << image.status().code();
    ++seeds;
  }
  EXPECT_GE(seeds, 3);
}

}  // namespace
}  // namespace pmix::jobinfo::test
