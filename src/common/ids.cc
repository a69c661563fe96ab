// Keys, namespaces, ranks and process ids (standard §3.2.1-§3.2.4): the
// functions behind PMIX_LOAD_KEY, PMIX_CHECK_NSPACE, PMIX_CHECK_PROCID,
// PMIX_MULTICLUSTER_NSPACE_* and friends. Semantics follow OpenPMIx 4.2's
// macros: loads zero-fill the whole fixed-size field and truncate; an
// empty (or NULL) namespace matches any namespace; PMIX_RANK_WILDCARD
// matches any rank.
#include <cstring>

#include "pmix_common.h"
#include "src/common/data_types.h"

namespace {

bool Empty(const char* s) { return s == nullptr || s[0] == '\0'; }

}  // namespace

extern "C" {

void PMIx_Load_key(pmix_key_t key, const char* src) {
  if (key != nullptr) pmix::CopyBounded(key, src, PMIX_MAX_KEYLEN);
}

bool PMIx_Check_key(const char* key, const char* str) {
  if (key == nullptr || str == nullptr) return key == str;
  return std::strncmp(key, str, PMIX_MAX_KEYLEN) == 0;
}

bool PMIx_Check_reserved_key(const char* key) {
  return key != nullptr && std::strncmp(key, "pmix", 4) == 0;
}

void PMIx_Load_nspace(pmix_nspace_t nspace, const char* str) {
  if (nspace != nullptr) pmix::CopyBounded(nspace, str, PMIX_MAX_NSLEN);
}

bool PMIx_Check_nspace(const char* key1, const char* key2) {
  return Empty(key1) || Empty(key2) ||
         std::strncmp(key1, key2, PMIX_MAX_NSLEN) == 0;
}

bool PMIx_Nspace_invalid(const char* nspace) { return Empty(nspace); }

bool PMIx_Check_rank(pmix_rank_t a, pmix_rank_t b) {
  return a == b || a == PMIX_RANK_WILDCARD || b == PMIX_RANK_WILDCARD;
}

bool PMIx_Rank_valid(pmix_rank_t rank) { return rank < PMIX_RANK_VALID; }

void PMIx_Load_procid(pmix_proc_t* p, const char* ns, pmix_rank_t rk) {
  if (p == nullptr) return;
  pmix::CopyBounded(p->nspace, ns, PMIX_MAX_NSLEN);
  p->rank = rk;
}

void PMIx_Xfer_procid(pmix_proc_t* dst, const pmix_proc_t* src) {
  if (dst != nullptr && src != nullptr && dst != src) {
    std::memcpy(dst, src, sizeof *dst);
  }
}

bool PMIx_Check_procid(const pmix_proc_t* a, const pmix_proc_t* b) {
  if (a == nullptr || b == nullptr) return false;
  return PMIx_Check_nspace(a->nspace, b->nspace) &&
         PMIx_Check_rank(a->rank, b->rank);
}

bool PMIx_Procid_invalid(const pmix_proc_t* p) {
  return p == nullptr || Empty(p->nspace) || p->rank == PMIX_RANK_INVALID;
}

// target = "<cluster>:<nspace>" when it fits in PMIX_MAX_NSLEN chars,
// else empty.
void PMIx_Multicluster_nspace_construct(pmix_nspace_t target,
                                        pmix_nspace_t cluster,
                                        pmix_nspace_t nspace) {
  if (target == nullptr) return;
  std::memset(target, 0, PMIX_MAX_NSLEN + 1);
  size_t lc = cluster == nullptr ? 0 : strnlen(cluster, PMIX_MAX_NSLEN + 1);
  size_t ln = nspace == nullptr ? 0 : strnlen(nspace, PMIX_MAX_NSLEN + 1);
  if (lc + ln >= PMIX_MAX_NSLEN) return;
  if (lc > 0) std::memcpy(target, cluster, lc);
  target[lc] = ':';
  if (ln > 0) std::memcpy(target + lc + 1, nspace, ln);
}

// Splits "<cluster>:<nspace>" at the first ':'; without one, all of
// `target` is the cluster and the nspace is empty.
void PMIx_Multicluster_nspace_parse(pmix_nspace_t target, pmix_nspace_t cluster,
                                    pmix_nspace_t nspace) {
  if (target == nullptr || cluster == nullptr || nspace == nullptr) return;
  size_t len = strnlen(target, PMIX_MAX_NSLEN);
  const char* colon = static_cast<const char*>(std::memchr(target, ':', len));
  size_t lc = colon == nullptr ? len : static_cast<size_t>(colon - target);
  char parsed_cluster[PMIX_MAX_NSLEN + 1] = {};
  char parsed_nspace[PMIX_MAX_NSLEN + 1] = {};
  std::memcpy(parsed_cluster, target, lc);
  if (colon != nullptr) std::memcpy(parsed_nspace, colon + 1, len - lc - 1);
  std::memcpy(cluster, parsed_cluster, sizeof parsed_cluster);
  std::memcpy(nspace, parsed_nspace, sizeof parsed_nspace);
}

}  // extern "C"
