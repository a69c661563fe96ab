// A gtest fixture base for tests that run a real server in the test process:
// StartServer() calls PMIx_server_init with the fixture's host upcalls (or
// none) and string-valued init attributes; TearDown() finalizes it again
// (only if it started). Test programs using it link with -Wl,--export-dynamic: the
// server's dlopen'd components resolve the PMIx_* API against the executable.
// One server per process at a time: the tests of a fixture run one by one.
// RunOp waits for a server operation's callback.
#ifndef PMIXX_TEST_UNIT_SERVER_IN_PROCESS_SERVER_H
#define PMIXX_TEST_UNIT_SERVER_IN_PROCESS_SERVER_H

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "pmix.h"
#include "pmix_server.h"

namespace pmix::test_support {

// Runs a server operation that completes through a pmix_op_cbfunc_t:
// call(cbfunc, cbdata) starts it; returns its immediate error, or the status
// its callback gives (PMIX_ERR_TIMEOUT when that does not come within 10 s).
template <typename Fn>
pmix_status_t RunOp(Fn call) {
  std::promise<pmix_status_t> done;
  auto cb = [](pmix_status_t st, void* cbdata) {
    static_cast<std::promise<pmix_status_t>*>(cbdata)->set_value(st);
  };
  auto result = done.get_future();
  pmix_status_t rc = call(+cb, &done);
  if (rc != PMIX_SUCCESS) return rc;
  if (result.wait_for(std::chrono::seconds(10)) != std::future_status::ready)
    return PMIX_ERR_TIMEOUT;
  return result.get();
}

// Registers namespace `nspace` of `nprocs` ranks, all on this node (job
// size, local size and local peers as a host gives them), and each rank r
// as a client of uid uid_of(r) and this process's gid; the first failing
// status, or PMIX_SUCCESS.
template <typename UidOf>
pmix_status_t RegisterLocalJob(const char* nspace, uint32_t nprocs, UidOf uid_of) {
  std::string peers;
  for (uint32_t r = 0; r < nprocs; ++r) peers += (r == 0 ? "" : ",") + std::to_string(r);
  pmix_info_t job[3];
  PMIx_Info_load(&job[0], PMIX_JOB_SIZE, &nprocs, PMIX_UINT32);
  PMIx_Info_load(&job[1], PMIX_LOCAL_SIZE, &nprocs, PMIX_UINT32);
  PMIx_Info_load(&job[2], PMIX_LOCAL_PEERS, peers.c_str(), PMIX_STRING);
  pmix_status_t rc = RunOp([&](pmix_op_cbfunc_t cb, void* cbdata) {
    return PMIx_server_register_nspace(nspace, static_cast<int>(nprocs), job, 3, cb, cbdata);
  });
  for (pmix_info_t& i : job) PMIx_Info_destruct(&i);
  for (uint32_t r = 0; r < nprocs && rc == PMIX_SUCCESS; ++r) {
    pmix_proc_t p;
    PMIx_Load_procid(&p, nspace, r);
    rc = RunOp([&](pmix_op_cbfunc_t cb, void* cbdata) {
      return PMIx_server_register_client(&p, uid_of(r), ::getgid(), nullptr, cb, cbdata);
    });
  }
  return rc;
}

class InProcessServer : public ::testing::Test {
 protected:
  // The fixture's host upcalls: sets them in `module` (all NULL before).
  virtual void AddUpcalls(pmix_server_module_t* module) { (void)module; }

  // Starts the server with AddUpcalls' module (with_upcalls) or one with no
  // upcalls at all, and the given (attribute, string value) pairs; a
  // failure fails the test.
  void StartServer(bool with_upcalls,
                   std::initializer_list<std::pair<const char*, const char*>> attributes) {
    pmix_server_module_t module{};
    if (with_upcalls) AddUpcalls(&module);
    std::vector<pmix_info_t> info(attributes.size());
    size_t n = 0;
    for (const auto& [key, value] : attributes) PMIx_Info_load(&info[n++], key, value, PMIX_STRING);
    pmix_status_t rc = PMIx_server_init(&module, info.data(), info.size());
    for (pmix_info_t& i : info) PMIx_Info_destruct(&i);
    ASSERT_EQ(rc, PMIX_SUCCESS);
    started_ = true;
  }

  // The same with ready-made attributes of any type (the caller keeps and
  // destructs them).
  void StartServerWith(bool with_upcalls, pmix_info_t* info, size_t ninfo) {
    pmix_server_module_t module{};
    if (with_upcalls) AddUpcalls(&module);
    ASSERT_EQ(PMIx_server_init(&module, info, ninfo), PMIX_SUCCESS);
    started_ = true;
  }

  void TearDown() override {
    if (started_) {
      EXPECT_EQ(PMIx_server_finalize(), PMIX_SUCCESS);
    }
    started_ = false;
  }

 private:
  bool started_ = false;
};

}  // namespace pmix::test_support

#endif  // PMIXX_TEST_UNIT_SERVER_IN_PROCESS_SERVER_H
