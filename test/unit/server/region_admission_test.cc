// Who is sent a descriptor of a namespace's job-data region (issue 10):
// only a client the server admitted -- registered, of the registered uid,
// with a valid credential -- and only one that can attach the server's
// regions. A connection that is refused (another uid, an unregistered
// rank) carries no descriptor; a client that said it cannot attach them
// (it chose PMIX_MCA_gds=hash in its own environment) gets the image's
// bytes inline in its welcome, as over TCP.
//
// Against a real server in this process and peers that speak the wire by
// hand (raw_peer.h), which see every descriptor a frame carries.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <string>

#include "mca/bfrops/base/bfrops_base.h"
#include "mca/gds/base/gds_base.h"
#include "pmix.h"
#include "pmix_server.h"
#include "src/wire/buffer.h"
#include "src/wire/job_image.h"
#include "test/unit/server/in_process_server.h"
#include "test/unit/server/raw_peer.h"

namespace pmix::server {
namespace {

using std::chrono::seconds;
using test_support::RawPeer;
using test_support::RunOp;

constexpr const char* kJob = "admit";

class RegionAdmission : public test_support::InProcessServer {
 protected:
  void SetUp() override {
    StartServer(false, {{PMIX_HOSTNAME, "n0"}});
    uint32_t size = 8;
    pmix_info_t job[4];
    PMIx_Info_load(&job[0], PMIX_JOB_SIZE, &size, PMIX_UINT32);
    PMIx_Info_load(&job[1], PMIX_NODE_MAP, "n0", PMIX_STRING);
    PMIx_Info_load(&job[2], PMIX_PROC_MAP, "0-7", PMIX_STRING);
    PMIx_Info_load(&job[3], "test.value", "admitted-only", PMIX_STRING);
    pmix_status_t rc = RunOp([&](pmix_op_cbfunc_t cb, void* cbdata) {
      return PMIx_server_register_nspace(kJob, 8, job, 4, cb, cbdata);
    });
    for (pmix_info_t& i : job) PMIx_Info_destruct(&i);
    ASSERT_EQ(rc, PMIX_SUCCESS);
    // Rank 1 belongs to another uid: this process's connection claiming it
    // is one of another user.
    for (pmix_rank_t r = 0; r < 8; ++r) {
      pmix_proc_t p;
      PMIx_Load_procid(&p, kJob, r);
      uid_t uid = ::getuid() + (r == 1 ? 1 : 0);
      ASSERT_EQ(RunOp([&](pmix_op_cbfunc_t cb, void* cbdata) {
                  return PMIx_server_register_client(&p, uid, ::getgid(), nullptr, cb, cbdata);
                }),
                PMIX_SUCCESS);
    }
    uri_ = test_support::ServerUri();
    ASSERT_FALSE(uri_.empty());
    auto regions = gds::RegionModule();
    ASSERT_TRUE(regions.ok());
    region_module_ = *regions;
  }

  // The status field of a hello's answer.
  static int StatusOf(const ptl::Frame& reply) {
    auto fields = wire::DecodeFields(reply.payload);
    return fields.ok() && !fields->empty() ? std::atoi((*fields)[0].c_str()) : -1;
  }

  // The image a welcome carries, as a client reads it (nullptr on error).
  static std::shared_ptr<const gds::Image> ImageOf(ptl::Frame& reply) {
    auto fields = wire::DecodeFields(reply.payload);
    if (!fields.ok() || fields->size() < 3) return nullptr;
    auto codec = bfrops::CodecByName((*fields)[1]);
    if (!codec.ok()) return nullptr;
    const std::string& body = (*fields)[2];
    wire::Reader r(*codec, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(body.data()),
                                                    body.size()));
    (void)r.Proc();
    (void)r.String();
    (void)r.I32();
    (void)r.String();
    auto image = wire::UnpackImage(r, reply.fds, kJob);
    return image.ok() ? *image : nullptr;
  }

  std::string uri_;
  const pmix_gds_module_t* region_module_ = nullptr;
};

TEST_F(RegionAdmission, OnlyAnAdmittedClientIsSentADescriptor) {
  if (region_module_ == nullptr || region_module_->region_attach == nullptr)
    GTEST_SKIP() << "no gds module with shared regions selected here";
  // Another uid's rank: refused, nothing attached to the refusal.
  {
    RawPeer other;
    ASSERT_TRUE(other.Connect(uri_));
    auto reply = other.HelloFrame(kJob, 1, std::chrono::seconds(10));
    ASSERT_TRUE(reply.has_value());
    EXPECT_NE(StatusOf(*reply), PMIX_SUCCESS);
    EXPECT_TRUE(reply->fds.empty());
  }
  // A rank the host never registered: the same.
  {
    RawPeer unknown;
    ASSERT_TRUE(unknown.Connect(uri_));
    auto reply = unknown.HelloFrame(kJob, 9, std::chrono::seconds(10));
    ASSERT_TRUE(reply.has_value());
    EXPECT_NE(StatusOf(*reply), PMIX_SUCCESS);
    EXPECT_TRUE(reply->fds.empty());
  }
  // The admitted client: the region's descriptor, mapped as it came.
  RawPeer mine;
  ASSERT_TRUE(mine.Connect(uri_));
  auto reply = mine.HelloFrame(kJob, 0, std::chrono::seconds(10));
  ASSERT_TRUE(reply.has_value());
  ASSERT_EQ(StatusOf(*reply), PMIX_SUCCESS);
  ASSERT_EQ(reply->fds.size(), 1u);
  auto image = ImageOf(*reply);
  ASSERT_NE(image, nullptr);
  EXPECT_EQ(image->region().medium(), region_module_->name);
}

// A client that says which regions it attaches: the server's module, a
// descriptor; none (or another module only), the bytes inline.
TEST_F(RegionAdmission, AClientThatCannotAttachTheRegionGetsTheBytesInline) {
  if (region_module_ == nullptr || region_module_->region_attach == nullptr)
    GTEST_SKIP() << "no gds module with shared regions selected here";
  struct Case {
    std::optional<std::string> regions;
    bool descriptor;
  };
  const Case cases[] = {{std::string(region_module_->name), true},
                        {std::string("other,") + region_module_->name, true},
                        {std::nullopt, true},  // not said: as before
                        {std::string(""), false},
                        {std::string("other"), false}};
  pmix_rank_t rank = 2;  // a rank of this uid per connection
  for (const Case& c : cases) {
    SCOPED_TRACE(c.regions.value_or("(not said)"));
    RawPeer peer;
    ASSERT_TRUE(peer.Connect(uri_));
    auto reply = peer.HelloFrame(kJob, rank++, std::chrono::seconds(10), c.regions);
    ASSERT_TRUE(reply.has_value());
    ASSERT_EQ(StatusOf(*reply), PMIX_SUCCESS);
    EXPECT_EQ(reply->fds.size(), c.descriptor ? 1u : 0u);
    auto image = ImageOf(*reply);
    ASSERT_NE(image, nullptr);
    EXPECT_EQ(image->region().medium(), c.descriptor ? region_module_->name : "heap");
    // The same answers either way.
    pmix_proc_t job;
    PMIx_Load_procid(&job, kJob, PMIX_RANK_WILDCARD);
    auto value = image->FetchValue(job, gds::Where::Job(), "test.value");
    ASSERT_TRUE(value.ok()) << value.status().code();
    ASSERT_EQ((*value)->type, PMIX_STRING);
    EXPECT_STREQ((*value)->data.string, "admitted-only");
  }
}

}  // namespace
}  // namespace pmix::server
