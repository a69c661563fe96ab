// The pure part of PMIx_Resolve_peers / PMIx_Resolve_nodes (standard §7.2
// and spec/resolve-peers-nodes.txt): reading a namespace's nodes and a
// node's ranks out of the job data in a gds store (src/jobinfo stores
// PMIX_NODE_LIST in the JOB realm and PMIX_LOCAL_PEERS per node in the
// NODE realm). The v4.0-removed codes the note names are
// PMIX_ERR_NOT_FOUND here (api-inventory.md errata).
//
// Threads: the store's rule (one thread at a time).
#ifndef PMIXX_SRC_CLIENT_RESOLVE_DATA_H
#define PMIXX_SRC_CLIENT_RESOLVE_DATA_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mca/gds/base/gds_base.h"
#include "pmix_common.h"
#include "src/common/status.h"

namespace pmix::resolve {

// The nodes hosting nspace (its PMIX_NODE_LIST, in order; empty when the
// job has none). PMIX_ERR_NOT_FOUND when the store has no job data for
// nspace.
Result<std::vector<std::string>> NodesOf(const gds::Store& store, std::string_view nspace);

// The ranks of nspace on `node`, ascending as the host listed them:
// empty when the node is not one of the job's nodes (or hosts none of
// them); PMIX_ERR_NOT_FOUND when the store has no job data for nspace, or
// the node is the job's but its PMIX_LOCAL_PEERS is missing. `node` may be
// a short name or an alias-free prefix of a listed name (matched when
// exactly one node fits). For `local_host` (the caller's node) a job-level
// PMIX_LOCAL_PEERS also counts.
Result<std::vector<pmix_rank_t>> PeersOn(const gds::Store& store, std::string_view nspace,
                                         std::string_view node, std::string_view local_host);

// "0,1,4-6" -> {0,1,4,5,6}; nullopt when malformed. Empty text is empty.
std::optional<std::vector<pmix_rank_t>> ParseRanks(std::string_view text);

// The entry of `nodes` that `name` denotes: equal, else the only one that
// equals it up to the first '.' of either.
std::optional<std::string> MatchNode(const std::vector<std::string>& nodes, std::string_view name);

}  // namespace pmix::resolve

#endif  // PMIXX_SRC_CLIENT_RESOLVE_DATA_H
