// Job-data images in message bodies (src/wire/job_image.h): the same image
// as a sealed-memfd descriptor (over a real Unix socketpair) and inline
// answers every realm and derived key the same; whatever a peer could send
// wrong -- unknown medium, bad descriptor references, descriptors that are
// not sealed regions of the announced size, truncated or corrupted bytes,
// an image of another namespace -- is refused with an error, and no
// descriptor is left open.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include <algorithm>

#include "mca/bfrops/base/bfrops_base.h"
#include "pmix.h"
#include "mca/gds/base/gds_base.h"
#include "mca/ptl/base/frame_io.h"
#include "src/jobinfo/jobinfo.h"
#include "src/wire/job_image.h"
#include "test/unit/ptl/fd_test_util.h"

namespace pmix::wire {
namespace {

using namespace std::chrono_literals;
using ptl::test::OpenFdCount;

constexpr const char* kNspace = "imagejob";

// A job of 8 ranks over two nodes, with session, app, node and proc data.
Infos Registration() {
  Infos infos;
  uint32_t size = 8, sid = 3, appnum = 0, nodeid = 1;
  EXPECT_TRUE(infos.Add(PMIX_JOB_SIZE, &size, PMIX_UINT32).ok());
  EXPECT_TRUE(infos.Add(PMIX_NODE_MAP, "n0,n1", PMIX_STRING).ok());
  EXPECT_TRUE(infos.Add(PMIX_PROC_MAP, "0,1,2,3;4,5,6,7", PMIX_STRING).ok());
  EXPECT_TRUE(infos.Add(PMIX_SESSION_ID, &sid, PMIX_UINT32).ok());
  EXPECT_TRUE(infos.Add("custom.job", "job-value", PMIX_STRING).ok());
  Infos app;
  EXPECT_TRUE(app.Add(PMIX_APPNUM, &appnum, PMIX_UINT32).ok());
  EXPECT_TRUE(app.Add(PMIX_WDIR, "/tmp", PMIX_STRING).ok());
  Infos node;
  EXPECT_TRUE(node.Add(PMIX_NODEID, &nodeid, PMIX_UINT32).ok());
  EXPECT_TRUE(node.Add(PMIX_HOSTNAME, "n1", PMIX_STRING).ok());
  EXPECT_TRUE(node.Add("vendor.key", "x", PMIX_STRING).ok());
  for (const auto& [key, inner] : {std::pair{PMIX_APP_INFO_ARRAY, &app},
                                   std::pair{PMIX_NODE_INFO_ARRAY, &node}}) {
    pmix_data_array_t array{PMIX_INFO, inner->size(),
                            const_cast<pmix_info_t*>(inner->view().data())};
    EXPECT_TRUE(infos.Add(key, &array, PMIX_DATA_ARRAY).ok());
  }
  return infos;
}

class JobImageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto codec = bfrops::DefaultCodec();
    ASSERT_TRUE(codec.ok());
    codec_ = *codec;
    auto shmem = gds::ByName("shmem");
    if (!shmem.ok()) GTEST_SKIP() << "gds/shmem not available here";
    shmem_ = *shmem;
    int sv[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
    a_.Reset(sv[0]);
    b_.Reset(sv[1]);
  }

  // The registration's image in medium (nullptr: heap).
  std::shared_ptr<const gds::Image> Build(const pmix_gds_module_t* medium) {
    auto store = gds::Store::Create(gds::Default().value());
    EXPECT_TRUE(store.ok());
    Infos reg = Registration();
    EXPECT_TRUE(jobinfo::Ingest(*store, kNspace, 4, reg.view(), {"n0", medium}).ok());
    return store->FindImage(kNspace);
  }

  // Packs image as a peer on a Unix socket would get it (pass_fds) or
  // inline, sends the frame over the socketpair and unpacks what arrived.
  Result<std::shared_ptr<const gds::Image>> Transfer(const gds::Image* image, bool pass_fds,
                                                     std::string_view nspace = kNspace) {
    ptl::Frame frame{0, 40, 1, {}};
    Writer w(codec_);
    EXPECT_TRUE(PackImage(w, image, pass_fds ? &frame.fds : nullptr).ok());
    frame.payload = w.Take().value();
    return Deliver(std::move(frame), nspace);
  }

