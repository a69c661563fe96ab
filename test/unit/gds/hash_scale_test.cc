// gds/hash at size: 10k keys for each of 64 ranks, inserted one call per
// rank, then every key looked up and spot-checked. A sanity check (no
// timing asserts). GDS_SCALE_KEYS overrides the keys per rank (e.g. to
// keep a valgrind run short).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "pmix/mca/gds.h"
#include "test/unit/gds/gds_test_util.h"

namespace pmix::gds::test {
namespace {

constexpr pmix_rank_t kRanks = 64;

size_t KeysPerRank() {
  const char* env = std::getenv("GDS_SCALE_KEYS");
  return env != nullptr ? std::strtoul(env, nullptr, 10) : 10000;
}

std::string KeyName(size_t i) { return "key." + std::to_string(i); }

TEST(GdsHashScale, ManyKeysManyRanks) {
  const size_t nkeys = KeysPerRank();
  TestStore store(HashModule());
  for (pmix_rank_t rank = 0; rank < kRanks; ++rank) {
    Infos kvs;
    for (size_t i = 0; i < nkeys; ++i) kvs.U32(KeyName(i).c_str(), rank * 100000u + i);
    ASSERT_EQ(store.Put(Proc("big", rank), PMIX_GDS_REALM_PROC, PMIX_GLOBAL, nullptr, kvs),
              PMIX_SUCCESS);
  }
  size_t wrong = 0;
  for (pmix_rank_t rank = 0; rank < kRanks; ++rank) {
    pmix_proc_t proc = Proc("big", rank);
    for (size_t i = 0; i < nkeys; ++i) {
      pmix_info_t* kvs = nullptr;
      size_t n = 0;
      std::string key = KeyName(i);
      pmix_status_t rc = store.module()->fetch(store.handle(), &proc, PMIX_GDS_REALM_PROC,
                                               PMIX_GDS_VIEW_REMOTE, key.c_str(), nullptr, 0,
                                               &kvs, &n);
      if (rc != PMIX_SUCCESS || n != 1 || kvs[0].value.type != PMIX_UINT32 ||
          kvs[0].value.data.uint32 != rank * 100000u + i) {
        ++wrong;
      }
      if (rc == PMIX_SUCCESS) PMIx_Info_free(kvs, n);
    }
  }
  EXPECT_EQ(wrong, 0u);
  Fetched all;
  store.Get(Proc("big", kRanks - 1), PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_ALL, nullptr, nullptr,
            &all);
  ASSERT_EQ(all.status, PMIX_SUCCESS);
  EXPECT_EQ(all.n, nkeys);
  EXPECT_EQ(all.count.size(), nkeys);
  EXPECT_EQ(store.Status(Proc("big", kRanks), PMIX_GDS_REALM_PROC, PMIX_GDS_VIEW_ALL, "key.0"),
            PMIX_ERR_NOT_FOUND);
}

}  // namespace
}  // namespace pmix::gds::test
