// Ingest: parse and lay out (all validation), then one job-data image
// (mca/gds/base/image.h) with every realm instance's key/values, attached
// to the store.
#include <algorithm>
#include <cstring>
#include <deque>
#include <limits>
#include <set>

#include "mca/bfrops/base/bfrops_base.h"
#include "mca/gds/base/image.h"
#include "src/common/output.h"
#include "src/jobinfo/derive.h"
#include "src/jobinfo/jobinfo.h"
#include "src/jobinfo/layout.h"
#include "src/jobinfo/parse.h"

namespace pmix::jobinfo {
namespace {

gds::ImageKvs ImageKvsOf(const KvSet& set) {
  gds::ImageKvs out;
  out.reserve(set.view().size());
  for (const Kv& kv : set.view()) out.push_back({kv.key, kv.value, kv.host});
  return out;
}

// The image input of one registration: the instances' key/value sets
// (kept alive here until the image is written) and the rank table.
class InputBuilder {
 public:
  InputBuilder(std::string_view nspace, const Model& model, const Layout& layout)
      : nspace_(nspace), model_(model), layout_(layout) {
    HostJobKvs(model, host_job_);
  }

  gds::ImageInput Build(const gds::ImageMeta& meta, std::vector<pmix_rank_t> local_ranks) {
    gds::ImageInput in;
    in.nspace = std::string(nspace_);
    in.meta = meta;
    JobKvs(model_, layout_, nspace_, host_job_, Next());
    in.job = ImageKvsOf(sets_.back());
    for (const AppInfo& app : layout_.apps) {
      AppKvs(layout_, app, host_job_, Next());
      in.apps.push_back({app.appnum, ImageKvsOf(sets_.back())});
    }
    const auto& nodes = layout_.table.nodes();
    for (size_t i = 0; i < nodes.size(); ++i) {
      NodeKvs(layout_, i, host_job_, Next());
      in.nodes.push_back({nodes[i].host, nodes[i].id, ImageKvsOf(sets_.back())});
    }
    for (size_t index : layout_.job_nodes) in.job_nodes.push_back(static_cast<uint32_t>(index));
    in.local_ranks = std::move(local_ranks);
    Sessions(in);
    in.ranks.reserve(layout_.ranks.size());
    uint32_t node_rank_offset = NodeRankOffset(model_);
    for (const RankInfo& rank : layout_.ranks) {
      gds::ImageInput::Rank r;
      r.rank = rank.rank;
      if (rank.node != kNoNode) r.node = static_cast<uint32_t>(rank.node);
      r.local_rank = rank.local_rank;
      r.appnum = rank.appnum;
      r.app_rank = rank.app_rank;
      for (size_t p = rank.data_begin; p < rank.data_end; ++p) {
        const InfoRefs& kvs = layout_.proc_data[p]->kvs;
        r.kvs.insert(r.kvs.end(), kvs.begin(), kvs.end());
      }
      if (node_rank_offset != 0 && layout_.local && rank.node == *layout_.local)
        AddNodeRank(r, node_rank_offset);
      in.ranks.push_back(std::move(r));
    }
    return in;
  }

 private:
  KvSet& Next() { return sets_.emplace_back(); }

  // The node rank of a local rank when other jobs' processes precede this
  // job's on the node (derive.h): stored, unless the host gave one.
  void AddNodeRank(gds::ImageInput::Rank& r, uint32_t offset) {
    for (const pmix_info_t* kv : r.kvs)
      if (PMIX_CHECK_KEY(kv, PMIX_NODE_RANK)) return;
    uint64_t node_rank = uint64_t{r.local_rank} + offset;
    if (node_rank > std::numeric_limits<uint16_t>::max()) return;
    pmix_info_t& info = node_ranks_.emplace_back();
    std::memset(&info, 0, sizeof info);
    PMIX_LOAD_KEY(info.key, PMIX_NODE_RANK);
    info.value.type = PMIX_UINT16;
    info.value.data.uint16 = static_cast<uint16_t>(node_rank);
    r.kvs.push_back(&info);
  }

  void Sessions(gds::ImageInput& in) {
    std::set<uint32_t> ids;
    for (const SessionEntry& session : model_.sessions) ids.insert(session.id);
    if (model_.session_id) ids.insert(*model_.session_id);
    for (uint32_t id : ids) {
      SessionKvs(model_, id, host_job_, Next());
      in.sessions.push_back({id, ImageKvsOf(sets_.back())});
    }
  }

