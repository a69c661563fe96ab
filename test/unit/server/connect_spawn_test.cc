// The pure parts of connect/disconnect and spawn: the connect reply body
// (src/server/server_connect.h), the spawn apps on the wire and their owner
// (src/server/server_spawn.h).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mca/bfrops/base/bfrops_base.h"
#include "pmix.h"
#include "src/jobinfo/jobinfo.h"
#include "src/server/server_connect.h"
#include "src/server/server_spawn.h"

namespace pmix::server {
namespace {

class ConnectSpawnWire : public ::testing::Test {
 protected:
  void SetUp() override {
    auto c = bfrops::DefaultCodec();
    ASSERT_TRUE(c.ok());
    codec_ = *c;
  }
  wire::Bytes Body(const std::function<void(wire::Writer&)>& fill) {
    wire::Writer w(codec_);
    fill(w);
    auto bytes = w.Take();
    EXPECT_TRUE(bytes.ok());
    return bytes.ok() ? *bytes : wire::Bytes{};
  }
  const pmix_bfrops_module_t* codec_ = nullptr;
  std::vector<ptl::Fd> no_fds_;
};

// A record with the image of a job of `size` procs on this node.
JobInfoRecord Record(const char* nspace, int nlocal, uint32_t size) {
  JobInfoRecord rec;
  rec.nspace = nspace;
  wire::Infos info;
  EXPECT_TRUE(info.Add(PMIX_JOB_SIZE, &size, PMIX_UINT32).ok());
  auto store = gds::Store::Create(gds::Default().value());
  EXPECT_TRUE(store.ok());
  if (!store.ok()) return rec;
  EXPECT_TRUE(jobinfo::Ingest(*store, nspace, nlocal, info.view(), {"node0"}).ok());
  rec.image = store->FindImage(nspace);
  return rec;
}

uint32_t JobSize(const JobInfoRecord& rec) {
  if (rec.image == nullptr) return 0;
  pmix_proc_t job;
  PMIx_Load_procid(&job, rec.nspace.c_str(), PMIX_RANK_WILDCARD);
  auto v = rec.image->FetchValue(job, gds::Where::Job(), PMIX_JOB_SIZE);
  return v.ok() ? (*v)->data.uint32 : 0;
}

TEST_F(ConnectSpawnWire, ConnectReplyCarriesJobInfoOnSuccess) {
  std::vector<JobInfoRecord> in;
  in.push_back(Record("parent", 2, 4));
  in.push_back(Record("child", 0, 3));
  wire::Bytes body =
      Body([&](wire::Writer& w) { ASSERT_TRUE(PackConnectReply(w, PMIX_SUCCESS, in, nullptr).ok()); });
  wire::Reader r(codec_, body);
  std::vector<JobInfoRecord> out;
  ASSERT_EQ(UnpackConnectReply(r, no_fds_, &out), PMIX_SUCCESS);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].nspace, "child");
  ASSERT_NE(out[1].image, nullptr);
  EXPECT_EQ(out[1].image->meta().nlocalprocs, 0);
  EXPECT_EQ(JobSize(out[1]), 3u);
  EXPECT_EQ(JobSize(out[0]), 4u);
  EXPECT_TRUE(r.AtEnd());
}

TEST_F(ConnectSpawnWire, AnImageOfAnotherNamespaceIsRefused) {
  std::vector<JobInfoRecord> in;
  in.push_back(Record("parent", 2, 4));
  in[0].nspace = "impostor";
  wire::Bytes body = Body(
      [&](wire::Writer& w) { ASSERT_TRUE(PackConnectReply(w, PMIX_SUCCESS, in, nullptr).ok()); });
  wire::Reader r(codec_, body);
  std::vector<JobInfoRecord> out;
  EXPECT_EQ(UnpackConnectReply(r, no_fds_, &out), PMIX_ERR_BAD_PARAM);
  EXPECT_TRUE(out.empty());
}

TEST_F(ConnectSpawnWire, FailedOrStatusOnlyRepliesHaveNoRecords) {
  std::vector<JobInfoRecord> in;
  in.push_back(Record("x", 1, 1));
  for (pmix_status_t st : {PMIX_ERR_TIMEOUT, PMIX_ERR_PROC_TERM_WO_SYNC, PMIX_ERR_NOT_SUPPORTED}) {
    wire::Bytes body =
        Body([&](wire::Writer& w) { ASSERT_TRUE(PackConnectReply(w, st, in, nullptr).ok()); });
    wire::Reader r(codec_, body);
    std::vector<JobInfoRecord> out;
    EXPECT_EQ(UnpackConnectReply(r, no_fds_, &out), st);
    EXPECT_TRUE(out.empty());
    EXPECT_TRUE(r.AtEnd());
  }
  // A server that does not know the message answers with a status only.
  wire::Bytes bare = Body([](wire::Writer& w) { w.Status(PMIX_SUCCESS); });
  wire::Reader r(codec_, bare);
  std::vector<JobInfoRecord> out;
  EXPECT_EQ(UnpackConnectReply(r, no_fds_, &out), PMIX_SUCCESS);
  EXPECT_TRUE(out.empty());
}

