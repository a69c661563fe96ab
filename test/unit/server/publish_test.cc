// Publish / lookup / unpublish made by a server process itself: they go to
// its own host's upcalls (src/server/server_publish.h), with the
// requester's ids; and the lookup reply encoding.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "pmix.h"
#include "pmix_server.h"
#include "src/server/server_publish.h"
#include "test/unit/server/in_process_server.h"

namespace pmix::server {
namespace {

// What the host's upcalls saw (they run on the progress thread).
struct HostLog {
  std::mutex mu;
  pmix_proc_t requester{};
  std::vector<std::string> keys;  // lookup / unpublish keys
  bool null_keys = false;
  std::vector<std::string> info_keys;
  std::vector<uint32_t> userids, grpids;
  std::thread answerer;  // a lookup answered from another thread
} g_host;

void Record(const pmix_proc_t* who, char** keys, const pmix_info_t* info, size_t n) {
  std::lock_guard<std::mutex> lock(g_host.mu);
  g_host.requester = *who;
  g_host.keys.clear();
  g_host.null_keys = keys == nullptr;
  for (size_t i = 0; keys != nullptr && keys[i] != nullptr; ++i) g_host.keys.emplace_back(keys[i]);
  g_host.info_keys.clear();
  g_host.userids.clear();
  g_host.grpids.clear();
  for (size_t i = 0; i < n; ++i) {
    g_host.info_keys.emplace_back(info[i].key);
    if (PMIX_CHECK_KEY(&info[i], PMIX_USERID)) g_host.userids.push_back(info[i].value.data.uint32);
    if (PMIX_CHECK_KEY(&info[i], PMIX_GRPID)) g_host.grpids.push_back(info[i].value.data.uint32);
  }
}

pmix_status_t HostPublish(const pmix_proc_t* proc, const pmix_info_t info[], size_t ninfo,
                          pmix_op_cbfunc_t cbfunc, void* cbdata) {
  Record(proc, nullptr, info, ninfo);
  if (ninfo > 0 && PMIX_CHECK_KEY(&info[0], "dup")) return PMIX_ERR_DUPLICATE_KEY;
  cbfunc(PMIX_SUCCESS, cbdata);  // from inside the upcall
  return PMIX_SUCCESS;
}

// Finds "a" (published by x:3), nothing else; answers from another thread.
pmix_status_t HostLookup(const pmix_proc_t* proc, char** keys, const pmix_info_t info[],
                         size_t ninfo, pmix_lookup_cbfunc_t cbfunc, void* cbdata) {
  Record(proc, keys, info, ninfo);
  std::lock_guard<std::mutex> lock(g_host.mu);
  if (g_host.answerer.joinable()) g_host.answerer.join();
  g_host.answerer = std::thread([cbfunc, cbdata] {
    pmix_pdata_t found;
    PMIx_Pdata_construct(&found);
    pmix_proc_t x;
    PMIx_Load_procid(&x, "x", 3);
    found.proc = x;
    PMIx_Load_key(found.key, "a");
    PMIx_Value_load(&found.value, "value-a", PMIX_STRING);
    cbfunc(PMIX_SUCCESS, &found, 1, cbdata);
    PMIx_Pdata_destruct(&found);
  });
  return PMIX_SUCCESS;
}

pmix_status_t HostUnpublish(const pmix_proc_t* proc, char** keys, const pmix_info_t info[],
                            size_t ninfo, pmix_op_cbfunc_t, void*) {
  Record(proc, keys, info, ninfo);
  return PMIX_OPERATION_SUCCEEDED;
}

class PublishInServer : public test_support::InProcessServer {
 protected:
  void AddUpcalls(pmix_server_module_t* module) override {
    module->publish = HostPublish;
    module->lookup = HostLookup;
    module->unpublish = HostUnpublish;
  }
  void Init(bool with_upcalls) { StartServer(with_upcalls, {{PMIX_SERVER_NSPACE, "h1-srv"}}); }
  void TearDown() override {
    InProcessServer::TearDown();
    std::lock_guard<std::mutex> lock(g_host.mu);
    if (g_host.answerer.joinable()) g_host.answerer.join();
  }
};

// PMIx_Publish of the one string value `key` = "v".
pmix_status_t PublishOne(const char* key) {
  pmix_info_t info;
  PMIx_Info_load(&info, key, "v", PMIX_STRING);
  pmix_status_t rc = PMIx_Publish(&info, 1);
  PMIx_Info_destruct(&info);
  return rc;
}

TEST_F(PublishInServer, PublishReachesOwnHostWithTrueIds) {
  Init(true);
  uint32_t forged = getuid() + 4242;
  pmix_info_t info[2];
  PMIx_Info_load(&info[0], "k", "v", PMIX_STRING);
  PMIx_Info_load(&info[1], PMIX_USERID, &forged, PMIX_UINT32);
  EXPECT_EQ(PMIx_Publish(info, 2), PMIX_SUCCESS);
  for (auto& i : info) PMIx_Info_destruct(&i);
  std::lock_guard<std::mutex> lock(g_host.mu);
  EXPECT_STREQ(g_host.requester.nspace, "h1-srv");
  EXPECT_EQ(g_host.info_keys.front(), "k");
  ASSERT_EQ(g_host.userids.size(), 1u);
  EXPECT_EQ(g_host.userids[0], getuid());
  ASSERT_EQ(g_host.grpids.size(), 1u);
  EXPECT_EQ(g_host.grpids[0], getgid());
}

TEST_F(PublishInServer, HostErrorIsReturned) {
  Init(true);
  EXPECT_EQ(PublishOne("dup"), PMIX_ERR_DUPLICATE_KEY);
}

TEST_F(PublishInServer, LookupFillsFoundAndMarksMissing) {
  Init(true);
  pmix_pdata_t pdata[2];
  PMIx_Pdata_construct(&pdata[0]);
  PMIx_Pdata_construct(&pdata[1]);
  PMIx_Load_key(pdata[0].key, "b");
  PMIx_Load_key(pdata[1].key, "a");
  EXPECT_EQ(PMIx_Lookup(pdata, 2, nullptr, 0), PMIX_ERR_PARTIAL_SUCCESS);
  EXPECT_EQ(pdata[0].value.type, PMIX_UNDEF);
  ASSERT_EQ(pdata[1].value.type, PMIX_STRING);
  EXPECT_STREQ(pdata[1].value.data.string, "value-a");
  EXPECT_STREQ(pdata[1].proc.nspace, "x");
  EXPECT_EQ(pdata[1].proc.rank, 3u);
  PMIx_Pdata_destruct(&pdata[0]);
  PMIx_Pdata_destruct(&pdata[1]);
  std::lock_guard<std::mutex> lock(g_host.mu);
  EXPECT_EQ(g_host.keys, (std::vector<std::string>{"b", "a"}));
}

struct NbResult {
  std::mutex mu;
  bool done = false;
  pmix_status_t status = PMIX_ERROR;
  std::vector<std::string> keys;
};

void LookupDone(pmix_status_t status, pmix_pdata_t data[], size_t ndata, void* cbdata) {
  auto* r = static_cast<NbResult*>(cbdata);
  std::lock_guard<std::mutex> lock(r->mu);
  for (size_t i = 0; i < ndata; ++i) r->keys.emplace_back(data[i].key);
  r->status = status;
  r->done = true;
}

TEST_F(PublishInServer, LookupNbGetsOnlyWhatWasFound) {
  Init(true);
  NbResult r;
  char* keys[] = {const_cast<char*>("a"), const_cast<char*>("zz"), nullptr};
  ASSERT_EQ(PMIx_Lookup_nb(keys, nullptr, 0, LookupDone, &r), PMIX_SUCCESS);
  for (int i = 0; i < 1000; ++i) {
    {
      std::lock_guard<std::mutex> lock(r.mu);
      if (r.done) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::lock_guard<std::mutex> lock(r.mu);
  ASSERT_TRUE(r.done);
  EXPECT_EQ(r.status, PMIX_ERR_PARTIAL_SUCCESS);
  EXPECT_EQ(r.keys, (std::vector<std::string>{"a"}));
}

TEST_F(PublishInServer, UnpublishPassesKeysOrNull) {
  Init(true);
  EXPECT_EQ(PMIx_Unpublish(nullptr, nullptr, 0), PMIX_SUCCESS);
  {
    std::lock_guard<std::mutex> lock(g_host.mu);
    EXPECT_TRUE(g_host.null_keys);
  }
  char* keys[] = {const_cast<char*>("k1"), const_cast<char*>("k2"), nullptr};
  EXPECT_EQ(PMIx_Unpublish(keys, nullptr, 0), PMIX_SUCCESS);
  std::lock_guard<std::mutex> lock(g_host.mu);
  EXPECT_EQ(g_host.keys, (std::vector<std::string>{"k1", "k2"}));
}

TEST_F(PublishInServer, NoUpcallIsNotSupported) {
  Init(false);
  EXPECT_EQ(PublishOne("k"), PMIX_ERR_NOT_SUPPORTED);
  pmix_pdata_t pdata;
  PMIx_Pdata_construct(&pdata);
  PMIx_Load_key(pdata.key, "k");
  EXPECT_EQ(PMIx_Lookup(&pdata, 1, nullptr, 0), PMIX_ERR_NOT_SUPPORTED);
  EXPECT_EQ(PMIx_Unpublish(nullptr, nullptr, 0), PMIX_ERR_NOT_SUPPORTED);
}

TEST(PublishEncoding, FoundRoundTrips) {
  LookupFound found;
  int v = 7;
  ASSERT_TRUE(found.data.Add("n", &v, PMIX_INT).ok());
  pmix_proc_t p;
  PMIx_Load_procid(&p, "ns", 5);
  found.publishers.push_back(p);
  auto infos = EncodeFound(found);
  ASSERT_TRUE(infos.ok());
  EXPECT_EQ(infos->size(), 2u);
  auto back = DecodeFound(infos->view());
  ASSERT_TRUE(back.ok());
  ASSERT_EQ(back->data.size(), 1u);
  EXPECT_STREQ(back->data.view()[0].key, "n");
  EXPECT_EQ(back->data.view()[0].value.data.integer, 7);
  EXPECT_STREQ(back->publishers[0].nspace, "ns");
  EXPECT_EQ(back->publishers[0].rank, 5u);
}

TEST(PublishEncoding, MalformedRepliesAreRejected) {
  wire::Infos odd;
  int v = 1;
  ASSERT_TRUE(odd.Add("n", &v, PMIX_INT).ok());
  EXPECT_EQ(DecodeFound(odd.view()).status().code(), PMIX_ERR_UNPACK_FAILURE);
  ASSERT_TRUE(odd.Add("not-a-procid", &v, PMIX_INT).ok());
  EXPECT_EQ(DecodeFound(odd.view()).status().code(), PMIX_ERR_UNPACK_FAILURE);
  EXPECT_TRUE(DecodeFound({}).ok());
}

TEST(PublishKeys, Validity) {
  std::string longest(PMIX_MAX_KEYLEN, 'k');
  EXPECT_TRUE(ValidPubsubKey(longest.c_str()));
  EXPECT_FALSE(ValidPubsubKey((longest + "k").c_str()));
  EXPECT_FALSE(ValidPubsubKey(""));
  EXPECT_FALSE(ValidPubsubKey(nullptr));
}

}  // namespace
}  // namespace pmix::server
