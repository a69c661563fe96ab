#include "src/jobinfo/layout.h"

#include <algorithm>
#include <map>
#include <unordered_set>

#include "mca/preg/base/preg_base.h"

namespace pmix::jobinfo {
namespace {

// The job's nodes in order and each one's ranks; ranks of a proc map
// without a node map are "unplaced".
struct Placement {
  std::vector<std::string> names;
  std::vector<std::vector<pmix_rank_t>> ranks;  // parallel to names
  std::vector<pmix_rank_t> unplaced;
};

Result<Placement> FromMaps(const Model& model) {
  Placement out;
  std::vector<std::vector<pmix_rank_t>> procs;
  if (model.proc_map) {
    auto parsed = preg::ParseProcs(*model.proc_map);
    if (!parsed.ok()) return Reject("proc map does not parse", PMIX_PROC_MAP);
    procs = std::move(*parsed);
  }
  if (!model.node_map) {
    for (auto& node : procs) out.unplaced.insert(out.unplaced.end(), node.begin(), node.end());
    return out;
  }
  auto names = preg::ParseNodes(*model.node_map);
  if (!names.ok()) return Reject("node map does not parse", PMIX_NODE_MAP);
  out.names = std::move(*names);
  if (model.proc_map && procs.size() != out.names.size()) {
    return Reject("node map and proc map differ in length", PMIX_PROC_MAP);
  }
  procs.resize(out.names.size());
  out.ranks = std::move(procs);
  return out;
}

// No node map: the nodes named by the procs' PMIX_HOSTNAME, in order of
// their lowest rank (the last array naming a rank's host wins).
Placement FromProcs(const Model& model) {
  std::map<pmix_rank_t, const std::string*> host_of;
  for (const ProcEntry& proc : model.procs) {
    if (proc.host) host_of[proc.rank] = &*proc.host;
  }
  Placement out;
  std::map<std::string_view, size_t> index;
  for (const auto& [rank, host] : host_of) {
    auto [it, added] = index.emplace(*host, out.names.size());
    if (added) {
      out.names.push_back(*host);
      out.ranks.emplace_back();
    }
    out.ranks[it->second].push_back(rank);
  }
  return out;
}

Status AddNodeArrays(const Model& model, bool id_only, NodeTable& table) {
  for (const NodeEntry& entry : model.nodes) {
    if (id_only == entry.host.has_value()) continue;
    auto index = table.Link(entry.host, entry.id);
    if (!index.ok()) return Reject("node arrays link one node to two names or ids", PMIX_NODEID);
    NodeInfo& node = table.nodes()[*index];
    node.kvs.insert(node.kvs.end(), entry.kvs.begin(), entry.kvs.end());
    node.aliases.insert(node.aliases.end(), entry.aliases.begin(), entry.aliases.end());
  }
  return Status();
}

// Host/id pairs from the procs' data, all or none.
void AddProcLinks(const Model& model, NodeTable& table) {
  NodeTable trial = table;
  for (const ProcEntry& proc : model.procs) {
    if (proc.host && proc.nodeid && !trial.Link(proc.host, proc.nodeid).ok()) return;
  }
  table = std::move(trial);
}

Status PlaceNodes(const Model& model, const Placement& placement, const Context& ctx, Layout& out) {
  NodeTable& table = out.table;
  PMIX_RETURN_IF_ERROR(AddNodeArrays(model, false, table));
  AddProcLinks(model, table);
  std::unordered_set<std::string_view> seen;
  for (size_t i = 0; i < placement.names.size(); ++i) {
    if (!seen.insert(placement.names[i]).second) {
      return Reject("node listed twice in the node map", PMIX_NODE_MAP);
    }
    size_t index = table.Host(placement.names[i]);
    table.nodes()[index].ranks = placement.ranks[i];
    std::sort(table.nodes()[index].ranks.begin(), table.nodes()[index].ranks.end());
    out.job_nodes.push_back(index);
  }
  out.local = table.Resolve(ctx.local_hostname);
  if (!out.local && !ctx.local_hostname.empty()) out.local = table.Host(ctx.local_hostname);
  if (out.local && model.local_nodeid) table.IdIfFree(*out.local, *model.local_nodeid);
  for (size_t i = 0; i < out.job_nodes.size(); ++i) {
    table.IdIfFree(out.job_nodes[i], static_cast<uint32_t>(i));
  }
  return AddNodeArrays(model, true, table);
}

RankInfo Unplaced(pmix_rank_t rank) {
  RankInfo info;
  info.rank = rank;
  return info;
}

Status BuildRanks(const Model& model, const Placement& placement, Layout& out) {
  MappedVector<RankInfo>& ranks = out.ranks;
  for (size_t index : out.job_nodes) {
    const std::vector<pmix_rank_t>& on_node = out.table.nodes()[index].ranks;
    for (size_t i = 0; i < on_node.size(); ++i) {
      RankInfo info = Unplaced(on_node[i]);
      info.node = index;
      info.local_rank = static_cast<uint32_t>(i);
      ranks.push_back(std::move(info));
    }
  }
  for (pmix_rank_t rank : placement.unplaced) ranks.push_back(Unplaced(rank));
  std::sort(ranks.begin(), ranks.end(),
            [](const RankInfo& a, const RankInfo& b) { return a.rank < b.rank; });
  for (size_t i = 1; i < ranks.size(); ++i) {
    if (ranks[i].rank == ranks[i - 1].rank) return Reject("rank listed twice", PMIX_PROC_MAP);
  }
  for (const ProcEntry& proc : model.procs) out.proc_data.push_back(&proc);
  std::stable_sort(out.proc_data.begin(), out.proc_data.end(),
                   [](const ProcEntry* a, const ProcEntry* b) { return a->rank < b->rank; });
  // Attach each rank's arrays; ranks known only from their arrays join.
  MappedVector<RankInfo> merged;
  merged.reserve(ranks.size());
  size_t r = 0;
  for (size_t p = 0; p < out.proc_data.size() || r < ranks.size();) {
    bool from_data =
        r == ranks.size() || (p < out.proc_data.size() && out.proc_data[p]->rank < ranks[r].rank);
    RankInfo info = from_data ? Unplaced(out.proc_data[p]->rank) : ranks[r++];
    info.data_begin = p;
    while (p < out.proc_data.size() && out.proc_data[p]->rank == info.rank) ++p;
    info.data_end = p;
    merged.push_back(std::move(info));
  }
  ranks = std::move(merged);
  return Status();
}

// Sizes, leaders, app ranks and node counts (every rank has an app).
void CountApps(Layout& out, std::map<uint32_t, AppInfo>& apps) {
  std::map<uint32_t, std::unordered_set<size_t>> nodes;
  bool all_placed = true;
  for (auto& [num, app] : apps) app.size = 0;
  for (RankInfo& rank : out.ranks) {  // ascending, so leaders come first
    AppInfo& app = apps[*rank.appnum];
    if (*app.size == 0) app.leader = rank.rank;
    rank.app_rank = (*app.size)++;
    nodes[*rank.appnum].insert(rank.node);
    all_placed = all_placed && rank.node != kNoNode;
  }
  if (!all_placed) return;
  for (auto& [num, app] : apps) app.num_nodes = static_cast<uint32_t>(nodes[num].size());
}

// The app of each rank, and per app what follows when every rank's app is
// known.
void AssignApps(const Model& model, Layout& out) {
  std::map<uint32_t, AppInfo> apps;
  std::map<uint32_t, std::pair<pmix_rank_t, uint32_t>> ranges;  // leader, size
  for (const AppEntry& entry : model.apps) {
    AppInfo& app = apps[entry.appnum];
    app.appnum = entry.appnum;
    app.kvs.insert(app.kvs.end(), entry.kvs.begin(), entry.kvs.end());
    if (entry.leader && entry.size) ranges[entry.appnum] = {*entry.leader, *entry.size};
  }
  for (RankInfo& rank : out.ranks) {
    for (size_t p = rank.data_begin; p < rank.data_end; ++p) {
      if (out.proc_data[p]->appnum) rank.appnum = out.proc_data[p]->appnum;
    }
    if (rank.appnum) apps[*rank.appnum].appnum = *rank.appnum;
  }
  bool several = model.num_apps && *model.num_apps > 1;
  if (apps.empty() && !several && (!out.ranks.empty() || model.job_size)) apps[0].appnum = 0;
  bool all_known = !out.ranks.empty();
  for (RankInfo& rank : out.ranks) {
    if (!rank.appnum && apps.size() == 1) rank.appnum = apps.begin()->first;
    for (auto it = ranges.begin(); !rank.appnum && it != ranges.end(); ++it) {
      const auto& [leader, size] = it->second;
      if (rank.rank >= leader && rank.rank - leader < size) rank.appnum = it->first;
    }
    all_known = all_known && rank.appnum.has_value();
  }
  if (all_known) CountApps(out, apps);
  for (auto& [num, app] : apps) out.apps.push_back(std::move(app));
}

}  // namespace

Result<Layout> BuildLayout(const Model& model, const Context& ctx) {
  Result<Placement> placement =
      model.node_map || model.proc_map ? FromMaps(model) : Result(FromProcs(model));
  PMIX_RETURN_IF_ERROR(placement.status());
  Layout out;
  PMIX_RETURN_IF_ERROR(PlaceNodes(model, *placement, ctx, out));
  PMIX_RETURN_IF_ERROR(BuildRanks(model, *placement, out));
  AssignApps(model, out);
  out.job_size = model.job_size;
  if (!out.job_size && !out.ranks.empty()) out.job_size = static_cast<uint32_t>(out.ranks.size());
  out.num_apps = model.num_apps;
  if (!out.num_apps && !out.apps.empty()) out.num_apps = static_cast<uint32_t>(out.apps.size());
  return out;
}

}  // namespace pmix::jobinfo
