#include "src/server/server_topology.h"

#include <cstring>
#include <set>

#include "mca/base/var.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/common/text.h"
#include "src/hwloc/cpuset_text.h"
#include "src/hwloc/locality.h"
#include "src/hwloc/share.h"
#include "src/hwloc/topology.h"

namespace pmix::server {
namespace {

bool ShareByDefault() {
  auto var = mca::RegisterVar({"hwloc_share_topology", PMIX_MCA_PARAM_BOOL, "false",
                               "Share the node topology with clients when the host does not say "
                               "(PMIX_SERVER_SHARE_TOPOLOGY): costs one discovery per server; "
                               "hosts that do not know the attribute (Slurm) enable it here",
                               ""});
  return var.ok() && var->parsed.value.flag;
}

void AdoptHostTopology(std::span<const pmix_info_t> info) {
  for (const pmix_info_t& i : info) {
    if (PMIX_CHECK_KEY(&i, PMIX_TOPOLOGY2) && i.value.type == PMIX_TOPO &&
        i.value.data.topo != nullptr && i.value.data.topo->topology != nullptr &&
        hwloc::IsHwlocSource(i.value.data.topo->source)) {
      hwloc::InstallExternal(static_cast<hwloc_topology_t>(i.value.data.topo->topology),
                             hwloc::Origin::kHost);
      return;
    }
  }
  for (const pmix_info_t& i : info) {
    if (PMIX_CHECK_KEY(&i, PMIX_TOPOLOGY) && i.value.type == PMIX_POINTER &&
        i.value.data.ptr != nullptr) {
      hwloc::InstallExternal(static_cast<hwloc_topology_t>(i.value.data.ptr), hwloc::Origin::kHost);
      return;
    }
  }
}

// The cpuset of a PMIX_CPUSET value: "hwloc:<list>" or a bare list.
std::optional<hwloc::Bitmap> CpusetOf(const pmix_value_t& v) {
  if (v.type != PMIX_STRING || v.data.string == nullptr) return std::nullopt;
  std::string_view text = v.data.string;
  auto bits = text.find(':') != std::string_view::npos ? hwloc::ParseCpusetString(text)
                                                       : hwloc::ParseList(text);
  if (!bits.ok()) return std::nullopt;
  return std::move(*bits);
}

std::optional<pmix_rank_t> RankOf(std::span<const pmix_info_t> data) {
  for (const auto& i : data) {
    if (PMIX_CHECK_KEY(&i, PMIX_RANK) && i.value.type == PMIX_PROC_RANK) return i.value.data.rank;
    if (PMIX_CHECK_KEY(&i, PMIX_RANK) && i.value.type == PMIX_UINT32) return i.value.data.uint32;
  }
  return std::nullopt;
}

// Whether a proc's data describes a proc of this node.
bool IsLocal(const Server& s, std::span<const pmix_info_t> data,
             const std::optional<std::set<pmix_rank_t>>& local_peers) {
  auto host = InfoString(data, PMIX_HOSTNAME);
  if (host && *host != s.hostname) return false;
  if (!local_peers) return true;
  auto rank = RankOf(data);
  return rank && local_peers->count(*rank) != 0;
}

std::optional<std::set<pmix_rank_t>> LocalPeers(std::span<const pmix_info_t> info) {
  auto peers = InfoString(info, PMIX_LOCAL_PEERS);
  if (!peers) return std::nullopt;
  std::set<pmix_rank_t> out;
  for (const auto& r : SplitCommas(*peers)) out.insert(static_cast<pmix_rank_t>(std::strtoul(r.c_str(), nullptr, 10)));
  return out;
}

// One proc's data with its locality string added, or nullopt (unchanged).
std::optional<wire::Infos> WithLocality(hwloc_topology_t topo, std::span<const pmix_info_t> data) {
  const pmix_info_t* cpuset = nullptr;
  for (const auto& i : data) {
    if (PMIX_CHECK_KEY(&i, PMIX_LOCALITY_STRING)) return std::nullopt;
    if (PMIX_CHECK_KEY(&i, PMIX_CPUSET)) cpuset = &i;
  }
  if (cpuset == nullptr) return std::nullopt;
  auto bits = CpusetOf(cpuset->value);
  if (!bits) return std::nullopt;
  auto text = hwloc::LocalityString(topo, bits->get());
  if (!text) return std::nullopt;
  auto out = wire::Infos::CopyOf(data);
  if (!out.ok() || !out->Add(PMIX_LOCALITY_STRING, text->c_str(), PMIX_STRING).ok()) return std::nullopt;
  return std::move(*out);
}

bool HasCpusets(std::span<const pmix_info_t> info) {
  for (const auto& i : info) {
    if (!PMIX_CHECK_KEY(&i, PMIX_PROC_DATA) || i.value.type != PMIX_DATA_ARRAY ||
        i.value.data.darray == nullptr || i.value.data.darray->type != PMIX_INFO)
      continue;
    std::span<const pmix_info_t> data(static_cast<const pmix_info_t*>(i.value.data.darray->array),
                                      i.value.data.darray->size);
    for (const auto& d : data) {
      if (PMIX_CHECK_KEY(&d, PMIX_CPUSET)) return true;
    }
  }
  return false;
}

}  // namespace

Status SetupTopology(Server& s, std::span<const pmix_info_t> info) {
  AdoptHostTopology(info);
  bool share = InfoBool(info, PMIX_SERVER_SHARE_TOPOLOGY).value_or(ShareByDefault());
  if (!share) return Status();
  auto topo = hwloc::CurrentOrDiscover();
  if (!topo.ok()) {
    output::Error("hwloc", "no node topology to share (%d)", topo.status().code());
    return Status();  // clients discover it themselves
  }
  auto shared = hwloc::SharedTopology::Create(*topo, s.tmpdir);
  if (!shared.ok()) {
    output::Error("hwloc", "cannot export the node topology (%d)", shared.status().code());
    return Status();
  }
  for (const auto& i : shared->infos().view()) PMIX_RETURN_IF_ERROR(s.resources.Append(i));
  s.shared_topology = std::make_unique<hwloc::SharedTopology>(std::move(*shared));
  return Status();
}

void TopologyShutdown(Server& s) {
  s.shared_topology.reset();
  if (hwloc::CurrentOrigin() == hwloc::Origin::kHost) hwloc::Reset();
}

Result<std::vector<std::pair<size_t, wire::Infos>>> LocalityStrings(
    const Server& s, std::span<const pmix_info_t> info) {
  std::vector<std::pair<size_t, wire::Infos>> out;
  if (!HasCpusets(info)) return out;
  auto topo = hwloc::CurrentOrDiscover();
  if (!topo.ok()) return out;
  auto peers = LocalPeers(info);
  for (size_t n = 0; n < info.size(); ++n) {
    const pmix_info_t& i = info[n];
    if (!PMIX_CHECK_KEY(&i, PMIX_PROC_DATA) || i.value.type != PMIX_DATA_ARRAY ||
        i.value.data.darray == nullptr || i.value.data.darray->type != PMIX_INFO)
      continue;
    std::span<const pmix_info_t> data(static_cast<const pmix_info_t*>(i.value.data.darray->array),
                                      i.value.data.darray->size);
    if (!IsLocal(s, data, peers)) continue;
    std::optional<wire::Infos> added = WithLocality(*topo, data);
    if (added) out.emplace_back(n, std::move(*added));
  }
  return out;
}

}  // namespace pmix::server