  Result<std::shared_ptr<const gds::Image>> Deliver(ptl::Frame frame, std::string_view nspace) {
    EXPECT_TRUE(ptl::SendFrame(a_.get(), frame, 5000ms).ok());
    ptl::FrameReader reader(64 << 20, ptl::kMaxFrameFds);
    auto got = ptl::RecvFrame(b_.get(), reader, 5000ms);
    EXPECT_TRUE(got.ok());
    if (!got.ok()) return got.status();
    Reader r(codec_, got->payload);
    return UnpackImage(r, got->fds, nspace);
  }

  // A body announcing `medium` with descriptor index/size, and fds.
  Result<std::shared_ptr<const gds::Image>> Forged(const char* medium, uint32_t index,
                                                   uint64_t size, std::vector<ptl::Fd> fds) {
    ptl::Frame frame{0, 40, 1, {}};
    Writer w(codec_);
    w.Str(medium).U32(index).U64(size);
    frame.payload = w.Take().value();
    frame.fds = std::move(fds);
    return Deliver(std::move(frame), kNspace);
  }

  const pmix_bfrops_module_t* codec_ = nullptr;
  const pmix_gds_module_t* shmem_ = nullptr;
  ptl::Fd a_, b_;
};

// Everything an image answers, as text: every instance of every realm
// (all keys), and each rank's derived keys one by one.
std::string Answers(const gds::Image& image) {
  std::string out;
  pmix_proc_t job;
  PMIx_Load_procid(&job, kNspace, PMIX_RANK_WILDCARD);
  auto text = [&](Result<gds::InfoArray> kvs) {
    if (!kvs.ok()) return std::string("error ") + std::to_string(kvs.status().code()) + "\n";
    std::vector<std::string> lines;
    for (const pmix_info_t& i : kvs->view()) {
      char* s = PMIx_Info_string(&i);
      lines.push_back(s != nullptr ? s : "(null)");
      free(s);
    }
    std::sort(lines.begin(), lines.end());
    std::string joined;
    for (const auto& l : lines) joined += l + "\n";
    return joined;
  };
  out += "JOB\n" + text(image.Fetch(job, gds::Where::Job(), ""));
  for (pmix_gds_realm_t realm : {PMIX_GDS_REALM_PROC, PMIX_GDS_REALM_APP, PMIX_GDS_REALM_NODE,
                                 PMIX_GDS_REALM_SESSION}) {
    auto ids = image.Instances(realm);
    out += "instances " + std::to_string(realm) + "\n" +
           text(ids.ok() ? image.Instances(realm) : Result<gds::InfoArray>(ids.status()));
    if (!ids.ok()) continue;
    for (const pmix_info_t& id : ids->view()) {
      pmix_proc_t proc = job;
      gds::Where where = gds::Where::Proc();
      if (realm == PMIX_GDS_REALM_PROC) proc.rank = id.value.data.rank;
      if (realm == PMIX_GDS_REALM_APP) where = gds::Where::App(id.value.data.uint32);
      if (realm == PMIX_GDS_REALM_SESSION) where = gds::Where::Session(id.value.data.uint32);
      if (realm == PMIX_GDS_REALM_NODE)
        where = id.value.type == PMIX_UINT32 ? gds::Where::NodeId(id.value.data.uint32)
                                             : gds::Where::Host(id.value.data.string);
      out += text(image.Fetch(proc, where, ""));
    }
  }
  for (pmix_rank_t rank = 0; rank < 9; ++rank) {
    pmix_proc_t proc = job;
    proc.rank = rank;
    for (const char* key : {PMIX_HOSTNAME, PMIX_NODEID, PMIX_LOCAL_RANK, PMIX_NODE_RANK,
                            PMIX_APPNUM, PMIX_APP_RANK, PMIX_GLOBAL_RANK})
      out += std::to_string(rank) + " " + text(image.Fetch(proc, gds::Where::Proc(), key));
  }
  return out;
}

TEST_F(JobImageTest, DescriptorAndInlineAnswerTheSame) {
  size_t before = OpenFdCount();
  {
    auto shared = Build(shmem_);
    auto heap = Build(nullptr);
    ASSERT_NE(shared, nullptr);
    ASSERT_NE(heap, nullptr);
    ASSERT_GE(shared->region().fd(), 0);
    EXPECT_LT(heap->region().fd(), 0);
    auto by_fd = Transfer(shared.get(), true);
    ASSERT_TRUE(by_fd.ok()) << by_fd.status().code();
    EXPECT_EQ((*by_fd)->region().medium(), "shmem");
    EXPECT_EQ((*by_fd)->region().bytes().data() == shared->region().bytes().data(), false);
    auto shared_inline = Transfer(shared.get(), false);  // e.g. a TCP peer of a shmem server
    auto heap_inline = Transfer(heap.get(), false);
    auto heap_offered_fds = Transfer(heap.get(), true);  // heap images always go inline
    ASSERT_TRUE(shared_inline.ok() && heap_inline.ok() && heap_offered_fds.ok());
    EXPECT_EQ((*heap_inline)->region().medium(), "heap");
    EXPECT_EQ((*heap_offered_fds)->region().medium(), "heap");
    std::string want = Answers(*heap);
    EXPECT_NE(want.find("n1"), std::string::npos);
    EXPECT_EQ(Answers(*shared), want);
    EXPECT_EQ(Answers(**by_fd), want);
    EXPECT_EQ(Answers(**shared_inline), want);
    EXPECT_EQ(Answers(**heap_inline), want);
  }
  EXPECT_EQ(OpenFdCount(), before) << "a region's descriptor or mapping owner leaked";
}

TEST_F(JobImageTest, NoImageIsNull) {
  auto none = Transfer(nullptr, true);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, nullptr);
}

