// A process that is only a server asks about itself (PMIx_Get, as mpirun
// and orted do), and the server keys every namespace's job info carries
// (server_identity.h): what OpenPMIx 4.2.2 answers, measured (the default
// namespace "pmix-server" and rank <pid>, PMIX_PROCID with a NULL proc, the
// server's URI under its own id), plus the keys the standard names.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "pmix.h"
#include "pmix_server.h"
#include "test/unit/server/in_process_server.h"

namespace pmix::server {
namespace {

class ServerIdentity : public test_support::InProcessServer {
 protected:
  // The string value of key about proc (NULL: the server itself); "" on error.
  static std::string GetString(const pmix_proc_t* proc, const char* key) {
    pmix_value_t* v = nullptr;
    pmix_status_t rc = PMIx_Get(proc, key, nullptr, 0, &v);
    if (rc != PMIX_SUCCESS || v == nullptr || v->type != PMIX_STRING || v->data.string == nullptr) {
      if (v != nullptr) PMIx_Value_free(v, 1);
      return "";
    }
    std::string out = v->data.string;
    PMIx_Value_free(v, 1);
    return out;
  }

  static pmix_proc_t Me() {
    pmix_value_t* v = nullptr;
    pmix_proc_t me{};
    EXPECT_EQ(PMIx_Get(nullptr, PMIX_PROCID, nullptr, 0, &v), PMIX_SUCCESS);
    if (v != nullptr && v->type == PMIX_PROC) me = *v->data.proc;
    if (v != nullptr) PMIx_Value_free(v, 1);
    return me;
  }
};

// OpenPMIx 4.2.2 (measured): namespace "pmix-server", rank the pid.
TEST_F(ServerIdentity, DefaultIdentityIsPmixServerAndThePid) {
  StartServer(false, {});
  pmix_proc_t me = Me();
  EXPECT_STREQ(me.nspace, "pmix-server");
  EXPECT_EQ(me.rank, static_cast<pmix_rank_t>(getpid()));
  // PMIX_PROCID names the caller whatever the proc (standard §6.1.4).
  pmix_value_t* v = nullptr;
  ASSERT_EQ(PMIx_Get(&me, PMIX_PROCID, nullptr, 0, &v), PMIX_SUCCESS);
  EXPECT_TRUE(PMIx_Check_procid(v->data.proc, &me));
  PMIx_Value_free(v, 1);
}

TEST_F(ServerIdentity, AnswersAboutItsOwnProcess) {
  StartServer(false, {{PMIX_SERVER_NSPACE, "host-srv"}, {PMIX_HOSTNAME, "node7"}});
  pmix_proc_t me = Me();
  EXPECT_STREQ(me.nspace, "host-srv");
  EXPECT_EQ(GetString(&me, PMIX_HOSTNAME), "node7");
  EXPECT_EQ(GetString(&me, PMIX_SERVER_HOSTNAME), "node7");
  EXPECT_EQ(GetString(nullptr, PMIX_NSPACE), "host-srv");
  EXPECT_EQ(GetString(&me, PMIX_SERVER_NSPACE), "host-srv");
  EXPECT_NE(GetString(&me, PMIX_SERVER_URI), "");  // how tools reach it
  EXPECT_NE(GetString(&me, PMIX_SERVER_TMPDIR), "");
  pmix_value_t* v = nullptr;
  ASSERT_EQ(PMIx_Get(&me, PMIX_SERVER_RANK, nullptr, 0, &v), PMIX_SUCCESS);
  EXPECT_EQ(v->type, PMIX_PROC_RANK);
  EXPECT_EQ(v->data.rank, static_cast<pmix_rank_t>(getpid()));  // no PMIX_SERVER_RANK given
  PMIx_Value_free(v, 1);
}

TEST_F(ServerIdentity, FailedGetLeavesValueNull) {
  StartServer(false, {});
  pmix_proc_t me = Me();
  auto* garbage = reinterpret_cast<pmix_value_t*>(uintptr_t{1});
  pmix_value_t* v = garbage;
  EXPECT_EQ(PMIx_Get(&me, "no.such.key", nullptr, 0, &v), PMIX_ERR_NOT_FOUND);
  EXPECT_EQ(v, nullptr);
  pmix_proc_t stranger{};
  PMIx_Load_procid(&stranger, "nobody", 0);
  v = garbage;
  EXPECT_NE(PMIx_Get(&stranger, PMIX_JOB_SIZE, nullptr, 0, &v), PMIX_SUCCESS);
  EXPECT_EQ(v, nullptr);
}

// Its own topology: OpenPMIx 4.2.2's server records the topology it loads
// at init under its own id (OpenPMIx's test/simple/simpfabric, a scheduler
// server, reads it so). Releasing the value keeps the process topology.
TEST_F(ServerIdentity, AnswersItsOwnTopology) {
  StartServer(false, {});
  pmix_proc_t me = Me();
  for (int round = 0; round < 2; ++round) {
    pmix_value_t* v = nullptr;
    ASSERT_EQ(PMIx_Get(&me, PMIX_TOPOLOGY2, nullptr, 0, &v), PMIX_SUCCESS);
    ASSERT_EQ(v->type, PMIX_TOPO);
    ASSERT_NE(v->data.topo, nullptr);
    EXPECT_NE(v->data.topo->topology, nullptr);
    ASSERT_NE(v->data.topo->source, nullptr);
    EXPECT_EQ(std::string(v->data.topo->source).rfind("hwloc", 0), 0u) << v->data.topo->source;
    PMIx_Value_free(v, 1);
  }
  pmix_proc_t stranger{};
  PMIx_Load_procid(&stranger, "nobody", 0);
  pmix_value_t* v = nullptr;
  EXPECT_NE(PMIx_Get(&stranger, PMIX_TOPOLOGY2, nullptr, 0, &v), PMIX_SUCCESS);
  EXPECT_EQ(v, nullptr);
}

using test_support::RunOp;

TEST_F(ServerIdentity, JobInfoCarriesTheServerKeys) {
  StartServer(false, {{PMIX_SERVER_NSPACE, "srv-ns"}, {PMIX_HOSTNAME, "node3"}});
  uint32_t one = 1;
  pmix_info_t info[2];
  PMIx_Info_load(&info[0], PMIX_JOB_SIZE, &one, PMIX_UINT32);
  PMIx_Info_load(&info[1], PMIX_SERVER_HOSTNAME, "given-by-host", PMIX_STRING);
  ASSERT_EQ(RunOp([&](pmix_op_cbfunc_t cb, void* cbdata) {
              return PMIx_server_register_nspace("job-k", 1, info, 2, cb, cbdata);
            }),
            PMIX_SUCCESS);
  pmix_proc_t job{};
  PMIx_Load_procid(&job, "job-k", PMIX_RANK_WILDCARD);
  EXPECT_EQ(GetString(&job, PMIX_SERVER_NSPACE), "srv-ns");
  EXPECT_EQ(GetString(&job, PMIX_SERVER_HOSTNAME), "given-by-host");  // the host's value wins
  EXPECT_EQ(GetString(&job, PMIX_SERVER_URI), GetString(nullptr, PMIX_SERVER_URI));
  EXPECT_NE(GetString(&job, PMIX_SERVER_URI), "");
  pmix_value_t* v = nullptr;
  ASSERT_EQ(PMIx_Get(&job, PMIX_SERVER_RANK, nullptr, 0, &v), PMIX_SUCCESS);
  EXPECT_EQ(v->data.rank, static_cast<pmix_rank_t>(getpid()));
  PMIx_Value_free(v, 1);
  for (auto& i : info) PMIx_Info_destruct(&i);
  EXPECT_EQ(RunOp([](pmix_op_cbfunc_t cb, void* cbdata) {
              PMIx_server_deregister_nspace("job-k", cb, cbdata);
              return PMIX_SUCCESS;
            }),
            PMIX_SUCCESS);
}

// A tool-enabled server (PMIX_SERVER_TOOL_SUPPORT): the PMIX_SERVER_URI its
// clients find in the job info is the URI tools are told (the
// PMIX_TCP_REPORT_URI file, "<nspace>.<rank>;tcp4://..." as OpenPMIx
// writes it), and the server answers it about itself, PMIX_MYSERVER_URI too.
class ToolEnabledServerIdentity : public ServerIdentity {
 protected:
  void TearDown() override {
    ServerIdentity::TearDown();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  std::string dir_;
};

TEST_F(ToolEnabledServerIdentity, JobInfoServerUriIsTheOneToolsAreTold) {
  std::string tmpl = ::testing::TempDir() + "pmixx-identity-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  dir_ = tmpl;
  const std::string report = dir_ + "/uri";
  bool yes = true;
  pmix_info_t info[5];
  PMIx_Info_load(&info[0], PMIX_SERVER_TMPDIR, dir_.c_str(), PMIX_STRING);
  PMIx_Info_load(&info[1], PMIX_SYSTEM_TMPDIR, dir_.c_str(), PMIX_STRING);
  PMIx_Info_load(&info[2], PMIX_SERVER_NSPACE, "tool-srv", PMIX_STRING);
  PMIx_Info_load(&info[3], PMIX_SERVER_TOOL_SUPPORT, &yes, PMIX_BOOL);
  PMIx_Info_load(&info[4], PMIX_TCP_REPORT_URI, report.c_str(), PMIX_STRING);
  StartServerWith(false, info, 5);
  for (auto& i : info) PMIx_Info_destruct(&i);
  std::string reported;
  std::ifstream(report) >> reported;
  EXPECT_EQ(reported.rfind("tool-srv." + std::to_string(getpid()) + ";tcp4://", 0), 0u) << reported;

  uint32_t one = 1;
  pmix_info_t job_info;
  PMIx_Info_load(&job_info, PMIX_JOB_SIZE, &one, PMIX_UINT32);
  ASSERT_EQ(RunOp([&](pmix_op_cbfunc_t cb, void* cbdata) {
              return PMIx_server_register_nspace("job-t", 1, &job_info, 1, cb, cbdata);
            }),
            PMIX_SUCCESS);
  PMIx_Info_destruct(&job_info);
  pmix_proc_t job{};
  PMIx_Load_procid(&job, "job-t", PMIX_RANK_WILDCARD);
  EXPECT_EQ(GetString(&job, PMIX_SERVER_URI), reported);
  EXPECT_EQ(GetString(&job, PMIX_SERVER_NSPACE), "tool-srv");
  EXPECT_EQ(GetString(nullptr, PMIX_SERVER_URI), reported);
  EXPECT_EQ(GetString(nullptr, PMIX_MYSERVER_URI), reported);
  EXPECT_EQ(RunOp([](pmix_op_cbfunc_t cb, void* cbdata) {
              PMIx_server_deregister_nspace("job-t", cb, cbdata);
              return PMIX_SUCCESS;
            }),
            PMIX_SUCCESS);
}

}  // namespace
}  // namespace pmix::server

namespace pmix::server {
namespace {

// PMIx_server_init honours or clearly refuses a required attribute: one
// it does not act on fails the init with PMIX_ERR_NOT_SUPPORTED (and
// leaves no server behind); the same attribute optional is ignored.
TEST(ServerInitAttributes, RequiredUnsupportedAttributeIsRefused) {
  pmix_server_module_t module{};
  pmix_info_t info;
  bool yes = true;
  PMIx_Info_load(&info, PMIX_SERVER_SCHEDULER, &yes, PMIX_BOOL);
  info.flags |= PMIX_INFO_REQD;
  EXPECT_EQ(PMIx_server_init(&module, &info, 1), PMIX_ERR_NOT_SUPPORTED);
  EXPECT_EQ(PMIx_server_finalize(), PMIX_ERR_INIT);
  info.flags &= ~PMIX_INFO_REQD;
  ASSERT_EQ(PMIx_server_init(&module, &info, 1), PMIX_SUCCESS);
  EXPECT_EQ(PMIx_server_finalize(), PMIX_SUCCESS);
  PMIx_Info_destruct(&info);
  PMIx_Info_load(&info, PMIX_SERVER_NSPACE, "required-ns", PMIX_STRING);
  info.flags |= PMIX_INFO_REQD;
  ASSERT_EQ(PMIx_server_init(&module, &info, 1), PMIX_SUCCESS);
  EXPECT_EQ(PMIx_server_finalize(), PMIX_SUCCESS);
  PMIx_Info_destruct(&info);
}

}  // namespace
}  // namespace pmix::server
