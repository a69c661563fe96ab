// Records inline and in sealed regions (src/wire/proc_data_region.h): the
// round trips, regions outliving their maker, and refusal of every bad
// announcement (wrong, missing or reused descriptor, too many regions,
// unsealed memfd, wrong size, unknown medium, nothing announced, cut
// fields) and of truncated or corrupt records in a region.
#include "src/wire/proc_data_region.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "mca/bfrops/base/bfrops_base.h"
#include "mca/gds/base/gds_base.h"
#include "mca/ptl/base/frame.h"
#include "pmix.h"
#include "src/wire/proc_data.h"

namespace pmix::wire {
namespace {

class ProcDataRegionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto codec = bfrops::DefaultCodec();
    ASSERT_TRUE(codec.ok());
    codec_ = *codec;
    auto module = gds::RegionModule();
    ASSERT_TRUE(module.ok());
    module_ = *module;
    // Two records: rank 1 with a 100 KiB blob, rank 2 with a string.
    std::string big(100 << 10, 'b');
    pmix_byte_object_t bo{big.data(), big.size()};
    Infos one;
    ASSERT_TRUE(one.Add("blob", &bo, PMIX_BYTE_OBJECT).ok());
    pmix_proc_t p;
    PMIx_Load_procid(&p, "ns", 1);
    ASSERT_TRUE(AppendRecord(codec_, p, one.view(), records_).ok());
    Infos two;
    ASSERT_TRUE(two.Add("k", "two", PMIX_STRING).ok());
    PMIx_Load_procid(&p, "ns", 2);
    ASSERT_TRUE(AppendRecord(codec_, p, two.view(), records_).ok());
  }
  // A sealed region holding bytes (nullptr when no module shares regions).
  std::unique_ptr<gds::Region> Sealed(std::span<const uint8_t> bytes) {
    if (module_ == nullptr) return nullptr;
    auto builder = gds::RegionBuilder::Create(module_, bytes.size());
    EXPECT_TRUE(builder.ok());
    if (!builder.ok()) return nullptr;
    std::memcpy(builder->bytes().data(), bytes.data(), bytes.size());
    auto region = std::move(*builder).Seal();
    EXPECT_TRUE(region.ok());
    if (!region.ok()) return nullptr;
    return std::make_unique<gds::Region>(std::move(*region));
  }
  // A reply as the server sends it: a status, then pack's fields (and
  // tail, the inline records).
  std::shared_ptr<const Bytes> Reply(const std::function<void(Writer&)>& pack, std::span<const uint8_t> tail = {}) {
    Writer w(codec_);
    w.Status(PMIX_SUCCESS);
    pack(w);
    auto body = w.Take();
    EXPECT_TRUE(body.ok());
    Bytes out = body.ok() ? std::move(*body) : Bytes();
    out.insert(out.end(), tail.begin(), tail.end());
    return std::make_shared<const Bytes>(std::move(out));
  }
  // Reads the status, then the records.
  // Reads the status, then the records (*inline_parts: how many of them
  // came inline).
  Result<std::vector<SharedBytes>> Unpack(const std::shared_ptr<const Bytes>& payload,
                                          std::vector<ptl::Fd>& fds, size_t* inline_parts = nullptr) {
    Reader r(codec_, *payload);
    EXPECT_EQ(r.Status(), PMIX_SUCCESS);
    return UnpackRecords(r, payload, fds, nullptr, inline_parts);
  }
  static ptl::Fd Dup(int fd) { return ptl::Fd(::fcntl(fd, F_DUPFD_CLOEXEC, 0)); }
  void NeedRegions() {
    if (module_ == nullptr) GTEST_SKIP() << "no gds module with shared regions here";
  }

  const pmix_bfrops_module_t* codec_ = nullptr;
  const pmix_gds_module_t* module_ = nullptr;
  Bytes records_;
};

std::vector<uint8_t> Concat(const std::vector<SharedBytes>& parts) {
  std::vector<uint8_t> out;
  for (const SharedBytes& p : parts) out.insert(out.end(), p.bytes().begin(), p.bytes().end());
  return out;
}

