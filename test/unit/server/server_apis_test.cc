// Server APIs a host calls, against a real server in this process:
// setup_application / setup_local_support (+ setup_fork), inventory,
// IOF delivery, attribute registration, and allocation / monitoring
// requests made by the server process itself (its own host answers).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "pmix.h"
#include "pmix_server.h"
#include "mca/base/framework_registry.h"
#include "src/runtime/context.h"
#include "src/server/server_attributes.h"
#include "src/server/server_inventory.h"
#include "src/server/server_state.h"
#include "test/unit/server/in_process_server.h"

namespace pmix::server {
namespace {

constexpr auto kWait = std::chrono::seconds(10);

// One callback's arrival, waited for with a bound.
struct Arrival {
  std::mutex mu;
  std::condition_variable cv;
  int count = 0;
  pmix_status_t status = PMIX_ERROR;
  std::vector<std::string> keys;
  std::thread::id thread;
  void Set(pmix_status_t st) {
    std::lock_guard<std::mutex> lock(mu);
    status = st;
    thread = std::this_thread::get_id();
    ++count;
    cv.notify_all();
  }
  bool Wait(int n = 1) {
    std::unique_lock<std::mutex> lock(mu);
    return cv.wait_for(lock, kWait, [&] { return count >= n; });
  }
};

void OpDone(pmix_status_t status, void* cbdata) { static_cast<Arrival*>(cbdata)->Set(status); }

// What the host's allocate / monitor upcalls saw.
struct HostLog {
  std::mutex mu;
  pmix_proc_t requester{};
  int directive = -1;
  std::vector<std::string> keys;
  std::vector<uint32_t> userids;
  std::string monitor_key;
  pmix_status_t error = 0;
  int heartbeats = 0;
} g_host;

void Record(const pmix_proc_t* who, const pmix_info_t* info, size_t n) {
  g_host.requester = *who;
  g_host.keys.clear();
  g_host.userids.clear();
  for (size_t i = 0; i < n; ++i) {
    g_host.keys.emplace_back(info[i].key);
    if (PMIX_CHECK_KEY(&info[i], PMIX_USERID)) g_host.userids.push_back(info[i].value.data.uint32);
  }
}

pmix_status_t HostAllocate(const pmix_proc_t* client, pmix_alloc_directive_t directive,
                           const pmix_info_t data[], size_t ndata, pmix_info_cbfunc_t cbfunc,
                           void* cbdata) {
  {
    std::lock_guard<std::mutex> lock(g_host.mu);
    Record(client, data, ndata);
    g_host.directive = directive;
  }
  // Answer from another thread, as a host may.
  std::thread([cbfunc, cbdata] {
    pmix_info_t result;
    PMIx_Info_load(&result, PMIX_ALLOC_ID, "alloc-7", PMIX_STRING);
    cbfunc(PMIX_SUCCESS, &result, 1, cbdata, nullptr, nullptr);
    PMIx_Info_destruct(&result);
  }).join();
  return PMIX_SUCCESS;
}

pmix_status_t HostMonitor(const pmix_proc_t* requestor, const pmix_info_t* monitor,
                          pmix_status_t error, const pmix_info_t directives[], size_t ndirs,
                          pmix_info_cbfunc_t cbfunc, void* cbdata) {
  (void)cbfunc, (void)cbdata;
  std::lock_guard<std::mutex> lock(g_host.mu);
  Record(requestor, directives, ndirs);
  g_host.monitor_key = monitor->key;
  g_host.error = error;
  if (PMIX_CHECK_KEY(monitor, PMIX_SEND_HEARTBEAT)) ++g_host.heartbeats;
  return PMIX_OPERATION_SUCCEEDED;
}

// A running server (hostname "h5-node") for each test.
class ServerApis : public test_support::InProcessServer {
 protected:
  void AddUpcalls(pmix_server_module_t* module) override {
    module->allocate = HostAllocate;
    module->monitor = HostMonitor;
  }
  void Init(bool with_upcalls) {
    StartServer(with_upcalls, {{PMIX_HOSTNAME, "h5-node"}, {PMIX_SERVER_NSPACE, "h5-srv"}});
  }
  void SetUp() override { Init(true); }
  // Runs fn with the server on the progress thread.
  template <class T>
  T OnServer(std::function<T(Server&)> fn) {
    auto r = runtime::CallBlocking<T>([fn](std::function<void(T)> done) { done(fn(*CurrentServer())); });
    EXPECT_TRUE(r.ok());
    return *r;
  }
};

// --- setup_application / setup_local_support --------------------------------

struct AppResult : Arrival {
  std::vector<std::pair<std::string, std::string>> envars;
};

void AppDone(pmix_status_t status, pmix_info_t info[], size_t ninfo, void* provided,
             pmix_op_cbfunc_t release, void* release_data) {
  auto* r = static_cast<AppResult*>(provided);
  {
    std::lock_guard<std::mutex> lock(r->mu);
    for (size_t i = 0; i < ninfo; ++i) {
      r->keys.emplace_back(info[i].key);
      if (info[i].value.type == PMIX_ENVAR)
        r->envars.emplace_back(info[i].value.data.envar.envar, info[i].value.data.envar.value);
    }
  }
  if (release != nullptr) release(PMIX_SUCCESS, release_data);
  r->Set(status);
}

TEST_F(ServerApis, SetupApplicationReturnsTheLaunchersMcaEnvars) {
  ::setenv("PMIX_MCA_h5test_param", "v1", 1);
  pmix_info_t want;
  PMIx_Info_load(&want, PMIX_SETUP_APP_ENVARS, nullptr, PMIX_BOOL);
  AppResult r;
  ASSERT_EQ(PMIx_server_setup_application("app-ns", &want, 1, AppDone, &r), PMIX_SUCCESS);
  ASSERT_TRUE(r.Wait());
  EXPECT_EQ(r.status, PMIX_SUCCESS);
  EXPECT_NE(r.thread, std::this_thread::get_id());
  bool found = false;
  for (const auto& [name, value] : r.envars) found |= name == "PMIX_MCA_h5test_param" && value == "v1";
  EXPECT_TRUE(found);
  for (const auto& k : r.keys) EXPECT_EQ(k, PMIX_SET_ENVAR);
  PMIx_Info_destruct(&want);
  ::unsetenv("PMIX_MCA_h5test_param");
}

TEST_F(ServerApis, SetupApplicationWithoutEnvarsIsEmpty) {
  pmix_info_t nonenv;
  PMIx_Info_load(&nonenv, PMIX_SETUP_APP_NONENVARS, nullptr, PMIX_UNDEF);  // UNDEF reads as true
  AppResult r;
  ASSERT_EQ(PMIx_server_setup_application("app-ns", &nonenv, 1, AppDone, &r), PMIX_SUCCESS);
  ASSERT_TRUE(r.Wait());
  EXPECT_EQ(r.status, PMIX_SUCCESS);
  EXPECT_TRUE(r.keys.empty());
  EXPECT_EQ(PMIx_server_setup_application(nullptr, nullptr, 0, AppDone, &r), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_server_setup_application("app-ns", nullptr, 0, nullptr, nullptr),
            PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_server_setup_application("app-ns", nullptr, 2, AppDone, &r), PMIX_ERR_BAD_PARAM);
}

std::vector<std::string> ForkEnv(const char* nspace) {
  pmix_proc_t proc;
  PMIx_Load_procid(&proc, nspace, 0);
  char** env = nullptr;
  EXPECT_EQ(PMIx_server_setup_fork(&proc, &env), PMIX_SUCCESS);
  std::vector<std::string> out;
  for (size_t i = 0; env != nullptr && env[i] != nullptr; ++i) {
    if (std::strncmp(env[i], "H5_", 3) == 0) out.emplace_back(env[i]);
  }
  PMIx_Argv_free(env);
  return out;
}

// Runs check() in a forked child; its exit status (0: true), -1 when it
// did not end within 10 s.
int InForkedChild(bool (*check)()) {
  pid_t pid = ::fork();
  if (pid == 0) ::_exit(check() ? 0 : 1);
  for (int i = 0; i < 1000; ++i) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  return -1;
}

TEST_F(ServerApis, LocalSupportEnvarsReachTheNamespacesForkEnv) {
  pmix_envar_t set{const_cast<char*>("H5_A"), const_cast<char*>("1"), ':'};
  pmix_envar_t pre{const_cast<char*>("H5_A"), const_cast<char*>("0"), ','};
  pmix_info_t info[3];
  PMIx_Info_load(&info[0], PMIX_SET_ENVAR, &set, PMIX_ENVAR);
  PMIx_Info_load(&info[1], PMIX_PREPEND_ENVAR, &pre, PMIX_ENVAR);
  PMIx_Info_load(&info[2], PMIX_HOSTNAME, "ignored", PMIX_STRING);
  ASSERT_EQ(PMIx_server_register_nspace("ls-ns", 1, nullptr, 0, nullptr, nullptr), PMIX_SUCCESS);
  Arrival done;
  ASSERT_EQ(PMIx_server_setup_local_support("ls-ns", info, 3, OpDone, &done), PMIX_SUCCESS);
  ASSERT_TRUE(done.Wait());
  EXPECT_EQ(done.status, PMIX_SUCCESS);
  EXPECT_EQ(ForkEnv("ls-ns"), (std::vector<std::string>{"H5_A=0,1"}));
  EXPECT_TRUE(ForkEnv("other-ns").empty());
  // A second call (another application) adds; blocking without cbfunc.
  pmix_envar_t b{const_cast<char*>("H5_B"), const_cast<char*>("2"), ':'};
  pmix_info_t more;
  PMIx_Info_load(&more, PMIX_SET_ENVAR, &b, PMIX_ENVAR);
  ASSERT_EQ(PMIx_server_setup_local_support("ls-ns", &more, 1, nullptr, nullptr), PMIX_SUCCESS);
  EXPECT_EQ(ForkEnv("ls-ns"), (std::vector<std::string>{"H5_A=0,1", "H5_B=2"}));
  // Hosts (Slurm) call setup_fork in the forked child, where no progress
  // thread runs: the same answer there.
  EXPECT_EQ(InForkedChild([] {
              return ForkEnv("ls-ns") == std::vector<std::string>{"H5_A=0,1", "H5_B=2"};
            }),
            0);
  PMIx_server_deregister_nspace("ls-ns", nullptr, nullptr);
  EXPECT_TRUE(ForkEnv("ls-ns").empty());
  for (auto& i : info) PMIx_Info_destruct(&i);
  PMIx_Info_destruct(&more);
}

TEST_F(ServerApis, LocalSupportRejectsBadArguments) {
  pmix_info_t bad;
  PMIx_Info_load(&bad, PMIX_SET_ENVAR, "not-an-envar", PMIX_STRING);
  EXPECT_EQ(PMIx_server_setup_local_support("ls-ns", &bad, 1, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_server_setup_local_support(nullptr, nullptr, 0, nullptr, nullptr),
            PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_server_setup_local_support("ls-ns", nullptr, 1, nullptr, nullptr),
            PMIX_ERR_BAD_PARAM);
  PMIx_Info_destruct(&bad);
}

// --- inventory ----------------------------------------------------------------

struct InvResult : Arrival {
  pmix_info_t* info = nullptr;
  size_t ninfo = 0;
  pmix_release_cbfunc_t release = nullptr;
  void* release_data = nullptr;
};

void InvDone(pmix_status_t status, pmix_info_t* info, size_t ninfo, void* cbdata,
             pmix_release_cbfunc_t release, void* release_data) {
  auto* r = static_cast<InvResult*>(cbdata);
  {
    std::lock_guard<std::mutex> lock(r->mu);
    r->info = info;
    r->ninfo = ninfo;
    r->release = release;
    r->release_data = release_data;
    for (size_t i = 0; i < ninfo; ++i) r->keys.emplace_back(info[i].key);
  }
  r->Set(status);
}

TEST_F(ServerApis, CollectedInventoryDescribesTheNodeAndCanBeDelivered) {
  InvResult r;
  ASSERT_EQ(PMIx_server_collect_inventory(nullptr, 0, InvDone, &r), PMIX_SUCCESS);
  ASSERT_TRUE(r.Wait());
  ASSERT_EQ(r.status, PMIX_SUCCESS);
  ASSERT_GE(r.ninfo, 1u);
  EXPECT_STREQ(r.info[0].key, PMIX_HOSTNAME);
  EXPECT_STREQ(r.info[0].value.data.string, "h5-node");
  bool topo = false, memory = false;
  for (size_t i = 0; i < r.ninfo; ++i) {
    topo |= PMIX_CHECK_KEY(&r.info[i], PMIX_TOPOLOGY2) && r.info[i].value.type == PMIX_TOPO;
    memory |= PMIX_CHECK_KEY(&r.info[i], PMIX_AVAIL_PHYS_MEMORY) &&
              r.info[i].value.data.uint64 > 0;
  }
  EXPECT_TRUE(topo);
  EXPECT_TRUE(memory);
  // Deliver it back: stored under its hostname.
  ASSERT_EQ(PMIx_server_deliver_inventory(r.info, r.ninfo, nullptr, 0, nullptr, nullptr),
            PMIX_SUCCESS);
  size_t n = r.ninfo;
  ASSERT_NE(r.release, nullptr);
  r.release(r.release_data);
  EXPECT_EQ(OnServer<size_t>([](Server& s) {
              const wire::Infos* inv = Inventory(s, "h5-node");
              return inv == nullptr ? size_t{0} : inv->size();
            }),
            n);
  EXPECT_EQ(PMIx_server_collect_inventory(nullptr, 0, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(PMIx_server_deliver_inventory(nullptr, 1, nullptr, 0, nullptr, nullptr),
            PMIX_ERR_BAD_PARAM);
}

// --- IOF ------------------------------------------------------------------------

TEST_F(ServerApis, IofDeliverGoesToRegisteredSinksOnly) {
  pmix_proc_t src;
  PMIx_Load_procid(&src, "job", 3);
  pmix_byte_object_t bo{const_cast<char*>("out\n"), 4};
  // Nobody registered: success, nothing delivered.
  Arrival done;
  ASSERT_EQ(PMIx_server_IOF_deliver(&src, PMIX_FWD_STDOUT_CHANNEL, &bo, nullptr, 0, OpDone, &done),
            PMIX_SUCCESS);
  ASSERT_TRUE(done.Wait());
  EXPECT_EQ(done.status, PMIX_SUCCESS);
  auto got = std::make_shared<std::string>();
  OnServer<int>([got](Server& s) {
    pmix_proc_t all;
    PMIx_Load_procid(&all, "job", PMIX_RANK_WILDCARD);
    s.iof.Add({all}, PMIX_FWD_STDOUT_CHANNEL,
              [got](const IofChunk& c) { got->append(c.data.begin(), c.data.end()); });
    return 0;
  });
  EXPECT_EQ(PMIx_server_IOF_deliver(&src, PMIX_FWD_STDOUT_CHANNEL, &bo, nullptr, 0, nullptr, nullptr),
            PMIX_SUCCESS);
  EXPECT_EQ(PMIx_server_IOF_deliver(&src, PMIX_FWD_STDERR_CHANNEL, &bo, nullptr, 0, nullptr, nullptr),
            PMIX_SUCCESS);
  EXPECT_EQ(OnServer<std::string>([got](Server&) { return *got; }), "out\n");
  const struct {
    const pmix_proc_t* source;
    pmix_iof_channel_t channel;
    const pmix_byte_object_t* bo;
  } bad[] = {{nullptr, PMIX_FWD_STDOUT_CHANNEL, &bo},
             {&src, PMIX_FWD_STDOUT_CHANNEL, nullptr},
             {&src, PMIX_FWD_NO_CHANNELS, &bo},
             {&src, 0x100, &bo}};
  for (const auto& b : bad)
    EXPECT_EQ(PMIx_server_IOF_deliver(b.source, b.channel, b.bo, nullptr, 0, nullptr, nullptr),
              PMIX_ERR_BAD_PARAM);
}

// --- attribute registration --------------------------------------------------------

TEST_F(ServerApis, RegisteredAttributesAreKeptPerFunction) {
  char* attrs[] = {const_cast<char*>(PMIX_ALLOC_ID), const_cast<char*>(PMIX_ALLOC_NUM_NODES),
                   nullptr};
  EXPECT_EQ(PMIx_Register_attributes(const_cast<char*>("allocate"), attrs), PMIX_SUCCESS);
  EXPECT_EQ(PMIx_Register_attributes(const_cast<char*>("allocate"), attrs),
            PMIX_ERR_REPEAT_ATTR_REGISTRATION);
  EXPECT_EQ(PMIx_Register_attributes(const_cast<char*>("monitor"), nullptr), PMIX_SUCCESS);
  EXPECT_EQ(PMIx_Register_attributes(nullptr, attrs), PMIX_ERR_BAD_PARAM);
  auto names = OnServer<std::vector<std::string>>(
      [](Server&) { return RegisteredAttributes("allocate").value_or(std::vector<std::string>{}); });
  EXPECT_EQ(names, (std::vector<std::string>{PMIX_ALLOC_ID, PMIX_ALLOC_NUM_NODES}));
  auto functions = OnServer<std::vector<std::string>>([](Server&) { return RegisteredAttributeFunctions(); });
  EXPECT_EQ(functions, (std::vector<std::string>{"allocate", "monitor"}));
  EXPECT_FALSE(OnServer<bool>([](Server&) { return RegisteredAttributes("fence_nb").has_value(); }));
}

// --- allocation and monitoring (this process's own host answers) ------------------

TEST_F(ServerApis, AllocationGoesToTheHostWithTheRequestersIds) {
  uint64_t nodes = 2;
  uint32_t forged = ::getuid() + 1000;
  pmix_info_t info[2];
  PMIx_Info_load(&info[0], PMIX_ALLOC_NUM_NODES, &nodes, PMIX_UINT64);
  PMIx_Info_load(&info[1], PMIX_USERID, &forged, PMIX_UINT32);
  pmix_info_t* results = nullptr;
  size_t nresults = 0;
  ASSERT_EQ(PMIx_Allocation_request(PMIX_ALLOC_NEW, info, 2, &results, &nresults), PMIX_SUCCESS);
  ASSERT_EQ(nresults, 1u);
  EXPECT_STREQ(results[0].key, PMIX_ALLOC_ID);
  EXPECT_STREQ(results[0].value.data.string, "alloc-7");
  PMIx_Info_free(results, nresults);
  std::lock_guard<std::mutex> lock(g_host.mu);
  EXPECT_EQ(g_host.directive, PMIX_ALLOC_NEW);
  EXPECT_STREQ(g_host.requester.nspace, "h5-srv");
  EXPECT_EQ(g_host.keys, (std::vector<std::string>{PMIX_ALLOC_NUM_NODES, PMIX_USERID, PMIX_GRPID}));
  EXPECT_EQ(g_host.userids, (std::vector<uint32_t>{static_cast<uint32_t>(::getuid())}));
  for (auto& i : info) PMIx_Info_destruct(&i);
}

TEST_F(ServerApis, MonitorAndHeartbeatReachTheHost) {
  pmix_info_t monitor;
  PMIx_Info_load(&monitor, PMIX_MONITOR_HEARTBEAT, nullptr, PMIX_POINTER);
  uint32_t seconds = 5;
  pmix_info_t dirs[1];
  PMIx_Info_load(&dirs[0], PMIX_MONITOR_HEARTBEAT_TIME, &seconds, PMIX_UINT32);
  pmix_info_t* results = nullptr;
  size_t nresults = 7;
  ASSERT_EQ(PMIx_Process_monitor(&monitor, PMIX_MONITOR_HEARTBEAT_ALERT, dirs, 1, &results, &nresults),
            PMIX_SUCCESS);
  EXPECT_EQ(results, nullptr);
  EXPECT_EQ(nresults, 0u);
  {
    std::lock_guard<std::mutex> lock(g_host.mu);
    EXPECT_EQ(g_host.monitor_key, PMIX_MONITOR_HEARTBEAT);
    EXPECT_EQ(g_host.error, PMIX_MONITOR_HEARTBEAT_ALERT);
    EXPECT_EQ(g_host.keys,
              (std::vector<std::string>{PMIX_MONITOR_HEARTBEAT_TIME, PMIX_USERID, PMIX_GRPID}));
    g_host.heartbeats = 0;
  }
  PMIx_Heartbeat();
  PMIx_Heartbeat();
  // Heartbeats have no callback: wait until the host counted both.
  bool both = false;
  for (int i = 0; i < 1000 && !both; ++i) {
    {
      std::lock_guard<std::mutex> lock(g_host.mu);
      both = g_host.heartbeats == 2;
    }
    if (!both) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(both);
  EXPECT_EQ(PMIx_Process_monitor(nullptr, 0, nullptr, 0, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
  PMIx_Info_destruct(&monitor);
  PMIx_Info_destruct(&dirs[0]);
}

TEST_F(ServerApis, BadAllocationDirectivesAreRejected) {
  for (pmix_alloc_directive_t d : {0, 5, 127}) {
    EXPECT_EQ(PMIx_Allocation_request(d, nullptr, 0, nullptr, nullptr), PMIX_ERR_BAD_PARAM)
        << int(d);
  }
  EXPECT_EQ(PMIx_Allocation_request(PMIX_ALLOC_EXTEND, nullptr, 1, nullptr, nullptr),
            PMIX_ERR_BAD_PARAM);
}

class ServerWithoutUpcalls : public ServerApis {
 protected:
  void SetUp() override { Init(false); }
};

// Without a host upcall, allocation is not supported, while monitoring is
// the library's own (server_monitor.h): it checks the request as OpenPMIx
// does and declines only the monitors it does not know.
TEST_F(ServerWithoutUpcalls, AllocationIsNotSupportedAndTheLibraryMonitors) {
  EXPECT_EQ(PMIx_Allocation_request(PMIX_ALLOC_RELEASE, nullptr, 0, nullptr, nullptr),
            PMIX_ERR_NOT_SUPPORTED);
  pmix_info_t monitor;
  PMIx_Info_load(&monitor, PMIX_MONITOR_FILE, "/tmp/x", PMIX_STRING);
  // a file monitor that names no check (size, access, modify)
  EXPECT_EQ(PMIx_Process_monitor(&monitor, 0, nullptr, 0, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
  PMIx_Info_destruct(&monitor);
  bool yes = true;
  PMIx_Info_load(&monitor, PMIX_MONITOR_APP_CONTROL, &yes, PMIX_BOOL);
  EXPECT_EQ(PMIx_Process_monitor(&monitor, 0, nullptr, 0, nullptr, nullptr), PMIX_ERR_NOT_SUPPORTED);
  PMIx_Info_destruct(&monitor);
}

// --- before init ------------------------------------------------------------------

TEST(ServerApisBeforeInit, ReturnInit) {
  pmix_proc_t src;
  PMIx_Load_procid(&src, "job", 0);
  pmix_byte_object_t bo{const_cast<char*>("x"), 1};
  EXPECT_EQ(PMIx_server_setup_application("ns", nullptr, 0, AppDone, nullptr), PMIX_ERR_INIT);
  EXPECT_EQ(PMIx_server_setup_local_support("ns", nullptr, 0, nullptr, nullptr), PMIX_ERR_INIT);
  EXPECT_EQ(PMIx_server_collect_inventory(nullptr, 0, InvDone, nullptr), PMIX_ERR_INIT);
  EXPECT_EQ(PMIx_server_deliver_inventory(nullptr, 0, nullptr, 0, nullptr, nullptr), PMIX_ERR_INIT);
  EXPECT_EQ(PMIx_server_IOF_deliver(&src, PMIX_FWD_STDOUT_CHANNEL, &bo, nullptr, 0, nullptr, nullptr),
            PMIX_ERR_INIT);
  EXPECT_EQ(PMIx_Register_attributes(const_cast<char*>("allocate"), nullptr), PMIX_ERR_INIT);
  EXPECT_EQ(PMIx_Allocation_request(PMIX_ALLOC_NEW, nullptr, 0, nullptr, nullptr), PMIX_ERR_INIT);
}

// --- what init prepares ----------------------------------------------------------

class ServerInitPrepares : public test_support::InProcessServer {};

// The node-regex components are loaded at init (registrations parse maps
// with them, hosts generate regexes right after init), not by the first
// PMIx_generate_regex.
TEST_F(ServerInitPrepares, RegexComponents) {
  mca::CloseFramework("preg").ok();
  ASSERT_TRUE(mca::ListComponents("preg").empty());
  StartServer(false, {});
  bool any_selected = false;
  for (const mca::ComponentRecord& record : mca::ListComponents("preg"))
    any_selected = any_selected || record.selected;
  EXPECT_TRUE(any_selected);
  char* regex = nullptr;
  ASSERT_EQ(PMIx_generate_regex("n1,n2", &regex), PMIX_SUCCESS);
  free(regex);
}

}  // namespace
}  // namespace pmix::server