TEST_F(ConnectSpawnWire, TruncatedOrAbsurdConnectRepliesAreRefused) {
  std::vector<JobInfoRecord> in;
  in.push_back(Record("parent", 2, 4));
  wire::Bytes body =
      Body([&](wire::Writer& w) { ASSERT_TRUE(PackConnectReply(w, PMIX_SUCCESS, in, nullptr).ok()); });
  wire::Bytes cut(body.begin(), body.end() - 3);
  wire::Reader r(codec_, cut);
  std::vector<JobInfoRecord> out;
  EXPECT_NE(UnpackConnectReply(r, no_fds_, &out), PMIX_SUCCESS);
  wire::Bytes many = Body([](wire::Writer& w) { w.Status(PMIX_SUCCESS).U32(0xffffffffu); });
  wire::Reader r2(codec_, many);
  EXPECT_EQ(UnpackConnectReply(r2, no_fds_, &out), PMIX_ERR_UNPACK_FAILURE);
}

Apps TwoApps() {
  Apps apps(2);
  pmix_app_t* a = apps.data();
  a[0].cmd = strdup("/bin/true");
  a[0].argv = static_cast<char**>(calloc(3, sizeof(char*)));
  a[0].argv[0] = strdup("true");
  a[0].argv[1] = strdup("spawn-child");
  a[0].maxprocs = 2;
  PMIx_App_info_create(&a[0], 1);
  bool yes = true;
  PMIx_Info_load(&a[0].info[0], PMIX_SETUP_APP_ENVARS, &yes, PMIX_BOOL);
  a[1].cmd = strdup("other");
  a[1].cwd = strdup("/tmp");
  a[1].maxprocs = 1;
  return apps;
}

TEST_F(ConnectSpawnWire, AppsRoundTripThroughTheCodec) {
  Apps in = TwoApps();
  wire::Bytes body = Body([&](wire::Writer& w) { PackApps(w, in.view()); });
  wire::Reader r(codec_, body);
  auto out = UnpackApps(r);
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->size(), 2u);
  const pmix_app_t* a = out->data();
  EXPECT_STREQ(a[0].cmd, "/bin/true");
  ASSERT_NE(a[0].argv, nullptr);
  EXPECT_STREQ(a[0].argv[1], "spawn-child");
  EXPECT_EQ(a[0].argv[2], nullptr);
  EXPECT_EQ(a[0].maxprocs, 2);
  ASSERT_EQ(a[0].ninfo, 1u);
  EXPECT_STREQ(a[0].info[0].key, PMIX_SETUP_APP_ENVARS);
  EXPECT_STREQ(a[1].cwd, "/tmp");
  EXPECT_EQ(a[1].argv, nullptr);
  EXPECT_TRUE(r.AtEnd());
}

TEST_F(ConnectSpawnWire, TooManyOrTruncatedAppsAreRefused) {
  wire::Bytes many = Body([](wire::Writer& w) { w.U32(kMaxSpawnApps + 1); });
  wire::Reader r(codec_, many);
  EXPECT_EQ(UnpackApps(r).status().code(), PMIX_ERR_UNPACK_FAILURE);
  Apps in = TwoApps();
  wire::Bytes body = Body([&](wire::Writer& w) { PackApps(w, in.view()); });
  wire::Bytes cut(body.begin(), body.end() - 2);
  wire::Reader r2(codec_, cut);
  EXPECT_FALSE(UnpackApps(r2).ok());
}

TEST(SpawnApps, CopyIsDeepAndMovesTransferOwnership) {
  Apps original = TwoApps();
  auto copy = Apps::CopyOf(original.view());
  ASSERT_TRUE(copy.ok());
  ASSERT_EQ(copy->size(), 2u);
  EXPECT_NE(copy->data()[0].cmd, original.data()[0].cmd);
  EXPECT_STREQ(copy->data()[0].cmd, "/bin/true");
  Apps moved(std::move(*copy));
  EXPECT_EQ(copy->size(), 0u);
  EXPECT_EQ(copy->data(), nullptr);
  moved = std::move(original);  // frees what `moved` held
  EXPECT_EQ(moved.size(), 2u);
  EXPECT_EQ(original.size(), 0u);
  auto empty = Apps::CopyOf({});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->size(), 0u);
}

}  // namespace
}  // namespace pmix::server