TEST_F(ProcDataRegionTest, InlineRecordsAreTheRestOfTheBody) {
  auto payload = Reply([](Writer& w) { ASSERT_TRUE(PackRecords(w, std::span<const RegionRecords>()).ok()); }, records_);
  std::vector<ptl::Fd> none;
  size_t inline_parts = 9;
  auto got = Unpack(payload, none, &inline_parts);
  ASSERT_TRUE(got.ok()) << PMIx_Error_string(got.status().code());
  ASSERT_EQ(got->size(), 1u);
  EXPECT_EQ(inline_parts, 1u);
  EXPECT_EQ(Concat(*got), records_);
  auto refs = IndexRecords((*got)[0].bytes());
  ASSERT_TRUE(refs.ok());
  EXPECT_EQ(refs->size(), 2u);
  // The bytes keep the payload alive.
  std::weak_ptr<const Bytes> weak = payload;
  payload.reset();
  EXPECT_FALSE(weak.expired());
}

TEST_F(ProcDataRegionTest, NoRecordsIsEmpty) {
  auto payload = Reply([](Writer&) {});
  std::vector<ptl::Fd> none;
  size_t inline_parts = 9;
  auto got = Unpack(payload, none, &inline_parts);
  ASSERT_TRUE(got.ok());
  EXPECT_TRUE(got->empty());
  EXPECT_EQ(inline_parts, 0u);
}

TEST_F(ProcDataRegionTest, AnnouncingNothingIsRefused) {
  auto payload = Reply([](Writer& w) { ASSERT_TRUE(PackRecords(w, std::span<const RegionRecords>()).ok()); });
  std::vector<ptl::Fd> none;
  EXPECT_EQ(Unpack(payload, none).status().code(), PMIX_ERR_BAD_PARAM);
}

TEST_F(ProcDataRegionTest, RegionsAndInlineRecordsRoundTripAndOutliveTheirMaker) {
  NeedRegions();
  // Record one in a region, record two in another, a copy of both inline.
  auto refs = IndexRecords(records_);
  ASSERT_TRUE(refs.ok());
  auto first = Sealed((*refs)[0].Record(records_));
  auto second = Sealed((*refs)[1].Record(records_));
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  const gds::Region* regions[] = {first.get(), second.get()};
  auto payload = Reply([&](Writer& w) { ASSERT_TRUE(PackRecords(w, regions).ok()); }, records_);
  std::vector<ptl::Fd> fds;
  fds.push_back(Dup(first->fd()));
  fds.push_back(Dup(second->fd()));
  first.reset();  // the maker is gone: the descriptors hold the memory
  second.reset();
  size_t inline_parts = 9;
  auto got = Unpack(payload, fds, &inline_parts);
  ASSERT_TRUE(got.ok()) << PMIx_Error_string(got.status().code());
  EXPECT_EQ(inline_parts, 1u);
  EXPECT_FALSE(fds[0].valid()) << "the descriptors are taken";
  EXPECT_FALSE(fds[1].valid());
  ASSERT_EQ(got->size(), 3u);  // inline, then each region
  EXPECT_EQ(std::vector<uint8_t>((*got)[0].bytes().begin(), (*got)[0].bytes().end()), records_);
  Bytes both = Concat(std::vector<SharedBytes>(got->begin() + 1, got->end()));
  EXPECT_EQ(both, records_);
  auto in_region = IndexRecords((*got)[2].bytes());
  ASSERT_TRUE(in_region.ok());
  ASSERT_EQ(in_region->size(), 1u);
  auto kvs = DecodeKvs(codec_, (*in_region)[0].Kvs((*got)[2].bytes()));
  ASSERT_TRUE(kvs.ok());
  EXPECT_STREQ(kvs->view()[0].value.data.string, "two");
}

TEST_F(ProcDataRegionTest, OnlyShareableRegionsCanBeAnnounced) {
  auto heap = gds::Region::Copy(records_);
  ASSERT_TRUE(heap.ok());
  Writer w(codec_);
  const gds::Region* on_heap[] = {&*heap};
  EXPECT_EQ(PackRecords(w, on_heap).code(), PMIX_ERR_NOT_SUPPORTED);
  const gds::Region* none[] = {nullptr};
  EXPECT_EQ(PackRecords(w, none).code(), PMIX_ERR_NOT_SUPPORTED);
  if (auto region = Sealed(records_)) {
    const gds::Region* one[] = {region.get()};
    EXPECT_EQ(PackRecords(w, one, ptl::kMaxFrameFds).code(), PMIX_ERR_BAD_PARAM);
    EXPECT_TRUE(PackRecords(w, one, ptl::kMaxFrameFds - 1).ok());
  }
}

