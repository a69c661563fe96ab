// pmixrun's reading of the debugger directives
// (src/tools/pmixrun/debug_directives.h) and of a spawn request that
// carries them (spawn_request.h).
#include "src/tools/pmixrun/debug_directives.h"

#include <gtest/gtest.h>

#include <cstring>

#include "pmix.h"
#include "src/tools/pmixrun/spawn_request.h"

namespace pmixrun {
namespace {

struct Info {
  pmix_info_t info;
  Info(const char* key, const void* data, pmix_data_type_t type) {
    PMIx_Info_construct(&info);
    EXPECT_EQ(PMIx_Info_load(&info, key, data, type), PMIX_SUCCESS);
  }
  ~Info() { PMIx_Info_destruct(&info); }
};

TEST(DebugDirectives, StopDirectivesNameRanks) {
  DebugDirectives d;
  const bool yes = true, no = false;
  Info all(PMIX_DEBUG_STOP_IN_INIT, &yes, PMIX_BOOL);
  ASSERT_TRUE(ApplyDebugDirective(all.info, &d));
  ASSERT_TRUE(d.stop_in_init);
  EXPECT_TRUE(Names(*d.stop_in_init, 0));
  EXPECT_TRUE(Names(*d.stop_in_init, 7));

  Info none(PMIX_DEBUG_STOP_IN_INIT, &no, PMIX_BOOL);
  ASSERT_TRUE(ApplyDebugDirective(none.info, &d));
  EXPECT_FALSE(d.stop_in_init);

  const pmix_rank_t two = 2;
  Info rank(PMIX_DEBUG_STOP_ON_EXEC, &two, PMIX_PROC_RANK);
  ASSERT_TRUE(ApplyDebugDirective(rank.info, &d));
  ASSERT_TRUE(d.stop_on_exec);
  EXPECT_TRUE(Names(*d.stop_on_exec, 2));
  EXPECT_FALSE(Names(*d.stop_on_exec, 1));

  pmix_rank_t ranks[] = {1, 3};
  pmix_data_array_t array{PMIX_PROC_RANK, 2, ranks};
  Info list(PMIX_DEBUG_STOP_IN_APP, &array, PMIX_DATA_ARRAY);
  ASSERT_TRUE(ApplyDebugDirective(list.info, &d));
  ASSERT_TRUE(d.stop_in_app);
  EXPECT_TRUE(Names(*d.stop_in_app, 3));
  EXPECT_FALSE(Names(*d.stop_in_app, 2));
}

TEST(DebugDirectives, WrongTypesAreRefused) {
  DebugDirectives d;
  Info text(PMIX_DEBUG_STOP_IN_INIT, "yes", PMIX_STRING);
  EXPECT_FALSE(ApplyDebugDirective(text.info, &d));
  Info target(PMIX_DEBUG_TARGET, "job", PMIX_STRING);
  EXPECT_FALSE(ApplyDebugDirective(target.info, &d));
  const uint16_t zero = 0;
  Info per_node(PMIX_DEBUG_DAEMONS_PER_NODE, &zero, PMIX_UINT16);
  EXPECT_FALSE(ApplyDebugDirective(per_node.info, &d));
  EXPECT_FALSE(d.Any());
}

TEST(DebugDirectives, TargetFromEitherAttribute) {
  DebugDirectives d;
  Info job(PMIX_DEBUG_JOB, "old-style", PMIX_STRING);
  ASSERT_TRUE(ApplyDebugDirective(job.info, &d));
  ASSERT_TRUE(d.target);
  EXPECT_STREQ(d.target->nspace, "old-style");
  EXPECT_EQ(d.target->rank, PMIX_RANK_WILDCARD);

  DebugDirectives e;
  pmix_proc_t p;
  PMIx_Load_procid(&p, "new-style", 4);
  Info tgt(PMIX_DEBUG_TARGET, &p, PMIX_PROC);
  ASSERT_TRUE(ApplyDebugDirective(tgt.info, &e));
  ASSERT_TRUE(ApplyDebugDirective(job.info, &e));  // PMIX_DEBUG_TARGET wins
  EXPECT_STREQ(e.target->nspace, "new-style");
  EXPECT_EQ(e.target->rank, 4u);
}

TEST(DebugDirectives, SpawnRequestCarriesThem) {
  pmix_app_t app;
  PMIx_App_construct(&app);
  app.cmd = strdup("/bin/true");
  app.maxprocs = 1;
  const bool yes = true;
  const uint16_t two = 2;
  pmix_info_t job[4];
  for (pmix_info_t& i : job) PMIx_Info_construct(&i);
  PMIx_Info_load(&job[0], PMIX_DEBUG_STOP_IN_INIT, &yes, PMIX_BOOL);
  PMIx_Info_load(&job[1], PMIX_DEBUGGER_DAEMONS, &yes, PMIX_BOOL);
  PMIx_Info_load(&job[2], PMIX_DEBUG_DAEMONS_PER_PROC, &two, PMIX_UINT16);
  PMIx_Info_load(&job[3], PMIX_REQUESTOR_IS_TOOL, &yes, PMIX_BOOL);
  SpawnRequest req;
  std::string error;
  ASSERT_EQ(ParseSpawn(nullptr, job, 4, &app, 1, &req, &error), PMIX_SUCCESS) << error;
  EXPECT_TRUE(req.debug.stop_in_init);
  EXPECT_TRUE(req.debug.daemons);
  EXPECT_EQ(req.debug.per_proc, 2);
  EXPECT_TRUE(req.requester_is_tool);
  EXPECT_TRUE(req.ignored.empty());

  PMIx_Info_destruct(&job[0]);
  PMIx_Info_load(&job[0], PMIX_DEBUG_STOP_IN_INIT, "all", PMIX_STRING);
  EXPECT_EQ(ParseSpawn(nullptr, job, 4, &app, 1, &req, &error), PMIX_ERR_BAD_PARAM);
  EXPECT_NE(error.find(PMIX_DEBUG_STOP_IN_INIT), std::string::npos);
  for (pmix_info_t& i : job) PMIx_Info_destruct(&i);
  PMIx_App_destruct(&app);
}

// maxprocs 0: one daemon per node, or PMIX_MAPBY "ppr:N:node"; else refused.
TEST(DebugDirectives, UnsetProcessCounts) {
  pmix_app_t app;
  PMIx_App_construct(&app);
  app.cmd = strdup("/bin/true");
  app.maxprocs = 0;
  SpawnRequest req;
  std::string error;
  EXPECT_EQ(ParseSpawn(nullptr, nullptr, 0, &app, 1, &req, &error), PMIX_ERR_BAD_PARAM);
  pmix_info_t job[2];
  PMIx_Info_construct(&job[0]);
  PMIx_Info_construct(&job[1]);
  PMIx_Info_load(&job[0], PMIX_DEBUGGER_DAEMONS, nullptr, PMIX_BOOL);
  PMIx_Info_load(&job[1], PMIX_DEBUG_JOB, "target", PMIX_STRING);
  ASSERT_EQ(ParseSpawn(nullptr, job, 2, &app, 1, &req, &error), PMIX_SUCCESS) << error;
  EXPECT_EQ(req.apps[0].maxprocs, 1);
  PMIx_Info_destruct(&job[0]);
  PMIx_Info_load(&job[0], PMIX_MAPBY, "ppr:3:node", PMIX_STRING);
  ASSERT_EQ(ParseSpawn(nullptr, job, 1, &app, 1, &req, &error), PMIX_SUCCESS) << error;
  EXPECT_EQ(req.apps[0].maxprocs, 3);
  PMIx_Info_destruct(&job[0]);
  PMIx_Info_destruct(&job[1]);
  PMIx_App_destruct(&app);
}

}  // namespace
}  // namespace pmixrun
