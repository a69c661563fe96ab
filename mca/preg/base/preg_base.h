// The preg framework as the rest of the library uses it (the server of
// issue 4 parses PMIX_NODE_MAP / PMIX_PROC_MAP with it).
//
// Multi-select (include/pmix/mca/preg.h is the module interface): every
// available component, highest priority first. Generating asks each module
// in turn; the first that does not decline (PMIX_ERR_NOT_SUPPORTED)
// answers. Parsing offers the string to each selected module in turn; the
// one that recognises its prefix answers (a malformed representation is
// its error, PMIX_ERR_BAD_PARAM). A string no selected module recognises
// is a plain list, as hosts may pass one: names separated by ','; ppn
// nodes separated by ';', each a ','-separated list of ranks or ascending
// "N-M" ranges. Outputs never contain '*'. Every function ensures the
// framework first and returns its error if that fails; thread-safe.
#ifndef PMIXX_MCA_PREG_BASE_PREG_BASE_H
#define PMIXX_MCA_PREG_BASE_PREG_BASE_H

#include <string>
#include <string_view>
#include <vector>

#include "pmix/mca/preg.h"
#include "src/common/status.h"

namespace pmix::preg {

// Most ranks a plain ppn list may expand to through "N-M" ranges.
inline constexpr size_t kMaxPlainRanks = size_t{1} << 24;

// Loads and selects the framework's components now rather than at the
// first use (a server does this at init: every registration's maps are
// parsed with it, and hosts generate their regexes right after init).
Status Prepare();

// The compact representation of a node list / ppn list (input syntax in
// preg.h). PMIX_ERR_NOT_SUPPORTED when every module declines.
Result<std::string> GenerateNodeRegex(std::string_view input);
Result<std::string> GeneratePpn(std::string_view input);

// Node names, in order, duplicates kept. The empty string is no names.
Result<std::vector<std::string>> ParseNodes(std::string_view regex);

// Per node, in order, that node's ranks in order. Ranks above
// PMIX_RANK_VALID are PMIX_ERR_BAD_PARAM.
Result<std::vector<std::vector<pmix_rank_t>>> ParseProcs(std::string_view regex);

}  // namespace pmix::preg

#endif  // PMIXX_MCA_PREG_BASE_PREG_BASE_H