TEST_F(ProcDataRegionTest, BadAnnouncementsAreRefused) {
  NeedRegions();
  auto region = Sealed(records_);
  ASSERT_NE(region, nullptr);
  const uint64_t size = records_.size();
  auto announce = [&](const char* medium, uint32_t index, uint64_t bytes) {
    return Reply([=](Writer& w) { w.U32(1).String(medium).U32(index).U64(0).U64(bytes).U32(1).U64(0).U64(size); });
  };
  auto extents = [&](std::vector<std::pair<uint64_t, uint64_t>> list) {
    return Reply([=](Writer& w) {
      w.U32(1).String("shmem").U32(0).U64(0).U64(size).U32(static_cast<uint32_t>(list.size()));
      for (auto [offset, length] : list) w.U64(offset).U64(length);
    });
  };
  struct Case {
    const char* what;
    std::shared_ptr<const Bytes> payload;
    size_t nfds;
    pmix_status_t expect;
  };
  std::vector<Case> cases = {
      {"index past the frame's descriptors", announce("shmem", 1, size), 1, PMIX_ERR_BAD_PARAM},
      {"no descriptor at all", announce("shmem", 0, size), 0, PMIX_ERR_BAD_PARAM},
      {"a size other than the region's", announce("shmem", 0, size - 1), 1, PMIX_ERR_BAD_PARAM},
      {"a larger size", announce("shmem", 0, size + 4096), 1, PMIX_ERR_BAD_PARAM},
      {"a size of 0", announce("shmem", 0, 0), 1, PMIX_ERR_BAD_PARAM},
      {"an unknown medium", announce("nosuch", 0, size), 1, PMIX_ERR_NOT_SUPPORTED},
      {"a module without regions", announce("hash", 0, size), 1, PMIX_ERR_NOT_SUPPORTED},
      {"one descriptor for two regions",
       Reply([&](Writer& w) {
         w.U32(2).String("shmem").U32(0).U64(0).U64(size).U32(1).U64(0).U64(size);
         w.String("shmem").U32(0).U64(0).U64(size).U32(1).U64(0).U64(size);
       }),
       2, PMIX_ERR_BAD_PARAM},
      {"more regions than descriptors",
       Reply([&](Writer& w) {
         w.U32(2).String("shmem").U32(0).U64(0).U64(size).U32(1).U64(0).U64(size);
         w.String("shmem").U32(1).U64(0).U64(size).U32(1).U64(0).U64(size);
       }),
       1, PMIX_ERR_BAD_PARAM},
      {"a kept region, with no cache to keep it",
       Reply([&](Writer& w) { w.U32(1).String("shmem").U32(kKept).U64(5).U64(size).U32(1).U64(0).U64(size); }), 0,
       PMIX_ERR_BAD_PARAM},
      {"no extent", extents({}), 1, PMIX_ERR_BAD_PARAM},
      {"an empty extent", extents({{0, 0}}), 1, PMIX_ERR_BAD_PARAM},
      {"an extent past the end", extents({{1, size}}), 1, PMIX_ERR_BAD_PARAM},
      {"an extent starting past the end", extents({{size + 1, 1}}), 1, PMIX_ERR_BAD_PARAM},
      {"an extent wrapping around", extents({{8, UINT64_MAX - 4}}), 1, PMIX_ERR_BAD_PARAM},

      {"more regions than a frame carries",
       Reply([&](Writer& w) { w.U32(static_cast<uint32_t>(ptl::kMaxFrameFds + 1)); }), 1, PMIX_ERR_BAD_PARAM},
  };
  for (Case& c : cases) {
    std::vector<ptl::Fd> fds;
    for (size_t i = 0; i < c.nfds; ++i) fds.push_back(Dup(region->fd()));
    auto got = Unpack(c.payload, fds);
    EXPECT_EQ(got.status().code(), c.expect) << c.what;
  }
  // More extents announced than the body holds, and cut fields: the
  // reader's error.
  {
    auto lie = Reply([&](Writer& w) { w.U32(1).String("shmem").U32(0).U64(0).U64(size).U32(1000).U64(0).U64(1); });
    std::vector<ptl::Fd> one_fd;
    one_fd.push_back(Dup(region->fd()));
    EXPECT_FALSE(Unpack(lie, one_fd).ok());
  }
  auto cut = Reply([&](Writer& w) { w.U32(1).String("shmem").U32(0).U64(0).U64(size).U32(1).U64(0); });
  std::vector<ptl::Fd> fds;
  fds.push_back(Dup(region->fd()));
  EXPECT_FALSE(Unpack(cut, fds).ok());
}

