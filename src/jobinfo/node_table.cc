#include "src/jobinfo/node_table.h"

#include <algorithm>

namespace pmix::jobinfo {
namespace {

std::string_view ShortName(std::string_view name) { return name.substr(0, name.find('.')); }

}  // namespace

size_t NodeTable::Add(NodeInfo node) {
  size_t index = nodes_.size();
  if (node.host) by_host_.emplace(*node.host, index);
  if (node.id) by_id_.emplace(*node.id, index);
  nodes_.push_back(std::move(node));
  return index;
}

size_t NodeTable::Host(const std::string& host) {
  if (auto found = FindHost(host)) return *found;
  NodeInfo node;
  node.host = host;
  return Add(std::move(node));
}

Result<size_t> NodeTable::Link(const std::optional<std::string>& host, std::optional<uint32_t> id) {
  std::optional<size_t> by_host = host ? FindHost(*host) : std::nullopt;
  std::optional<size_t> by_id = id ? FindId(*id) : std::nullopt;
  if (by_host && by_id && *by_host != *by_id) return Status(PMIX_ERR_BAD_PARAM);
  std::optional<size_t> found = by_host ? by_host : by_id;
  if (!found) {
    NodeInfo node;
    node.host = host;
    node.id = id;
    return Add(std::move(node));
  }
  NodeInfo& node = nodes_[*found];
  if (id && !node.id) {
    node.id = id;
    by_id_.emplace(*id, *found);
  } else if (id && node.id != id) {
    return Status(PMIX_ERR_BAD_PARAM);
  }
  if (host && !node.host) {
    node.host = host;
    by_host_.emplace(*host, *found);
  } else if (host && node.host != host) {
    return Status(PMIX_ERR_BAD_PARAM);
  }
  return *found;
}

void NodeTable::IdIfFree(size_t node, uint32_t id) {
  if (nodes_[node].id || FindId(id)) return;
  nodes_[node].id = id;
  by_id_.emplace(id, node);
}

std::optional<size_t> NodeTable::FindHost(std::string_view host) const {
  auto it = by_host_.find(std::string(host));
  if (it == by_host_.end()) return std::nullopt;
  return it->second;
}

std::optional<size_t> NodeTable::FindId(uint32_t id) const {
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return std::nullopt;
  return it->second;
}

std::optional<size_t> NodeTable::Resolve(std::string_view name) const {
  if (name.empty()) return std::nullopt;
  if (auto exact = FindHost(name)) return exact;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const auto& aliases = nodes_[i].aliases;
    if (std::find(aliases.begin(), aliases.end(), name) != aliases.end()) return i;
  }
  std::optional<size_t> match;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (!nodes_[i].host || ShortName(*nodes_[i].host) != ShortName(name)) continue;
    if (match) return std::nullopt;  // ambiguous: leave it unmatched
    match = i;
  }
  return match;
}

}  // namespace pmix::jobinfo
