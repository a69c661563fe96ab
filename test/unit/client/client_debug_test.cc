// Which processes a debugger's stop directive names (src/client/client_debug.h).
#include "src/client/client_debug.h"

#include <gtest/gtest.h>

#include "pmix.h"
#include "test/unit/common/proc_ids.h"

namespace pmix::client {
namespace {

pmix_proc_t Proc(const char* nspace, pmix_rank_t rank) { return test::P(nspace, rank); }

TEST(DebugDirectiveNames, BoolRankAndProc) {
  const pmix_proc_t me = Proc("job", 1);
  pmix_value_t v;
  PMIx_Value_construct(&v);
  EXPECT_TRUE(DebugDirectiveNames(v, me));  // a bare key
  bool yes = true, no = false;
  PMIx_Value_load(&v, &yes, PMIX_BOOL);
  EXPECT_TRUE(DebugDirectiveNames(v, me));
  PMIx_Value_load(&v, &no, PMIX_BOOL);
  EXPECT_FALSE(DebugDirectiveNames(v, me));
  pmix_rank_t r = PMIX_RANK_WILDCARD;
  PMIx_Value_load(&v, &r, PMIX_PROC_RANK);
  EXPECT_TRUE(DebugDirectiveNames(v, me));
  r = 2;
  PMIx_Value_load(&v, &r, PMIX_PROC_RANK);
  EXPECT_FALSE(DebugDirectiveNames(v, me));
  pmix_proc_t p = Proc("job", 1);
  PMIx_Value_load(&v, &p, PMIX_PROC);
  EXPECT_TRUE(DebugDirectiveNames(v, me));
  PMIx_Value_destruct(&v);
  p = Proc("other", 1);
  PMIx_Value_load(&v, &p, PMIX_PROC);
  EXPECT_FALSE(DebugDirectiveNames(v, me));
  PMIx_Value_destruct(&v);
  PMIx_Value_load(&v, "all", PMIX_STRING);
  EXPECT_FALSE(DebugDirectiveNames(v, me));  // not a form the standard gives
  PMIx_Value_destruct(&v);
}

TEST(DebugDirectiveNames, Arrays) {
  const pmix_proc_t me = Proc("job", 3);
  pmix_rank_t ranks[] = {0, 3};
  pmix_data_array_t a{PMIX_PROC_RANK, 2, ranks};
  pmix_value_t v;
  PMIx_Value_construct(&v);
  v.type = PMIX_DATA_ARRAY;
  v.data.darray = &a;
  EXPECT_TRUE(DebugDirectiveNames(v, me));
  ranks[1] = 4;
  EXPECT_FALSE(DebugDirectiveNames(v, me));
  pmix_proc_t procs[] = {Proc("job", PMIX_RANK_WILDCARD)};
  pmix_data_array_t b{PMIX_PROC, 1, procs};
  v.data.darray = &b;
  EXPECT_TRUE(DebugDirectiveNames(v, me));
}

}  // namespace
}  // namespace pmix::client