TEST_F(ProcDataRegionTest, AnUnsealedMemfdIsRefused) {
  NeedRegions();
  int raw = ::memfd_create("unsealed", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  ASSERT_GE(raw, 0);
  ptl::Fd memfd(raw);
  ASSERT_EQ(::ftruncate(memfd.get(), static_cast<off_t>(records_.size())), 0);
  ASSERT_EQ(::pwrite(memfd.get(), records_.data(), records_.size(), 0),
            static_cast<ssize_t>(records_.size()));
  auto payload = Reply([&](Writer& w) {
    w.U32(1).String("shmem").U32(0).U64(0).U64(records_.size()).U32(1).U64(0).U64(records_.size());
  });
  std::vector<ptl::Fd> fds;
  fds.push_back(Dup(memfd.get()));
  EXPECT_EQ(Unpack(payload, fds).status().code(), PMIX_ERR_BAD_PARAM);
  // Sealed against writing only: still refused (it could shrink under the reader).
  ASSERT_EQ(::fcntl(memfd.get(), F_ADD_SEALS, F_SEAL_WRITE), 0);
  fds.clear();
  fds.push_back(Dup(memfd.get()));
  EXPECT_EQ(Unpack(payload, fds).status().code(), PMIX_ERR_BAD_PARAM);
}

TEST_F(ProcDataRegionTest, TruncatedOrCorruptRecordsInARegionAreRefusedByTheirReader) {
  NeedRegions();
  auto region_of = [&](std::span<const uint8_t> bytes) -> Result<std::vector<SharedBytes>> {
    auto region = Sealed(bytes);
    if (region == nullptr) return Status(PMIX_ERROR);
    const gds::Region* one[] = {region.get()};
    auto payload = Reply([&](Writer& w) { ASSERT_TRUE(PackRecords(w, one).ok()); });
    std::vector<ptl::Fd> fds;
    fds.push_back(Dup(region->fd()));
    return Unpack(payload, fds);
  };
  auto cut = region_of(std::span<const uint8_t>(records_).first(records_.size() / 2));
  ASSERT_TRUE(cut.ok());
  EXPECT_FALSE(IndexRecords((*cut)[0].bytes()).ok());
  Bytes junk(4096, 0xff);
  auto bad = region_of(junk);
  ASSERT_TRUE(bad.ok());
  EXPECT_FALSE(IndexRecords((*bad)[0].bytes()).ok());
}

// A published region (server/modex_arena.h): its maker goes on appending
// through its own mapping; a reply names records by extents in it; the
// reader maps it once (RegionCache) and sees later appends through the
// same mapping, and cannot write it.
TEST_F(ProcDataRegionTest, ExtentsOfAPublishedRegionAreMappedOncePerFile) {
  NeedRegions();
  if (module_->region_publish == nullptr) GTEST_SKIP() << "the module cannot publish regions";
  auto refs = IndexRecords(records_);
  ASSERT_TRUE(refs.ok());
  auto builder = gds::RegionBuilder::Create(module_, size_t{1} << 20);
  ASSERT_TRUE(builder.ok());
  if (!builder->Publish().ok()) GTEST_SKIP() << "this kernel cannot publish regions";
  ASSERT_GE(builder->fd(), 0);
  EXPECT_EQ(::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, builder->fd(), 0), MAP_FAILED)
      << "nobody else maps a published region writable";
  const char byte = 'x';
  EXPECT_EQ(::pwrite(builder->fd(), &byte, 1, 0), -1) << "nor writes it";
  EXPECT_EQ(::ftruncate(builder->fd(), 4096), -1) << "nor shrinks it";
  // Record two at 4096, record one at 8192 (apart: two extents).
  const RecordRef& one = (*refs)[0];
  const RecordRef& two = (*refs)[1];
  std::memcpy(builder->bytes().data() + 4096, records_.data() + two.offset, two.size);
  std::memcpy(builder->bytes().data() + 8192, records_.data() + one.offset, one.size);
  RegionRecords region{builder->fd(), 0, module_, builder->size(), {{4096, two.size}, {8192, one.size}}};
  auto payload = Reply([&](Writer& w) { ASSERT_TRUE(PackRecords(w, std::span<const RegionRecords>(&region, 1)).ok()); });
  RegionCache cache;
  std::vector<ptl::Fd> fds;
  fds.push_back(Dup(builder->fd()));
  auto got = [&] {
    Reader r(codec_, *payload);
    EXPECT_EQ(r.Status(), PMIX_SUCCESS);
    return UnpackRecords(r, payload, fds, &cache);
  }();
  ASSERT_TRUE(got.ok()) << PMIx_Error_string(got.status().code());
  ASSERT_EQ(got->size(), 2u);
  EXPECT_EQ(Bytes((*got)[0].bytes().begin(), (*got)[0].bytes().end()), Bytes(records_.begin() + two.offset, records_.begin() + two.offset + two.size));
  EXPECT_EQ(Bytes((*got)[1].bytes().begin(), (*got)[1].bytes().end()), Bytes(records_.begin() + one.offset, records_.begin() + one.offset + one.size));
  EXPECT_EQ(cache.size(), 1u);
  // The maker appends a record after the reader mapped the region; a
  // second reply names it: the same mapping serves it.
  std::memcpy(builder->bytes().data() + 65536, records_.data() + two.offset, two.size);
  RegionRecords later{builder->fd(), 0, module_, builder->size(), {{65536, two.size}}};
  auto payload2 = Reply([&](Writer& w) { ASSERT_TRUE(PackRecords(w, std::span<const RegionRecords>(&later, 1)).ok()); });
  fds.clear();
  fds.push_back(Dup(builder->fd()));
  Reader r2(codec_, *payload2);
  EXPECT_EQ(r2.Status(), PMIX_SUCCESS);
  auto got2 = UnpackRecords(r2, payload2, fds, &cache);
  ASSERT_TRUE(got2.ok()) << PMIx_Error_string(got2.status().code());
  ASSERT_EQ(got2->size(), 1u);
  EXPECT_EQ((*got2)[0].data.get() - (*got)[0].data.get(), 65536 - 4096) << "one mapping for both replies";
  EXPECT_EQ(cache.size(), 1u);
  auto kvs = DecodeKvs(codec_, std::span<const uint8_t>((*got2)[0].bytes()).subspan(two.kvs_offset - two.offset));
  ASSERT_TRUE(kvs.ok());
  EXPECT_STREQ(kvs->view()[0].value.data.string, "two");
  // The reader's view cannot be made writable.
  EXPECT_NE(::mprotect(const_cast<uint8_t*>((*got)[0].data.get()) - 4096, 4096, PROT_READ | PROT_WRITE), 0);
  // Once nothing refers to the mapping, the cache lets it go.
  got->clear();
  got2->clear();
  EXPECT_EQ(cache.size(), 0u);
  // The same file announced with another size is refused.
  RegionRecords lying{builder->fd(), 0, module_, builder->size() - 4096, {{0, 16}}};
  auto payload3 = Reply([&](Writer& w) { ASSERT_TRUE(PackRecords(w, std::span<const RegionRecords>(&lying, 1)).ok()); });
  fds.clear();
  fds.push_back(Dup(builder->fd()));
  Reader r3(codec_, *payload3);
  EXPECT_EQ(r3.Status(), PMIX_SUCCESS);
  EXPECT_EQ(UnpackRecords(r3, payload3, fds, &cache).status().code(), PMIX_ERR_BAD_PARAM);
}

