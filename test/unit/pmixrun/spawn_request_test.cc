// pmixrun's reading and resolving of spawn requests
// (src/tools/pmixrun/spawn_request.h).
#include "src/tools/pmixrun/spawn_request.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "pmix.h"

namespace pmixrun {
namespace {

// An owned pmix_app_t built from strings.
class App {
 public:
  App(const char* cmd, std::vector<std::string> argv, int maxprocs = 1) {
    PMIx_App_construct(&app_);
    if (cmd != nullptr) app_.cmd = strdup(cmd);
    if (!argv.empty()) {
      app_.argv = static_cast<char**>(std::calloc(argv.size() + 1, sizeof(char*)));
      for (size_t i = 0; i < argv.size(); ++i) app_.argv[i] = strdup(argv[i].c_str());
    }
    app_.maxprocs = maxprocs;
  }
  ~App() { PMIx_App_destruct(&app_); }
  App(const App&) = delete;
  App& operator=(const App&) = delete;
  pmix_app_t* get() { return &app_; }

 private:
  pmix_app_t app_;
};

// An owned info array.
class Infos {
 public:
  Infos() = default;
  Infos(const Infos&) = delete;
  Infos& operator=(const Infos&) = delete;
  ~Infos() {
    for (pmix_info_t& i : infos_) PMIx_Info_destruct(&i);
  }
  Infos& Add(const char* key, const void* data, pmix_data_type_t type) {
    infos_.emplace_back();
    PMIx_Info_construct(&infos_.back());
    EXPECT_EQ(PMIx_Info_load(&infos_.back(), key, data, type), PMIX_SUCCESS);
    return *this;
  }
  Infos& Str(const char* key, const char* s) { return Add(key, s, PMIX_STRING); }
  Infos& Flag(const char* key, bool b) { return Add(key, &b, PMIX_BOOL); }
  Infos& Envar(const char* key, const char* name, const char* value, char sep = ':') {
    pmix_envar_t e{const_cast<char*>(name), const_cast<char*>(value), sep};
    return Add(key, &e, PMIX_ENVAR);
  }
  pmix_info_t* data() { return infos_.empty() ? nullptr : infos_.data(); }
  size_t size() const { return infos_.size(); }

