// preg/native: readable range expressions, in the syntax OpenPMIx's native
// component prints (so its node regexes parse here too).
//
// Node lists. Each name is split at its LAST run of digits into prefix,
// number and suffix ("rack2-node007.ib" -> "rack2-node", 007, ".ib").
// Consecutive names with the same prefix and suffix whose numbers can be
// printed with one zero-padding width W form one bracket item; everything
// else stays a literal name:
//
//   regex  := "pmix[" [ item *( "," item ) ] "]"
//   item   := name | prefix "[" W ":" terms "]" suffix
//   terms  := term *( "," term ) ; term := N | N "-" M
//
// N-M is every number from N to M (generated only ascending; parsed in
// both directions, counting down when M < N); each number is printed
// zero-padded to at least W digits. Order and duplicates are
// kept: "node001,...,node100,login,gpu1,gpu2,gpu3,node005" ->
// "pmix[node[3:1-100],login,gpu[1:1-3],node005]"; "n1,n01,n001" stays
// "pmix[n1,n01,n001]". Numbers of more than 18 digits stay literal text.
// The empty input is the empty list ("pmix[]"); "," is two empty names.
// Declines (PMIX_ERR_NOT_SUPPORTED) input containing '[', ']' or '*'.
//
// ppn lists ("0,1,2;3,4,5": per node, its ranks) keep the ';' between
// nodes and write each node's ranks as terms: "pmix[0-2;3-5]". Declines
// input whose ranks are not canonical decimals (no sign, no leading zero)
// up to 4294967295, so every accepted input round-trips exactly.
//
// Parsing declines strings that do not start with "pmix[" and answers
// PMIX_ERR_BAD_PARAM for a malformed one, or one that would expand to more
// than the max_entries parameter (names, or ranks over all nodes).
// Outputs never contain '*'. Stateless besides max_entries, which open()
// sets once; thread-safe.
#ifndef PMIXX_PLUGINS_PREG_NATIVE_NATIVE_MODULE_H
#define PMIXX_PLUGINS_PREG_NATIVE_NATIVE_MODULE_H

#include <cstddef>

#include "pmix/mca/preg.h"

namespace pmix::preg::native {

extern const pmix_preg_module_t kModule;

void Configure(size_t max_entries);

}  // namespace pmix::preg::native

#endif  // PMIXX_PLUGINS_PREG_NATIVE_NATIVE_MODULE_H
