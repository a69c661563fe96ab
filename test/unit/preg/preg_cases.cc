#include "test/unit/preg/preg_cases.h"

#include <cstdio>
#include <random>

namespace pmix::preg::test {
namespace {

std::string Numbered(const char* prefix, unsigned long long n, int width, const char* suffix) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s%0*llu%s", prefix, width, n, suffix);
  return buf;
}

}  // namespace

std::string HundredNodesAndFriends() {
  std::string out;
  for (int i = 1; i <= 100; ++i) out += Numbered("node", i, 3, "") + ",";
  return out + "login,gpu1,gpu2,gpu3";
}

std::string MixedNodes(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<std::string> names;
  unsigned long long next = 1;
  while (names.size() < n) {
    switch (gen() % 10) {
      case 0: names.push_back("login"); break;
      case 1: names.push_back(Numbered("gpu", gen() % 4, 1, "")); break;
      case 2: names.push_back(Numbered("n", gen() % 3, 1 + gen() % 3, "")); break;
      case 3: names.push_back(Numbered("rack2-c", gen() % 50, 2, ".ib0")); break;
      case 4: names.push_back(names.empty() ? "dup" : names[gen() % names.size()]); break;
      case 5: next += gen() % 5; [[fallthrough]];
      default: names.push_back(Numbered("node", next++, 5, "")); break;
    }
  }
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? "," : "") + names[i];
  return out;
}

const std::vector<std::string>& NodeCases() {
  static const std::vector<std::string> cases = {
      "", "a", ",", "a,,b", ",a,", "node1",
      HundredNodesAndFriends(),
      "n1,n01,n001", "n001,n01,n1", "0,00,000,1,01,001",
      "node1,node2,node3,node5,node6,node10", "node10,node9,node8,node7",
      "node099,node100,node101", "node9,node10,node011",
      "n3,n2,n1,n1,n2,n3", "a,a,a,b,b", "n1,m1,n2,n3",
      "host-1.a,host-2.a,host-3.a", "rack1-node07.ib,rack1-node08.ib,rack2-node01.ib",
      "a1b2,a1b3,a1b4", "n1a,n2a,n3a", "1,2,3,5", "x:1,x:2,x-3,x-4",
      "n4294967295,n4294967296,n4294967297", "n999999999999999998,n999999999999999999",
      "n18446744073709551615,n18446744073709551616,n123456789012345678901234",
      "n0000000000000000001,n0000000000000000002",
      "node-,node--1,-1,--,.5,5.", "a b,c\td",
  };
  return cases;
}

std::string RegularPpn(size_t nodes, size_t ranks_per_node) {
  std::string out;
  size_t rank = 0;
  for (size_t n = 0; n < nodes; ++n) {
    if (n) out += ';';
    for (size_t r = 0; r < ranks_per_node; ++r) out += (r ? "," : "") + std::to_string(rank++);
  }
  return out;
}

const std::vector<std::string>& PpnCases() {
  static const std::vector<std::string> cases = {
      "", "0", "0,1,2,3", RegularPpn(10000, 4), RegularPpn(3, 1),
      "0,1,2;3;4,5,6,7,8;;9", "5,3,4;0;1,2", "0,2,4,6;1,3,5,7",
      "7,6,5,4;3,2,1,0", "4294967295,4294967294;0", ";", ";;",
      "0,0,0;1,1",
  };
  return cases;
}

}  // namespace pmix::preg::test
