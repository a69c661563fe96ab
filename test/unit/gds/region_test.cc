// mca/gds/base/region.h: Region and RegionBuilder over the heap and over
// the selected module with shared regions (shmem where memfds seal).
#include "mca/gds/base/region.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "mca/gds/base/gds_base.h"
#include "test/unit/gds/region_test_util.h"

namespace pmix::gds {
namespace {

using test::HasPattern;
using test::Pattern;

void FillBuilder(RegionBuilder& builder) {
  std::span<uint8_t> bytes = builder.bytes();
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = Pattern(i);
}

TEST(GdsRegionModule, IsShmemWhereMemfdsSeal) {
  auto module = RegionModule();
  ASSERT_TRUE(module.ok());
  if (!test::MemfdSealingWorks()) GTEST_SKIP() << "no memfd sealing here";
  ASSERT_NE(*module, nullptr);
  EXPECT_STREQ((*module)->name, "shmem");
  EXPECT_EQ((*module)->create, nullptr) << "shmem keeps no store";
  auto store = Default();
  ASSERT_TRUE(store.ok());
  EXPECT_STREQ((*store)->name, "hash") << "the store stays hash's";
}

// PMIX_MCA_gds=hash leaves no module with regions: images go to the heap.
// (A fresh process: the framework of this one is already open.)
TEST(GdsRegionModuleDeathTest, HashOnlySelectionHasNone) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ::setenv("PMIX_MCA_gds", "hash", 1);
        auto module = RegionModule();
        std::_Exit(module.ok() && *module == nullptr ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

// A module whose seal fails after taking the mapping away, keeping its
// descriptor in module_data only (as shmem does when the sealed region
// cannot be mapped again): the Region must still release it.
int g_toy_released = 0;
pmix_status_t ToyCreate(size_t size, pmix_gds_region_t* r) {
  *r = {std::calloc(1, size), size, -1, &g_toy_released};
  return PMIX_SUCCESS;
}
pmix_status_t ToySealFails(pmix_gds_region_t* r) {
  std::free(r->base);
  r->base = nullptr;
  return PMIX_ERR_NOMEM;
}
void ToyRelease(pmix_gds_region_t* r) {
  if (r->module_data != nullptr) ++g_toy_released;
  std::free(r->base);
  *r = {nullptr, 0, -1, nullptr};
}
const pmix_gds_module_t kToy = {"toy", false, nullptr, nullptr, nullptr, nullptr, nullptr,
                                nullptr, nullptr, ToyCreate, ToySealFails, nullptr, ToyRelease,
                                nullptr, nullptr};

TEST(GdsRegion, AFailedSealIsReleasedThroughTheModule) {
  g_toy_released = 0;
  {
    auto builder = RegionBuilder::Create(&kToy, 64);
    ASSERT_TRUE(builder.ok());
    auto sealed = std::move(*builder).Seal();
    EXPECT_EQ(sealed.status().code(), PMIX_ERR_NOMEM);
  }
  EXPECT_EQ(g_toy_released, 1);
}

TEST(GdsRegion, HeapRegionsAreFilledSealedAndCopied) {
  EXPECT_EQ(RegionBuilder::Create(nullptr, 0).status().code(), PMIX_ERR_BAD_PARAM);
  auto builder = RegionBuilder::Create(nullptr, 1000);
  ASSERT_TRUE(builder.ok());
  for (uint8_t b : builder->bytes()) ASSERT_EQ(b, 0);
  FillBuilder(*builder);
  auto region = std::move(*builder).Seal();
  ASSERT_TRUE(region.ok());
  EXPECT_EQ(region->size(), 1000u);
  EXPECT_EQ(region->fd(), -1);
  EXPECT_EQ(region->module(), nullptr);
  EXPECT_EQ(region->medium(), "heap");
  EXPECT_TRUE(HasPattern(region->bytes().data(), region->size()));
  auto copy = Region::Copy(region->bytes());
  ASSERT_TRUE(copy.ok());
  EXPECT_NE(copy->bytes().data(), region->bytes().data());
  EXPECT_TRUE(HasPattern(copy->bytes().data(), copy->size()));
  auto empty = Region::Copy({});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->size(), 0u);
}

TEST(GdsRegion, SharedRegionsAreAttachedByDescriptor) {
  auto module = RegionModule();
  ASSERT_TRUE(module.ok());
  if (*module == nullptr) GTEST_SKIP() << "no module with regions selected";
  size_t fds = test::OpenFdCount();
  {
    auto builder = RegionBuilder::Create(*module, 70000);
    ASSERT_TRUE(builder.ok());
    FillBuilder(*builder);
    auto made = std::move(*builder).Seal();
    ASSERT_TRUE(made.ok());
    EXPECT_EQ(made->medium(), "shmem");
    ASSERT_GE(made->fd(), 0);
    auto seen = Region::Attach(*module, ::dup(made->fd()), made->size());
    ASSERT_TRUE(seen.ok()) << seen.status().code();
    EXPECT_EQ(seen->module(), *module);
    EXPECT_TRUE(HasPattern(seen->bytes().data(), seen->size()));
    EXPECT_EQ(Region::Attach(*module, ::dup(made->fd()), made->size() + 1).status().code(),
              PMIX_ERR_BAD_PARAM);
    // Moves transfer the mapping; the moved-from region owns nothing.
    Region moved = std::move(*seen);
    EXPECT_TRUE(HasPattern(moved.bytes().data(), moved.size()));
    Region assigned;
    assigned = std::move(moved);
    EXPECT_EQ(moved.size(), 0u);
    EXPECT_TRUE(HasPattern(assigned.bytes().data(), assigned.size()));
  }
  EXPECT_EQ(test::OpenFdCount(), fds);
}

TEST(GdsRegion, AttachWithoutSharedRegionsIsNotSupportedAndClosesTheDescriptor) {
  size_t fds = test::OpenFdCount();
  EXPECT_EQ(Region::Attach(nullptr, ::dup(0), 10).status().code(), PMIX_ERR_NOT_SUPPORTED);
  auto hash = ByName("hash");
  ASSERT_TRUE(hash.ok());
  EXPECT_EQ(Region::Attach(*hash, ::dup(0), 10).status().code(), PMIX_ERR_NOT_SUPPORTED);
  // A builder in a module without regions lives on the heap.
  auto builder = RegionBuilder::Create(*hash, 10);
  ASSERT_TRUE(builder.ok());
  auto region = std::move(*builder).Seal();
  ASSERT_TRUE(region.ok());
  EXPECT_EQ(region->medium(), "heap");
  EXPECT_EQ(test::OpenFdCount(), fds);
}

}  // namespace
}  // namespace pmix::gds