TEST_F(JobImageTest, WhatAPeerCouldSendWrongIsRefusedAndLeaksNothing) {
  auto shared = Build(shmem_);
  ASSERT_NE(shared, nullptr);
  size_t size = shared->region().size();
  size_t before = OpenFdCount();
  auto dup = [&] { return ptl::Fd(::fcntl(shared->region().fd(), F_DUPFD_CLOEXEC, 0)); };
  auto one = [](ptl::Fd fd) {
    std::vector<ptl::Fd> v;
    v.push_back(std::move(fd));
    return v;
  };
  // Descriptor references.
  EXPECT_EQ(Forged("shmem", 0, size, {}).status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(Forged("shmem", 1, size, one(dup())).status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(Forged("nosuch", 0, size, one(dup())).status().code(), PMIX_ERR_NOT_SUPPORTED);
  // Not a sealed region of the announced size.
  EXPECT_EQ(Forged("shmem", 0, size + 4096, one(dup())).status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(Forged("shmem", 0, size - 1, one(dup())).status().code(), PMIX_ERR_BAD_PARAM);
  int unsealed = ::memfd_create("unsealed", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  ASSERT_GE(unsealed, 0);
  ASSERT_EQ(::ftruncate(unsealed, static_cast<off_t>(size)), 0);
  EXPECT_EQ(Forged("shmem", 0, size, one(ptl::Fd(unsealed))).status().code(), PMIX_ERR_BAD_PARAM);
  int pipe_fds[2];
  ASSERT_EQ(::pipe2(pipe_fds, O_CLOEXEC), 0);
  ::close(pipe_fds[1]);
  EXPECT_EQ(Forged("shmem", 0, size, one(ptl::Fd(pipe_fds[0]))).status().code(),
            PMIX_ERR_BAD_PARAM);
  // A descriptor used twice: the second reference finds it taken.
  {
    ptl::Frame frame{0, 40, 1, {}};
    Writer w(codec_);
    w.Str("shmem").U32(0).U64(size).Str("shmem").U32(0).U64(size);
    frame.payload = w.Take().value();
    frame.fds = one(dup());
    ASSERT_TRUE(ptl::SendFrame(a_.get(), frame, 5000ms).ok());
    ptl::FrameReader reader(1 << 20, ptl::kMaxFrameFds);
    auto got = ptl::RecvFrame(b_.get(), reader, 5000ms);
    ASSERT_TRUE(got.ok());
    Reader r(codec_, got->payload);
    EXPECT_TRUE(UnpackImage(r, got->fds, kNspace).ok());
    EXPECT_EQ(UnpackImage(r, got->fds, kNspace).status().code(), PMIX_ERR_BAD_PARAM);
  }
  // Another namespace's image.
  EXPECT_EQ(Transfer(shared.get(), true, "other").status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(Transfer(shared.get(), false, "other").status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(OpenFdCount(), before);
}

TEST_F(JobImageTest, TruncatedOrCorruptedInlineBytesAreRefused) {
  auto heap = Build(nullptr);
  ASSERT_NE(heap, nullptr);
  std::vector<uint8_t> bytes(heap->region().bytes().begin(), heap->region().bytes().end());
  auto inline_body = [&](std::span<const uint8_t> b) {
    Writer w(codec_);
    w.Str(kInlineImage).Blob(b);
    return w.Take().value();
  };
  std::vector<ptl::Fd> none;
  for (size_t len : {size_t{0}, size_t{1}, size_t{16}, bytes.size() / 2, bytes.size() - 1}) {
    Bytes body = inline_body(std::span<const uint8_t>(bytes.data(), len));
    Reader r(codec_, body);
    EXPECT_FALSE(UnpackImage(r, none, kNspace).ok()) << "truncated to " << len;
  }
  // A cut body (the blob's length says more than there is).
  Bytes whole = inline_body(bytes);
  Bytes cut(whole.begin(), whole.end() - 5);
  Reader rc(codec_, cut);
  EXPECT_FALSE(UnpackImage(rc, none, kNspace).ok());
  // Flipped bytes: refused or, where the image format cannot tell, still
  // answering without crashing (image.h validates every read).
  for (size_t at = 0; at < bytes.size(); at += std::max<size_t>(1, bytes.size() / 97)) {
    std::vector<uint8_t> bad = bytes;
    bad[at] ^= 0xA5;
    Bytes body = inline_body(bad);
    Reader r(codec_, body);
    auto image = UnpackImage(r, none, kNspace);
    if (image.ok() && *image != nullptr) (void)Answers(**image);
  }
  // The header's magic: always refused.
  std::vector<uint8_t> bad = bytes;
  bad[0] ^= 0xFF;
  Bytes body = inline_body(bad);
  Reader r(codec_, body);
  EXPECT_FALSE(UnpackImage(r, none, kNspace).ok());
}

// A sealed memory file of the announced size whose bytes are not a valid
// image -- a truncated image (a segment cut short), a corrupted header, or
// flipped bytes anywhere -- passes the region checks but not the image's:
// an error, never a crash, and no descriptor or mapping left.
TEST_F(JobImageTest, ASealedRegionOfTruncatedOrCorruptedBytesIsRefused) {
  auto heap = Build(nullptr);
  ASSERT_NE(heap, nullptr);
  std::vector<uint8_t> bytes(heap->region().bytes().begin(), heap->region().bytes().end());
  auto sealed = [](std::span<const uint8_t> b) {
    int fd = ::memfd_create("forged", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(::write(fd, b.data(), b.size()), static_cast<ssize_t>(b.size()));
    EXPECT_EQ(::fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL),
              0);
    std::vector<ptl::Fd> v;
    v.push_back(ptl::Fd(fd));
    return v;
  };
  size_t before = OpenFdCount();
  // The whole image, sealed by hand: accepted (the forgery is sound).
  {
    auto whole = Forged("shmem", 0, bytes.size(), sealed(bytes));
    ASSERT_TRUE(whole.ok()) << whole.status().code();
    EXPECT_EQ(Answers(**whole), Answers(*heap));
  }
  for (size_t len : {size_t{1}, size_t{16}, bytes.size() / 2, bytes.size() - 1}) {
    auto cut = Forged("shmem", 0, len, sealed(std::span<const uint8_t>(bytes.data(), len)));
    EXPECT_FALSE(cut.ok()) << "truncated to " << len;
  }
  std::vector<uint8_t> bad = bytes;
  bad[0] ^= 0xFF;
  EXPECT_FALSE(Forged("shmem", 0, bad.size(), sealed(bad)).ok()) << "bad magic";
  for (size_t at = 0; at < bytes.size(); at += std::max<size_t>(1, bytes.size() / 61)) {
    bad = bytes;
    bad[at] ^= 0x5A;
    auto image = Forged("shmem", 0, bad.size(), sealed(bad));
    if (image.ok() && *image != nullptr) (void)Answers(**image);
  }
  EXPECT_EQ(OpenFdCount(), before);
}

}  // namespace
}  // namespace pmix::wire
