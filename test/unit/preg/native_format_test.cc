// preg/native: the exact text it produces, what it declines, and the
// strings its parser refuses.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "pmix/mca/mca.h"
#include "pmix/mca/preg.h"
#include "test/unit/preg/preg_cases.h"

extern "C" pmix_mca_component_t pmix_mca_preg_native_component;

namespace {

const pmix_preg_module_t* Native(size_t max_entries = 1 << 24) {
  pmix_mca_param_value_t value = {};
  value.type = PMIX_MCA_PARAM_SIZE;
  value.value.size = max_entries;
  void* context = nullptr;
  EXPECT_EQ(pmix_mca_preg_native_component.open(nullptr, &value, &context), PMIX_SUCCESS);
  const void* module = nullptr;
  int priority = 0;
  EXPECT_EQ(pmix_mca_preg_native_component.query(context, &module, &priority), PMIX_SUCCESS);
  return static_cast<const pmix_preg_module_t*>(module);
}

std::string Gen(pmix_status_t (*fn)(const char*, char**), const std::string& input) {
  char* out = nullptr;
  pmix_status_t rc = fn(input.c_str(), &out);
  if (rc != PMIX_SUCCESS) return "rc=" + std::to_string(rc);
  std::string text(out);
  std::free(out);
  return text;
}

pmix_status_t Parse(pmix_status_t (*fn)(const char*, char***), const std::string& regex) {
  char** argv = nullptr;
  pmix_status_t rc = fn(regex.c_str(), &argv);
  for (char** p = argv; rc == PMIX_SUCCESS && *p != nullptr; ++p) std::free(*p);
  std::free(argv);
  return rc;
}

struct Case {
  std::string input, expected;
};

TEST(NativeFormat, NodeListsReadAsRanges) {
  const Case cases[] = {
      {pmix::preg::test::HundredNodesAndFriends(), "pmix[node[3:1-100],login,gpu[1:1-3]]"},
      {"n1,n01,n001", "pmix[n1,n01,n001]"},
      {"node1,node2,node3,node5,node6,node10", "pmix[node[1:1-3,5-6,10]]"},
      {"node099,node100,node101", "pmix[node[3:99-101]]"},
      {"node10,node9,node8", "pmix[node[1:10,9,8]]"},
      {"n3,n2,n1,n1,n2", "pmix[n[1:3,2,1,1-2]]"},
      {"n1,m1,n2", "pmix[n1,m1,n2]"},
      {"rack1-node07.ib,rack1-node08.ib", "pmix[rack1-node[2:7-8].ib]"},
      {"1,2,3", "pmix[[1:1-3]]"},
      {"", "pmix[]"},
      {"a,,b", "pmix[a,,b]"},
      {"n4294967296,n4294967297", "pmix[n[1:4294967296-4294967297]]"},
      {"n1234567890123456789,n1234567890123456790",
       "pmix[n1234567890123456789,n1234567890123456790]"},
  };
  const auto* m = Native();
  for (const Case& c : cases) EXPECT_EQ(Gen(m->generate_node_regex, c.input), c.expected);
}

TEST(NativeFormat, PpnListsReadAsRanges) {
  const Case cases[] = {
      {"0,1,2;3,4,5", "pmix[0-2;3-5]"},
      {"0", "pmix[0]"},
      {"0,2,4;1,3", "pmix[0,2,4;1,3]"},
      {"3,2,1,0;;7", "pmix[3,2,1,0;;7]"},
      {"", "pmix[]"},
  };
  const auto* m = Native();
  for (const Case& c : cases) EXPECT_EQ(Gen(m->generate_ppn, c.input), c.expected);
}

TEST(NativeFormat, DeclinesWhatItCannotRepresent) {
  const auto* m = Native();
  const std::string declined = "rc=" + std::to_string(PMIX_ERR_NOT_SUPPORTED);
  for (const char* nodes : {"a*", "n[1]", "x]", "[", "*"}) {
    EXPECT_EQ(Gen(m->generate_node_regex, nodes), declined) << nodes;
  }
  for (const char* ppn : {"007", "-1", "+1", "4294967296", "0,,1", "a", "1-3", "0;1;x", " 1"}) {
    EXPECT_EQ(Gen(m->generate_ppn, ppn), declined) << ppn;
  }
}

std::string ParsedJoined(const std::string& regex) {
  char** names = nullptr;
  pmix_status_t rc = Native()->parse_nodes(regex.c_str(), &names);
  if (rc != PMIX_SUCCESS) return "rc=" + std::to_string(rc);
  std::string joined;
  for (size_t i = 0; names[i] != nullptr; ++i) {
    joined += (i ? "," : "") + std::string(names[i]);
    std::free(names[i]);
  }
  std::free(names);
  return joined;
}

// Regexes OpenPMIx 4.2.2's PMIx_generate_regex printed (measured), and
// the lists it was given.
TEST(NativeFormat, ParsesOpenPmixNodeRegexes) {
  const Case cases[] = {
      {"pmix[node[3:1-3],login,gpu[1:1-2]]", "node001,node002,node003,login,gpu1,gpu2"},
      {"pmix[a]", "a"},
      {"pmix[n[1:1],n[2:1],n[3:1]]", "n1,n01,n001"},
      {"pmix[node[1:1-3,5-6],node[2:10]]", "node1,node2,node3,node5,node6,node10"},
      {"pmix[node[2:1-3,5-6,10]]", "node01,node02,node03,node05,node06,node10"},
      {"pmix[n[1:1-3]a]", "n1a,n2a,n3a"},
      {"pmix[n1.x,n2.x]", "n1.x,n2.x"},
      {"pmix[a[1:1]b2,a[1:1]b3]", "a1b2,a1b3"},
      {"pmix[n[1:3,2,1]]", "n3,n2,n1"},
      {"pmix[n[1:1-2,1-2]]", "n1,n2,n1,n2"},
      {"pmix[[1:1-3]]", "1,2,3"},
      {"pmix[x,y,,z]", "x,y,,z"},
      {"pmix[node[3:9-11]]", "node009,node010,node011"},
      {"pmix[host-1.a,host-2.a]", "host-1.a,host-2.a"},
  };
  for (const Case& c : cases) EXPECT_EQ(ParsedJoined(c.input), c.expected) << c.input;
}

TEST(NativeFormat, ParsesDescendingRanges) {
  char** names = nullptr;
  ASSERT_EQ(Native()->parse_nodes("pmix[n[2:10-8]]", &names), PMIX_SUCCESS);
  const char* expected[] = {"n10", "n09", "n08", nullptr};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_STREQ(names[i], expected[i]);
    std::free(names[i]);
  }
  std::free(names);
  char** procs = nullptr;
  ASSERT_EQ(Native()->parse_procs("pmix[2-0;5]", &procs), PMIX_SUCCESS);
  EXPECT_STREQ(procs[0], "2,1,0");
  EXPECT_STREQ(procs[1], "5");
  EXPECT_EQ(procs[2], nullptr);
  for (size_t i = 0; i < 2; ++i) std::free(procs[i]);
  std::free(procs);
}