 private:
  std::vector<pmix_info_t> infos_;
};

pmix_status_t Parse(Infos& job, App& app, SpawnRequest* out, std::string* error) {
  pmix_proc_t requester;
  PMIx_Load_procid(&requester, "parent", 0);
  return ParseSpawn(&requester, job.data(), job.size(), app.get(), 1, out, error);
}

ResolveContext Context() {
  ResolveContext ctx;
  ctx.base_env = {"PATH=/usr/bin:/bin", "HOME=/root", "KEEP=1"};
  ctx.cwd = "/tmp";
  ctx.hostname = "node7.example.org";
  ctx.session_cwd = "/session/job.1";
  return ctx;
}

bool HasVar(const std::vector<std::string>& env, const std::string& entry) {
  for (const std::string& e : env)
    if (e == entry) return true;
  return false;
}

TEST(ParseSpawn, NoAppsOrNoExecutableIsNoExeSpecified) {
  SpawnRequest req;
  std::string error;
  EXPECT_EQ(ParseSpawn(nullptr, nullptr, 0, nullptr, 0, &req, &error),
            PMIX_ERR_JOB_NO_EXE_SPECIFIED);
  App empty(nullptr, {});
  Infos none;
  EXPECT_EQ(Parse(none, empty, &req, &error), PMIX_ERR_JOB_NO_EXE_SPECIFIED);
}

TEST(ParseSpawn, CommandAndArgvCompleteEachOther) {
  SpawnRequest req;
  std::string error;
  Infos none;
  App only_argv(nullptr, {"prog", "x"});
  ASSERT_EQ(Parse(none, only_argv, &req, &error), PMIX_SUCCESS) << error;
  EXPECT_EQ(req.apps[0].cmd, "prog");
  App only_cmd("prog", {});
  ASSERT_EQ(Parse(none, only_cmd, &req, &error), PMIX_SUCCESS) << error;
  EXPECT_EQ(req.apps[0].argv, std::vector<std::string>{"prog"});
  EXPECT_STREQ(req.requester.nspace, "parent");
}

TEST(ParseSpawn, RejectsBadMaxprocsAndBadValueTypes) {
  SpawnRequest req;
  std::string error;
  Infos none;
  App zero("prog", {}, 0);
  EXPECT_EQ(Parse(none, zero, &req, &error), PMIX_ERR_BAD_PARAM);
  App app("prog", {});
  int not_a_string = 3;
  Infos bad_wdir;
  bad_wdir.Add(PMIX_WDIR, &not_a_string, PMIX_INT);
  EXPECT_EQ(Parse(bad_wdir, app, &req, &error), PMIX_ERR_BAD_PARAM);
  EXPECT_NE(error.find(PMIX_WDIR), std::string::npos);
}

TEST(ParseSpawn, ReadsNoticesTimeoutAndListsIgnoredAttributes) {
  SpawnRequest req;
  std::string error;
  App app("prog", {});
  int timeout = 7;
  uint32_t uid = 0;
  Infos job;
  job.Flag(PMIX_NOTIFY_COMPLETION, true)
      .Flag(PMIX_NOTIFY_PROC_ABNORMAL_TERMINATION, true)
      .Add(PMIX_JOB_TIMEOUT, &timeout, PMIX_INT)
      .Str(PMIX_MAPBY, "core")
      .Add(PMIX_USERID, &uid, PMIX_UINT32)
      .Str("user.key", "not an attribute");
  ASSERT_EQ(Parse(job, app, &req, &error), PMIX_SUCCESS) << error;
  EXPECT_TRUE(req.notices.completion);
  EXPECT_TRUE(req.notices.proc_abnormal);
  EXPECT_FALSE(req.notices.proc_end);
  EXPECT_EQ(req.job_timeout_s, 7);
  EXPECT_EQ(req.ignored, std::vector<std::string>{PMIX_MAPBY});
}

// PMIX_COSPAWN_APP and the debugger directives in an app's infos are the
// app's (spawner.h makes the co-spawned app a job of its own); a debugger's
// daemons with maxprocs 0 run one per node.
TEST(ParseSpawn, ReadsAnAppsCospawnAndDebuggerDirectives) {
  SpawnRequest req;
  std::string error;
  App app("daemon", {}, 0);
  uint16_t one = 1;
  Infos own;
  own.Flag(PMIX_COSPAWN_APP, true)
      .Flag(PMIX_DEBUGGER_DAEMONS, true)
      .Add(PMIX_DEBUG_DAEMONS_PER_NODE, &one, PMIX_UINT16)
      .Flag(PMIX_DEBUG_STOP_IN_INIT, true);
  app.get()->info = own.data();
  app.get()->ninfo = own.size();
  Infos none;
  pmix_status_t rc = Parse(none, app, &req, &error);
  app.get()->info = nullptr;  // `own` keeps them
  app.get()->ninfo = 0;
  ASSERT_EQ(rc, PMIX_SUCCESS) << error;
  const AppRequest& a = req.apps[0];
  EXPECT_TRUE(a.cospawn);
  EXPECT_TRUE(a.debug.daemons);
  EXPECT_EQ(a.debug.per_node, 1);
  ASSERT_TRUE(a.debug.stop_in_init.has_value());
  EXPECT_TRUE(Names(*a.debug.stop_in_init, 5));
  EXPECT_EQ(a.maxprocs, 1);
  EXPECT_FALSE(req.debug.Any());  // the job's own are untouched
  EXPECT_TRUE(req.ignored.empty());
  int not_a_flag = 2;
  Infos bad;
  bad.Add(PMIX_COSPAWN_APP, &not_a_flag, PMIX_INT);
  app.get()->info = bad.data();
  app.get()->ninfo = bad.size();
  EXPECT_EQ(Parse(none, app, &req, &error), PMIX_ERR_BAD_PARAM);
  app.get()->info = nullptr;
  app.get()->ninfo = 0;
}

TEST(ResolveSpawn, FindsTheProgramOnThePathAndKeepsTheBaseEnvironment) {
  SpawnRequest req;
  std::string error;
  Infos none;
  App app("sh", {"sh", "-c", "true"}, 3);
  ASSERT_EQ(Parse(none, app, &req, &error), PMIX_SUCCESS) << error;
  JobLayout layout;
  ASSERT_EQ(ResolveSpawn(req, Context(), &layout, &error), PMIX_SUCCESS) << error;
  ASSERT_EQ(layout.apps.size(), 1u);
  EXPECT_TRUE(layout.apps[0].path == "/usr/bin/sh" || layout.apps[0].path == "/bin/sh");
  EXPECT_EQ(layout.apps[0].nprocs, 3);
  EXPECT_EQ(layout.apps[0].cwd, "/tmp");
  EXPECT_TRUE(HasVar(layout.apps[0].env, "KEEP=1"));
  EXPECT_EQ(layout.NumProcs(), 3);
}

struct FailureCase {
  const char* name;
  const char* cmd;
  const char* wdir;  // PMIX_WDIR or nullptr
  const char* host;  // PMIX_HOST or nullptr
  int maxprocs;
  pmix_status_t want;
};

TEST(ResolveSpawn, FailsWithTheSpawnStatusOfEachCause) {
  const FailureCase cases[] = {
      {"missing", "/nonexistent/prog", nullptr, nullptr, 1, PMIX_ERR_JOB_EXE_NOT_FOUND},
      {"not on PATH", "pmixrun-no-such-command", nullptr, nullptr, 1, PMIX_ERR_JOB_EXE_NOT_FOUND},
      {"a directory", "/", nullptr, nullptr, 1, PMIX_ERR_JOB_APP_NOT_EXECUTABLE},
      {"no wdir", "sh", "/nonexistent/dir", nullptr, 1, PMIX_ERR_JOB_WDIR_NOT_FOUND},
      {"other host", "sh", nullptr, "node7,othernode:2", 1, PMIX_ERR_JOB_FAILED_TO_MAP},
      {"too many", "sh", nullptr, nullptr, kMaxSpawnProcs + 1, PMIX_ERR_JOB_INSUFFICIENT_RESOURCES},
  };
  for (const FailureCase& c : cases) {
    SpawnRequest req;
    std::string error;
    Infos job;
    if (c.wdir != nullptr) job.Str(PMIX_WDIR, c.wdir);
    if (c.host != nullptr) job.Str(PMIX_HOST, c.host);
    App app(c.cmd, {}, c.maxprocs);
    ASSERT_EQ(Parse(job, app, &req, &error), PMIX_SUCCESS) << c.name << ": " << error;
    JobLayout layout;
    EXPECT_EQ(ResolveSpawn(req, Context(), &layout, &error), c.want) << c.name;
    EXPECT_FALSE(error.empty()) << c.name;
    EXPECT_TRUE(layout.apps.empty()) << c.name;
  }
}

TEST(ResolveSpawn, AppSettingsWinOverJobSettings) {
  SpawnRequest req;
  std::string error;
  Infos job;
  job.Str(PMIX_WDIR, "/").Flag(PMIX_TAG_OUTPUT, true).Envar(PMIX_SET_ENVAR, "V", "job");
  App app("sh", {});
  Infos own;
  own.Str(PMIX_WDIR, "/usr").Flag(PMIX_TAG_OUTPUT, false).Envar(PMIX_APPEND_ENVAR, "V", "app");
  app.get()->info = own.data();
  app.get()->ninfo = own.size();
  app.get()->env = static_cast<char**>(std::calloc(2, sizeof(char*)));
  app.get()->env[0] = strdup("FROM_APP=yes");
  pmix_status_t rc = Parse(job, app, &req, &error);
  app.get()->info = nullptr;  // owned by `own`
  app.get()->ninfo = 0;
  ASSERT_EQ(rc, PMIX_SUCCESS) << error;
  JobLayout layout;
  ASSERT_EQ(ResolveSpawn(req, Context(), &layout, &error), PMIX_SUCCESS) << error;
  const AppLayout& a = layout.apps[0];
  EXPECT_EQ(a.cwd, "/usr");
  EXPECT_FALSE(a.tag_output);
  EXPECT_TRUE(HasVar(a.env, "V=job:app"));
  EXPECT_TRUE(HasVar(a.env, "FROM_APP=yes"));
}

// One job attribute on a spawn of "sh", and what the resolved app must be.
struct JobSettingCase {
  const char* name;
  std::function<void(Infos&)> set;
  std::function<void(const AppLayout&)> check;
};

TEST(ResolveSpawn, JobSettingsShapeTheApp) {
  const JobSettingCase cases[] = {
      {"this node under any of its names is accepted as host",
       [](Infos& job) { job.Str(PMIX_HOST, "node7,localhost,node7.example.org:4"); },
       [](const AppLayout&) {}},
      {"a prefix leads PATH and LD_LIBRARY_PATH", [](Infos& job) { job.Str(PMIX_PREFIX, "/usr"); },
       [](const AppLayout& a) {
         EXPECT_EQ(a.path, "/usr/bin/sh");
         EXPECT_TRUE(HasVar(a.env, "PATH=/usr/bin:/usr/bin:/bin"));
         EXPECT_TRUE(HasVar(a.env, "LD_LIBRARY_PATH=/usr/lib"));
       }},
      {"the session cwd is the job's directory (made by the launcher later)",
       [](Infos& job) { job.Flag(PMIX_SET_SESSION_CWD, true); },
       [](const AppLayout& a) { EXPECT_EQ(a.cwd, "/session/job.1"); }},
  };
  for (const JobSettingCase& c : cases) {
    SCOPED_TRACE(c.name);
    SpawnRequest req;
    std::string error;
    Infos job;
    c.set(job);
    App app("sh", {});
    ASSERT_EQ(Parse(job, app, &req, &error), PMIX_SUCCESS) << error;
    JobLayout layout;
    ASSERT_EQ(ResolveSpawn(req, Context(), &layout, &error), PMIX_SUCCESS) << error;
    ASSERT_EQ(layout.apps.size(), 1u);
    c.check(layout.apps[0]);
  }
}

struct EditCase {
  EnvEdit::Kind kind;
  const char* name;
  const char* value;
  char separator;
  std::vector<std::string> want;
};

TEST(ApplyEnvEdit, FollowsTheStandardsSemantics) {
  using K = EnvEdit::Kind;
  const std::vector<std::string> base{"A=1", "L=x:y:z"};
  const EditCase cases[] = {
      {K::kSet, "A", "2", ':', {"A=2", "L=x:y:z"}},
      {K::kSet, "B", "2", ':', {"A=1", "L=x:y:z", "B=2"}},
      {K::kAdd, "A", "2", ':', {"A=1", "L=x:y:z"}},
      {K::kAdd, "B", "2", ':', {"A=1", "L=x:y:z", "B=2"}},
      {K::kUnset, "A", "", ':', {"L=x:y:z"}},
      {K::kUnset, "B", "", ':', {"A=1", "L=x:y:z"}},
      {K::kPrepend, "L", "w", ':', {"A=1", "L=w:x:y:z"}},
      {K::kPrepend, "B", "w", ':', {"A=1", "L=x:y:z", "B=w"}},
      {K::kAppend, "L", "w", ';', {"A=1", "L=x:y:z;w"}},
      {K::kFirst, "L", "y", ':', {"A=1", "L=y:x:z"}},
      {K::kFirst, "L", "w", ':', {"A=1", "L=w:x:y:z"}},
      {K::kFirst, "B", "w", ':', {"A=1", "L=x:y:z", "B=w"}},
  };
  for (const EditCase& c : cases) {
    std::vector<std::string> env = base;
    ApplyEnvEdit({c.kind, c.name, c.value, c.separator}, &env);
    EXPECT_EQ(env, c.want) << static_cast<int>(c.kind) << " " << c.name << "=" << c.value;
  }
}

}  // namespace
}  // namespace pmixrun