// A region sent with a serial is kept under it when the receiver says
// so; a later reply names it by serial alone (no descriptor) until the
// receiver forgets it, and a serial once forgotten is never kept again.
TEST_F(ProcDataRegionTest, KeptRegionsAreNamedBySerialUntilForgotten) {
  NeedRegions();
  auto builder = gds::RegionBuilder::Create(module_, records_.size());
  ASSERT_TRUE(builder.ok());
  std::memcpy(builder->bytes().data(), records_.data(), records_.size());
  auto sealed = std::move(*builder).Seal();
  ASSERT_TRUE(sealed.ok());
  const uint64_t serial = 41;
  RegionRecords sent{sealed->fd(), serial, module_, sealed->size(), {{0, records_.size()}}};
  RegionCache cache;
  auto unpack = [&](const RegionRecords& region, std::vector<ptl::Fd>& fds, bool keep) {
    auto payload = Reply([&](Writer& w) { ASSERT_TRUE(PackRecords(w, std::span<const RegionRecords>(&region, 1)).ok()); });
    Reader r(codec_, *payload);
    EXPECT_EQ(r.Status(), PMIX_SUCCESS);
    return UnpackRecords(r, payload, fds, &cache, nullptr, keep);
  };
  RegionRecords named = sent;
  named.fd = -1;
  std::vector<ptl::Fd> none;
  // Not kept yet: naming it is refused.
  EXPECT_EQ(unpack(named, none, false).status().code(), PMIX_ERR_BAD_PARAM);
  {
    std::vector<ptl::Fd> fds;
    fds.push_back(Dup(sealed->fd()));
    auto got = unpack(sent, fds, /*keep=*/false);
    ASSERT_TRUE(got.ok()) << PMIx_Error_string(got.status().code());
    EXPECT_EQ(cache.kept(), 0u) << "kept only when the receiver says so";
    fds.push_back(Dup(sealed->fd()));
    fds.erase(fds.begin());
    got = unpack(sent, fds, /*keep=*/true);
    ASSERT_TRUE(got.ok()) << PMIx_Error_string(got.status().code());
    EXPECT_EQ(cache.kept(), 1u);
  }
  // Nothing else refers to the mapping now: the cache keeps it.
  auto got = unpack(named, none, false);
  ASSERT_TRUE(got.ok()) << PMIx_Error_string(got.status().code());
  EXPECT_EQ(Concat(*got), records_);
  // Named with another size, or by a serial never sent: refused.
  RegionRecords resized = named;
  resized.size -= 1;
  resized.extents = {{0, 1}};
  EXPECT_EQ(unpack(resized, none, false).status().code(), PMIX_ERR_BAD_PARAM);
  RegionRecords unknown = named;
  unknown.serial = serial + 1;
  EXPECT_EQ(unpack(unknown, none, false).status().code(), PMIX_ERR_BAD_PARAM);
  // Without a cache there is nothing to name.
  {
    auto payload = Reply([&](Writer& w) { ASSERT_TRUE(PackRecords(w, std::span<const RegionRecords>(&named, 1)).ok()); });
    EXPECT_EQ(Unpack(payload, none).status().code(), PMIX_ERR_BAD_PARAM);
  }
  // Forgotten: the mapping goes with what still refers to it, and a late
  // reply carrying the region again does not bring it back.
  cache.Forget(serial);
  EXPECT_EQ(cache.kept(), 0u);
  EXPECT_EQ(unpack(named, none, false).status().code(), PMIX_ERR_BAD_PARAM);
  std::vector<ptl::Fd> fds;
  fds.push_back(Dup(sealed->fd()));
  EXPECT_TRUE(unpack(sent, fds, /*keep=*/true).ok());
  EXPECT_EQ(cache.kept(), 0u);
}

