// Node and ppn lists shared by the preg tests: irregular names, mixed
// padding, duplicates, non-monotonic order, big numbers, and large lists.
#ifndef PMIXX_TEST_UNIT_PREG_PREG_CASES_H
#define PMIXX_TEST_UNIT_PREG_PREG_CASES_H

#include <string>
#include <vector>

namespace pmix::preg::test {

// "node001,...,node100,login,gpu1,gpu2,gpu3".
std::string HundredNodesAndFriends();

// n names drawn from regular and irregular patterns (seeded).
std::string MixedNodes(size_t n, unsigned seed);

// Small hand-picked node lists (including "", "," and names with dashes,
// dots, colons, and numbers beyond 2^64).
const std::vector<std::string>& NodeCases();

// ppn lists: one node, nodes x ranks_per_node consecutive, uneven.
std::string RegularPpn(size_t nodes, size_t ranks_per_node);
const std::vector<std::string>& PpnCases();

}  // namespace pmix::preg::test

#endif  // PMIXX_TEST_UNIT_PREG_PREG_CASES_H
