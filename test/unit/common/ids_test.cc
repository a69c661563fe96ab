// Keys, namespaces, ranks and process ids: PMIx_Load_key, PMIx_Check_*,
// PMIx_*_invalid, PMIx_Multicluster_nspace_* (OpenPMIx 4.2 macro semantics).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "pmix.h"

namespace pmix {
namespace {

// --- keys, namespaces, ranks, procids ---

TEST(Ids, KeysLoadTruncatedAndCompareBounded) {
  pmix_key_t key;
  std::memset(key, 'x', sizeof key);
  PMIx_Load_key(key, "pmix.hostname");
  EXPECT_STREQ(key, "pmix.hostname");
  EXPECT_EQ(key[PMIX_MAX_KEYLEN], '\0');
  std::string long_key(600, 'k');
  PMIx_Load_key(key, long_key.c_str());
  EXPECT_EQ(std::strlen(key), static_cast<size_t>(PMIX_MAX_KEYLEN));
  PMIx_Load_key(key, nullptr);
  EXPECT_STREQ(key, "");
  EXPECT_TRUE(PMIx_Check_key("abc", "abc"));
  EXPECT_FALSE(PMIx_Check_key("abc", "abd"));
  EXPECT_FALSE(PMIx_Check_key(nullptr, "abc"));
  EXPECT_TRUE(PMIx_Check_reserved_key("pmix.foo"));
  EXPECT_FALSE(PMIx_Check_reserved_key("pmi"));
  EXPECT_FALSE(PMIx_Check_reserved_key(nullptr));
  PMIx_Load_key(nullptr, "x");
}

TEST(Ids, EmptyNamespacesMatchAnyAndWildcardMatchesAnyRank) {
  pmix_nspace_t ns;
  PMIx_Load_nspace(ns, "job1");
  EXPECT_STREQ(ns, "job1");
  EXPECT_TRUE(PMIx_Check_nspace(ns, "job1"));
  EXPECT_FALSE(PMIx_Check_nspace(ns, "job2"));
  EXPECT_TRUE(PMIx_Check_nspace(ns, ""));
  EXPECT_TRUE(PMIx_Check_nspace(nullptr, ns));
  EXPECT_TRUE(PMIx_Nspace_invalid(""));
  EXPECT_TRUE(PMIx_Nspace_invalid(nullptr));
  EXPECT_FALSE(PMIx_Nspace_invalid(ns));
  EXPECT_TRUE(PMIx_Check_rank(3, 3));
  EXPECT_FALSE(PMIx_Check_rank(3, 4));
  EXPECT_TRUE(PMIx_Check_rank(PMIX_RANK_WILDCARD, 4));
  EXPECT_TRUE(PMIx_Rank_valid(0));
  EXPECT_FALSE(PMIx_Rank_valid(PMIX_RANK_VALID));
  EXPECT_FALSE(PMIx_Rank_valid(PMIX_RANK_WILDCARD));
}

TEST(Ids, ProcidsLoadCompareAndValidate) {
  pmix_proc_t a;
  pmix_proc_t b;
  PMIx_Load_procid(&a, "job", 1);
  PMIx_Xfer_procid(&b, &a);
  EXPECT_TRUE(PMIx_Check_procid(&a, &b));
  b.rank = PMIX_RANK_WILDCARD;
  EXPECT_TRUE(PMIx_Check_procid(&a, &b));
  b.rank = 2;
  EXPECT_FALSE(PMIx_Check_procid(&a, &b));
  EXPECT_FALSE(PMIx_Check_procid(&a, nullptr));
  EXPECT_FALSE(PMIx_Procid_invalid(&a));
  a.rank = PMIX_RANK_INVALID;
  EXPECT_TRUE(PMIx_Procid_invalid(&a));
  PMIx_Load_procid(&a, nullptr, 0);
  EXPECT_TRUE(PMIx_Procid_invalid(&a));
  EXPECT_TRUE(PMIx_Procid_invalid(nullptr));
  PMIx_Xfer_procid(&a, nullptr);
  PMIx_Load_procid(nullptr, "x", 0);
}

TEST(Ids, MulticlusterNamespacesRoundTrip) {
  pmix_nspace_t target, cluster, nspace, c2, n2;
  PMIx_Load_nspace(cluster, "clusterA");
  PMIx_Load_nspace(nspace, "job7");
  PMIx_Multicluster_nspace_construct(target, cluster, nspace);
  EXPECT_STREQ(target, "clusterA:job7");
  std::memset(c2, 'x', sizeof c2);
  std::memset(n2, 'x', sizeof n2);
  PMIx_Multicluster_nspace_parse(target, c2, n2);
  EXPECT_STREQ(c2, "clusterA");
  EXPECT_STREQ(n2, "job7");
  PMIx_Load_nspace(target, "nocolon");
  PMIx_Multicluster_nspace_parse(target, c2, n2);
  EXPECT_STREQ(c2, "nocolon");
  EXPECT_STREQ(n2, "");
  // Too long together: the target is left empty.
  std::string big(200, 'c');
  PMIx_Load_nspace(cluster, big.c_str());
  PMIx_Load_nspace(nspace, std::string(60, 'n').c_str());
  PMIx_Multicluster_nspace_construct(target, cluster, nspace);
  EXPECT_STREQ(target, "");
}

}  // namespace
}  // namespace pmix
