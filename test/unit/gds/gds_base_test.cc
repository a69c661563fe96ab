// The gds framework base: selection (Default, ByName) and the Store
// wrapper over the selected module.
#include <gtest/gtest.h>

#include <cstring>

#include "mca/gds/base/gds_base.h"
#include "test/unit/gds/gds_test_util.h"

namespace pmix::gds {
namespace {

using test::Infos;
using test::Proc;

TEST(GdsBase, DefaultIsHash) {
  auto module = Default();
  ASSERT_TRUE(module.ok()) << module.status().code();
  EXPECT_STREQ((*module)->name, "hash");
  auto by_name = ByName("hash");
  ASSERT_TRUE(by_name.ok());
  EXPECT_EQ(*by_name, *module);
  EXPECT_EQ(ByName("nosuch").status().code(), PMIX_ERR_NOT_FOUND);
}

// What a client tells its server it can attach: the selected modules with
// shared regions, the region module first; never a module without them.
TEST(GdsBase, AttachableModulesAreTheSelectedOnesWithRegions) {
  auto names = AttachableModules();
  ASSERT_TRUE(names.ok()) << names.status().code();
  auto regions = RegionModule();
  ASSERT_TRUE(regions.ok());
  if (*regions == nullptr) {
    EXPECT_TRUE(names->empty());
  } else {
    ASSERT_FALSE(names->empty());
    EXPECT_EQ(names->front(), (*regions)->name);
  }
  for (const std::string& name : *names) {
    auto module = ByName(name);
    ASSERT_TRUE(module.ok()) << name;
    EXPECT_NE((*module)->region_attach, nullptr) << name;
  }
  for (const std::string& name : *names) EXPECT_NE(name, "hash");
}

TEST(GdsBase, StoreWrapperRoundTrips) {
  auto module = Default();
  ASSERT_TRUE(module.ok());
  auto created = Store::Create(*module);
  ASSERT_TRUE(created.ok());
  Store store = std::move(*created);
  const pmix_proc_t p0 = Proc("wrap", 0);

  Infos job;
  job.U32(PMIX_JOB_SIZE, 2);
  ASSERT_TRUE(store.Put(p0, Where::Job(), PMIX_SCOPE_UNDEF, {job.data(), job.size()}).ok());
  pmix_value_t v;
  PMIx_Value_construct(&v);
  uint16_t lrank = 0;
  PMIx_Value_load(&v, &lrank, PMIX_UINT16);
  ASSERT_TRUE(store.PutValue(p0, Where::Proc(), PMIX_SCOPE_UNDEF, PMIX_LOCAL_RANK, v).ok());
  Infos node;
  node.Str(PMIX_HOSTNAME_ALIASES, "n0,n0.local");
  ASSERT_TRUE(store.Put(p0, Where::Host("n0"), PMIX_SCOPE_UNDEF, {node.data(), 1}).ok());
  ASSERT_TRUE(store.Put(p0, Where::NodeId(0), PMIX_SCOPE_UNDEF, {node.data(), 1}).ok());
  ASSERT_TRUE(store.Put(p0, Where::App(0), PMIX_SCOPE_UNDEF, {job.data(), 1}).ok());
  ASSERT_TRUE(store.Put(p0, Where::Session(3), PMIX_SCOPE_UNDEF, {job.data(), 1}).ok());

  auto size = store.FetchValue(Proc("wrap", PMIX_RANK_WILDCARD), Where::Proc(),
                               PMIX_GDS_VIEW_REMOTE, PMIX_JOB_SIZE);
  ASSERT_TRUE(size.ok());
  EXPECT_TRUE(test::SameValue(*size->get(), job[0].value));
  auto local = store.FetchValue(p0, Where::Proc(), PMIX_GDS_VIEW_LOCAL, PMIX_LOCAL_RANK);
  ASSERT_TRUE(local.ok());
  EXPECT_TRUE(test::SameValue(*local->get(), v));
  for (const Where& where : {Where::Host("n0"), Where::NodeId(0)}) {
    auto alias = store.Fetch(p0, where, PMIX_GDS_VIEW_ALL, PMIX_HOSTNAME_ALIASES);
    ASSERT_TRUE(alias.ok());
    EXPECT_EQ(alias->size(), 1u);
  }
  EXPECT_TRUE(store.Fetch(p0, Where::App(0), PMIX_GDS_VIEW_ALL, "").ok());
  EXPECT_TRUE(store.Fetch(p0, Where::Session(3), PMIX_GDS_VIEW_ALL, PMIX_JOB_SIZE).ok());
  EXPECT_EQ(store.Fetch(p0, Where::Proc(), PMIX_GDS_VIEW_ALL, std::string(600, 'k'))
                .status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(store.FetchValue(p0, Where::Proc(), PMIX_GDS_VIEW_ALL, "absent").status().code(),
            PMIX_ERR_NOT_FOUND);
  EXPECT_TRUE(store.Remove(Proc("wrap", PMIX_RANK_WILDCARD)).ok());
  EXPECT_EQ(store.Fetch(p0, Where::Proc(), PMIX_GDS_VIEW_ALL, "").status().code(),
            PMIX_ERR_NOT_FOUND);
  EXPECT_TRUE(store.RemoveSession(3).ok());
  PMIx_Value_destruct(&v);
}

}  // namespace
}  // namespace pmix::gds
