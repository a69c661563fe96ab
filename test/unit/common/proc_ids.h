// Process identifiers for the unit tests.
#ifndef PMIXX_TEST_UNIT_COMMON_PROC_IDS_H
#define PMIXX_TEST_UNIT_COMMON_PROC_IDS_H

#include "pmix.h"

namespace pmix::test {

// nspace:rank as a pmix_proc_t.
inline pmix_proc_t P(const char* nspace, pmix_rank_t rank) {
  pmix_proc_t p{};
  PMIx_Load_procid(&p, nspace, rank);
  return p;
}

}  // namespace pmix::test

#endif  // PMIXX_TEST_UNIT_COMMON_PROC_IDS_H
