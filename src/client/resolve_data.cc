// Nodes and peers from job data (resolve_data.h).
#include "src/client/resolve_data.h"

#include <charconv>

namespace pmix::resolve {
namespace {

pmix_proc_t JobProc(std::string_view nspace) {
  pmix_proc_t p;
  PMIx_Load_procid(&p, std::string(nspace).c_str(), PMIX_RANK_WILDCARD);
  return p;
}

bool KnownJob(const gds::Store& store, const pmix_proc_t& job) {
  return store.Fetch(job, gds::Where::Job(), PMIX_GDS_VIEW_ALL, "").ok();
}

// A string value of key, or nullopt (absent or not a string).
std::optional<std::string> StringAt(const gds::Store& store, const pmix_proc_t& job,
                                    const gds::Where& where, const char* key) {
  auto v = store.FetchValue(job, where, PMIX_GDS_VIEW_ALL, key);
  if (!v.ok() || (*v)->type != PMIX_STRING) return std::nullopt;
  return std::string((*v)->data.string != nullptr ? (*v)->data.string : "");
}

std::vector<std::string> SplitCommas(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    if (!item.empty()) out.emplace_back(item);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return out;
}

std::optional<pmix_rank_t> Number(std::string_view s) {
  pmix_rank_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty() || v >= PMIX_RANK_VALID)
    return std::nullopt;
  return v;
}

// A bound on what a peer list may expand to (a node hosts far fewer).
constexpr size_t kMaxRanks = size_t{1} << 22;

std::string_view ShortName(std::string_view name) { return name.substr(0, name.find('.')); }

}  // namespace

Result<std::vector<std::string>> NodesOf(const gds::Store& store, std::string_view nspace) {
  pmix_proc_t job = JobProc(nspace);
  if (!KnownJob(store, job)) return Status(PMIX_ERR_NOT_FOUND);
  auto list = StringAt(store, job, gds::Where::Job(), PMIX_NODE_LIST);
  if (!list) return std::vector<std::string>{};
  return SplitCommas(*list);
}

Result<std::vector<pmix_rank_t>> PeersOn(const gds::Store& store, std::string_view nspace,
                                         std::string_view node, std::string_view local_host) {
  auto nodes = NodesOf(store, nspace);
  if (!nodes.ok()) return nodes.status();
  pmix_proc_t job = JobProc(nspace);
  auto listed = MatchNode(*nodes, node);
  std::string name = listed ? *listed : std::string(node);
  auto peers = StringAt(store, job, gds::Where::Host(name), PMIX_LOCAL_PEERS);
  bool local = name == local_host || (!listed && ShortName(name) == ShortName(local_host));
  if (!peers && local) peers = StringAt(store, job, gds::Where::Job(), PMIX_LOCAL_PEERS);
  if (!peers) {
    if (listed) return Status(PMIX_ERR_NOT_FOUND);  // the node is the job's: no peer list
    return std::vector<pmix_rank_t>{};              // not one of the job's nodes
  }
  auto ranks = ParseRanks(*peers);
  if (!ranks) return Status(PMIX_ERR_NOT_FOUND);
  return std::move(*ranks);
}

std::optional<std::vector<pmix_rank_t>> ParseRanks(std::string_view text) {
  std::vector<pmix_rank_t> out;
  for (const std::string& item : SplitCommas(text)) {
    std::string_view s = item;
    size_t dash = s.find('-');
    auto first = Number(s.substr(0, dash));
    auto last = dash == std::string_view::npos ? first : Number(s.substr(dash + 1));
    if (!first || !last || *last < *first) return std::nullopt;
    if (out.size() + (*last - *first) >= kMaxRanks) return std::nullopt;
    for (pmix_rank_t r = *first; r <= *last; ++r) out.push_back(r);
  }
  return out;
}

std::optional<std::string> MatchNode(const std::vector<std::string>& nodes, std::string_view name) {
  for (const std::string& n : nodes)
    if (n == name) return n;
  std::optional<std::string> found;
  for (const std::string& n : nodes) {
    if (ShortName(n) != ShortName(name)) continue;
    if (found) return std::nullopt;  // ambiguous
    found = n;
  }
  return found;
}

}  // namespace pmix::resolve