TEST_F(ProcDataRegionTest, ExtentsMustLieInTheirRegion) {
  Writer w(codec_);
  pmix_gds_module_t fake{};
  fake.name = "shmem";
  std::vector<RegionRecords> bad = {
      {3, 0, &fake, 100, {}},
      {3, 0, &fake, 100, {{0, 0}}},
      {3, 0, &fake, 100, {{50, 51}}},
      {3, 0, &fake, 100, {{101, 1}}},
  };
  for (const RegionRecords& region : bad)
    EXPECT_EQ(PackRecords(w, std::span<const RegionRecords>(&region, 1)).code(), PMIX_ERR_BAD_PARAM);
  RegionRecords no_fd{-1, 0, &fake, 100, {{0, 10}}};
  EXPECT_EQ(PackRecords(w, std::span<const RegionRecords>(&no_fd, 1)).code(), PMIX_ERR_NOT_SUPPORTED);
  RegionRecords by_serial{-1, 7, &fake, 100, {{0, 10}}};
  EXPECT_TRUE(PackRecords(w, std::span<const RegionRecords>(&by_serial, 1)).ok());
  RegionRecords good{3, 0, &fake, 100, {{0, 10}, {50, 50}}};
  EXPECT_TRUE(PackRecords(w, std::span<const RegionRecords>(&good, 1)).ok());
}

}  // namespace
}  // namespace pmix::wire
