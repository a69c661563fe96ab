// What a namespace's job data is ingested from (registration_input.h): an
// InfoAssembly's parts and owned values, and through a real server the
// registration it assembles -- the host's array read in place until the
// callback, resources the array does not override, the server's keys, a
// re-registration adding to the first.
#include "src/server/registration_input.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include "pmix.h"
#include "pmix_server.h"
#include "test/unit/server/in_process_server.h"

namespace pmix::server {
namespace {

pmix_info_t Str(const char* key, const char* value) {
  pmix_info_t info;
  PMIx_Info_construct(&info);
  PMIx_Info_load(&info, key, value, PMIX_STRING);
  return info;
}

std::vector<std::string> Keys(const InfoAssembly& a) {
  std::vector<std::string> out;
  for (const auto& part : a.parts()) {
    for (const pmix_info_t& i : part) out.emplace_back(i.key);
  }
  return out;
}

TEST(InfoAssembly, ConsecutiveBorrowsOfOneArrayStayOnePart) {
  pmix_info_t infos[3] = {Str("a", "1"), Str("b", "2"), Str("c", "3")};
  InfoAssembly a;
  a.Borrow(infos[0]);
  a.Borrow(infos[1]);
  a.BorrowAll(std::span<const pmix_info_t>(&infos[2], 1));
  EXPECT_EQ(a.parts().size(), 1u);
  EXPECT_EQ(a.parts()[0].data(), infos);  // borrowed, not copied
  EXPECT_EQ(a.size(), 3u);
  a.Borrow(infos[0]);  // not adjacent: a new part
  EXPECT_EQ(a.parts().size(), 2u);
  EXPECT_EQ(Keys(a), (std::vector<std::string>{"a", "b", "c", "a"}));
  a.BorrowAll({});  // nothing
  EXPECT_EQ(a.parts().size(), 2u);
  for (pmix_info_t& i : infos) PMIx_Info_destruct(&i);
}

TEST(InfoAssembly, AdoptedValuesLiveWithTheAssembly) {
  InfoAssembly a;
  {
    wire::Infos owned;
    ASSERT_TRUE(owned.Add("x", "kept", PMIX_STRING).ok());
    a.Adopt(std::move(owned));
    wire::Infos array;
    ASSERT_TRUE(array.Add("inner", "deep", PMIX_STRING).ok());
    a.AdoptArray(PMIX_PROC_DATA, std::move(array));
  }
  InfoAssembly moved = std::move(a);  // parts keep pointing at the owned values
  ASSERT_EQ(moved.size(), 2u);
  EXPECT_EQ(Keys(moved), (std::vector<std::string>{"x", PMIX_PROC_DATA}));
  const pmix_info_t& x = moved.parts()[0][0];
  EXPECT_STREQ(x.value.data.string, "kept");
  const pmix_info_t& proc = moved.parts().back().back();
  ASSERT_EQ(proc.value.type, PMIX_DATA_ARRAY);
  ASSERT_EQ(proc.value.data.darray->type, PMIX_INFO);
  ASSERT_EQ(proc.value.data.darray->size, 1u);
  auto* inner = static_cast<const pmix_info_t*>(proc.value.data.darray->array);
  EXPECT_STREQ(inner[0].key, "inner");
  EXPECT_STREQ(inner[0].value.data.string, "deep");
}

TEST(InfoAssembly, HasSearchesFromAPart) {
  pmix_info_t first = Str("early", "1");
  pmix_info_t second = Str("late", "2");
  InfoAssembly a;
  a.Borrow(first);
  a.Borrow(second);
  size_t parts = a.parts().size();
  EXPECT_TRUE(a.Has("early"));
  EXPECT_TRUE(a.Has("late"));
  EXPECT_FALSE(a.Has("none"));
  EXPECT_FALSE(a.Has("early", parts));
  EXPECT_FALSE(a.Has("late", parts));
  PMIx_Info_destruct(&first);
  PMIx_Info_destruct(&second);
}

class Registration : public test_support::InProcessServer {
 protected:
  static std::string GetString(const char* nspace, const char* key) {
    pmix_proc_t job;
    PMIx_Load_procid(&job, nspace, PMIX_RANK_WILDCARD);
    pmix_value_t* v = nullptr;
    pmix_status_t rc = PMIx_Get(&job, key, nullptr, 0, &v);
    std::string out;
    if (rc == PMIX_SUCCESS && v != nullptr && v->type == PMIX_STRING && v->data.string != nullptr)
      out = v->data.string;
    if (v != nullptr) PMIx_Value_free(v, 1);
    return out;
  }
};

struct Done {
  std::atomic<int> calls{0};
  std::atomic<pmix_status_t> status{PMIX_ERROR};
};

void OnDone(pmix_status_t status, void* cbdata) {
  auto* done = static_cast<Done*>(cbdata);
  done->status = status;
  done->calls++;
}

void Wait(const Done& done) {
  for (int i = 0; i < 10000 && done.calls == 0; ++i) usleep(1000);
}

TEST_F(Registration, ResourcesServerKeysAndReRegistrationAddUp) {
  StartServer(false, {{PMIX_HOSTNAME, "n0"}, {PMIX_SERVER_NSPACE, "srv"}});
  pmix_info_t resources[2] = {Str("test.res.kept", "resource"), Str("test.res.mine", "resource")};
  ASSERT_EQ(PMIx_server_register_resources(resources, 2, nullptr, nullptr), PMIX_SUCCESS);
  for (pmix_info_t& i : resources) PMIx_Info_destruct(&i);

  // Non-blocking: the array is read until the callback, then freed here.
  std::vector<pmix_info_t> info = {Str("test.res.mine", "host"), Str("test.first", "one"),
                                   Str(PMIX_NODE_MAP, "n0"), Str(PMIX_PROC_MAP, "0,1")};
  Done done;
  ASSERT_EQ(PMIx_server_register_nspace("reg-ns", 2, info.data(), info.size(), OnDone, &done),
            PMIX_SUCCESS);
  Wait(done);
  ASSERT_EQ(done.calls, 1);
  ASSERT_EQ(done.status, PMIX_SUCCESS);
  for (pmix_info_t& i : info) PMIx_Info_destruct(&i);
  EXPECT_EQ(GetString("reg-ns", "test.first"), "one");
  EXPECT_EQ(GetString("reg-ns", "test.res.kept"), "resource");
  EXPECT_EQ(GetString("reg-ns", "test.res.mine"), "host");  // the namespace's own value wins
  EXPECT_EQ(GetString("reg-ns", PMIX_SERVER_NSPACE), "srv");
  EXPECT_EQ(GetString("reg-ns", PMIX_HOSTNAME), "");  // a node key, not at job level

  // Again: adds to the first registration; a later value of a key wins.
  pmix_info_t again[2] = {Str("test.second", "two"), Str("test.first", "uno")};
  ASSERT_EQ(PMIx_server_register_nspace("reg-ns", 2, again, 2, nullptr, nullptr), PMIX_SUCCESS);
  for (pmix_info_t& i : again) PMIx_Info_destruct(&i);
  EXPECT_EQ(GetString("reg-ns", "test.first"), "uno");
  EXPECT_EQ(GetString("reg-ns", "test.second"), "two");
  EXPECT_EQ(GetString("reg-ns", "test.res.mine"), "host");
  EXPECT_EQ(GetString("reg-ns", "test.res.kept"), "resource");

  // Resources registered later reach the namespace (not over its values).
  pmix_info_t late[2] = {Str("test.res.late", "late"), Str("test.second", "resource")};
  ASSERT_EQ(PMIx_server_register_resources(late, 2, nullptr, nullptr), PMIX_SUCCESS);
  for (pmix_info_t& i : late) PMIx_Info_destruct(&i);
  EXPECT_EQ(GetString("reg-ns", "test.res.late"), "late");
  EXPECT_EQ(GetString("reg-ns", "test.second"), "two");
  PMIx_server_deregister_nspace("reg-ns", nullptr, nullptr);
}

TEST_F(Registration, ABadArrayIsRejectedAndKeepsWhatWasStored) {
  StartServer(false, {{PMIX_HOSTNAME, "n0"}});
  pmix_info_t good = Str("test.first", "one");
  ASSERT_EQ(PMIx_server_register_nspace("bad-ns", 1, &good, 1, nullptr, nullptr), PMIX_SUCCESS);
  PMIx_Info_destruct(&good);
  pmix_info_t bad[2] = {Str("test.first", "changed"), Str(PMIX_PROC_MAP, "")};
  bool yes = true;
  PMIx_Info_destruct(&bad[1]);
  PMIx_Info_load(&bad[1], PMIX_PROC_MAP, &yes, PMIX_BOOL);  // a map must be text
  EXPECT_EQ(PMIx_server_register_nspace("bad-ns", 1, bad, 2, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
  for (pmix_info_t& i : bad) PMIx_Info_destruct(&i);
  EXPECT_EQ(GetString("bad-ns", "test.first"), "one");
  PMIx_server_deregister_nspace("bad-ns", nullptr, nullptr);
}

}  // namespace
}  // namespace pmix::server
