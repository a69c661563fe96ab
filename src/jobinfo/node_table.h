// The nodes of one registration, each known by a host name, a node id or
// both, with at most one node per name and per id.
#ifndef PMIXX_SRC_JOBINFO_NODE_TABLE_H
#define PMIXX_SRC_JOBINFO_NODE_TABLE_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pmix_common.h"
#include "src/common/status.h"
#include "src/jobinfo/info_read.h"

namespace pmix::jobinfo {

struct NodeInfo {
  std::optional<std::string> host;
  std::optional<uint32_t> id;
  std::vector<std::string> aliases;  // from node arrays
  std::vector<pmix_rank_t> ranks;    // this job's ranks on the node, ascending
  InfoRefs kvs;                      // node-array contents, in order
};

class NodeTable {
 public:
  // The node named `host` (created when new).
  size_t Host(const std::string& host);
  // The node named by host and/or id (at least one given), created when
  // new; naming both links them. PMIX_ERR_BAD_PARAM when they already
  // belong to different nodes, or the node has another name or id.
  Result<size_t> Link(const std::optional<std::string>& host, std::optional<uint32_t> id);
  // Gives `node` the id when it has none and no other node holds it.
  void IdIfFree(size_t node, uint32_t id);

  std::optional<size_t> FindHost(std::string_view host) const;
  std::optional<size_t> FindId(uint32_t id) const;
  // The node `name` denotes: exact name, else an alias, else the one node
  // whose name matches up to the first '.'.
  std::optional<size_t> Resolve(std::string_view name) const;

  std::vector<NodeInfo>& nodes() { return nodes_; }
  const std::vector<NodeInfo>& nodes() const { return nodes_; }

 private:
  size_t Add(NodeInfo node);

  std::vector<NodeInfo> nodes_;
  std::unordered_map<std::string, size_t> by_host_;
  std::unordered_map<uint32_t, size_t> by_id_;
};

}  // namespace pmix::jobinfo

#endif  // PMIXX_SRC_JOBINFO_NODE_TABLE_H