TEST(NativeFormat, RefusesMalformedNodeRegexes) {
  const auto* m = Native();
  for (const char* regex :
       {"pmix[", "pmix[a", "pmix[a]]", "pmix[a]b]", "pmix[n[1:1-2]", "pmix[n[1:]]",
        "pmix[n[:1]]", "pmix[n[0:1]]", "pmix[n[19:1]]", "pmix[n[x:1]]", "pmix[n[1:x]]",
        "pmix[n[1:1-]]", "pmix[n[1:-1]]", "pmix[n[1:1--2]]", "pmix[n[1:1,,2]]",
        "pmix[n[1:1[2]]]", "pmix[n[1:1]x[]", "pmix[n[1-2]]", "pmix[n[20:-1,-1]]",
        "pmix[n[1:1234567890123456789]]"}) {
    EXPECT_EQ(Parse(m->parse_nodes, regex), PMIX_ERR_BAD_PARAM) << regex;
  }
}

TEST(NativeFormat, RefusesMalformedPpnRegexes) {
  const auto* m = Native();
  for (const char* regex : {"pmix[", "pmix[0", "pmix[a]", "pmix[0,]", "pmix[1-]", "pmix[-1]",
                            "pmix[4294967296]", "pmix[0-4294967296]", "pmix[0;1,,2]"}) {
    EXPECT_EQ(Parse(m->parse_procs, regex), PMIX_ERR_BAD_PARAM) << regex;
  }
}

TEST(NativeFormat, ExpansionIsBoundedByMaxEntries) {
  const auto* m = Native(10);
  EXPECT_EQ(Parse(m->parse_nodes, "pmix[n[1:1-10]]"), PMIX_SUCCESS);
  EXPECT_EQ(Parse(m->parse_nodes, "pmix[n[1:1-11]]"), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(Parse(m->parse_nodes, "pmix[n[1:1-5],a,b,c,d,e,f]"), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(Parse(m->parse_nodes, "pmix[n[1:0-999999999999999999]]"), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(Parse(m->parse_procs, "pmix[0-4;5-9]"), PMIX_SUCCESS);
  EXPECT_EQ(Parse(m->parse_procs, "pmix[0-4;5-10]"), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(Parse(m->parse_procs, "pmix[0-4294967295]"), PMIX_ERR_BAD_PARAM);
  Native();
}

}  // namespace