  std::string_view nspace_;
  const Model& model_;
  const Layout& layout_;
  KvSet host_job_;
  std::deque<KvSet> sets_;  // stable addresses: the input borrows from them
  std::deque<pmix_info_t> node_ranks_;  // AddNodeRank's values (plain scalars)
};

Summary MakeSummary(const Model& model, const Layout& layout, int nlocalprocs) {
  Summary out;
  out.nlocalprocs = nlocalprocs;
  out.job_size = layout.job_size.value_or(0);
  for (size_t index : layout.job_nodes) out.nodes.push_back(*layout.table.nodes()[index].host);
  out.num_nodes = static_cast<uint32_t>(out.nodes.size());
  if (layout.local) {
    const NodeInfo& local = layout.table.nodes()[*layout.local];
    out.local_ranks = local.ranks;
    out.local_nodeid = local.id;
  }
  // No placement for the local node: the host's own list, if readable.
  if (out.local_ranks.empty() && model.local_peers) {
    auto peers = ParseRankList(*model.local_peers);
    if (peers.ok()) out.local_ranks = std::move(*peers);
    std::sort(out.local_ranks.begin(), out.local_ranks.end());
  }
  if (!out.local_ranks.empty() && out.local_ranks.size() != static_cast<size_t>(nlocalprocs)) {
    output::Verbose("jobinfo", 1, "%zu ranks on the local node, %d registered as local",
                    out.local_ranks.size(), nlocalprocs);
  }
  out.session_id = model.session_id;
  out.num_apps = layout.num_apps.value_or(0);
  return out;
}

}  // namespace

Result<Summary> Ingest(gds::Store& store, std::string_view nspace, int nlocalprocs,
                       std::span<const pmix_info_t> info, const Context& ctx) {
  std::span<const pmix_info_t> parts[] = {info};
  return Ingest(store, nspace, nlocalprocs, InfoParts(parts), ctx);
}

Result<Summary> Ingest(gds::Store& store, std::string_view nspace, int nlocalprocs,
                       InfoParts parts, const Context& ctx) {
  if (nspace.empty() || nspace.size() > PMIX_MAX_NSLEN ||
      nspace.find('\0') != std::string_view::npos) {
    return Status(Reject("bad namespace", PMIX_NSPACE));
  }
  if (nlocalprocs < 0) return Status(Reject("negative number of local procs", ""));
  for (std::span<const pmix_info_t> part : parts) {
    if (part.data() == nullptr && !part.empty()) return Status(Reject("NULL info array", ""));
  }
  Result<Model> model = Parse(nspace, parts);
  PMIX_RETURN_IF_ERROR(model.status());
  if (model->nodata) {
    Summary summary;
    summary.nodata = true;
    summary.nlocalprocs = nlocalprocs;
    return summary;
  }
  Result<Layout> layout = BuildLayout(*model, ctx);
  PMIX_RETURN_IF_ERROR(layout.status());
  Summary summary = MakeSummary(*model, *layout, nlocalprocs);
  gds::ImageMeta meta;
  std::shared_ptr<const gds::Image> previous = store.FindImage(nspace);
  meta.generation = previous != nullptr ? previous->meta().generation + 1 : 1;
  meta.nlocalprocs = nlocalprocs;
  meta.job_size = layout->job_size;
  meta.local_nodeid = summary.local_nodeid;
  meta.session_id = model->session_id;
  meta.num_apps = layout->num_apps;
  meta.nproc_offset = model->offset;
  auto codec = bfrops::DefaultCodec();
  PMIX_RETURN_IF_ERROR(codec.status());
  auto region = [&]() -> Result<gds::Region> {
    InputBuilder builder(nspace, *model, *layout);
    return gds::WriteImage(builder.Build(meta, summary.local_ranks), *codec, ctx.medium);
  }();
  PMIX_RETURN_IF_ERROR(region.status());
  auto image = gds::Image::Open(std::move(*region));
  PMIX_RETURN_IF_ERROR(image.status());
  store.AttachImage(std::move(*image));
  return summary;
}

}  // namespace pmix::jobinfo
