// Ingest: parse and lay out (all validation), then one store call per
// realm instance.
#include <algorithm>
#include <cstring>
#include <set>

#include "src/common/output.h"
#include "src/jobinfo/derive.h"
#include "src/jobinfo/jobinfo.h"
#include "src/jobinfo/layout.h"
#include "src/jobinfo/parse.h"

namespace pmix::jobinfo {
namespace {

pmix_proc_t MakeProc(std::string_view nspace, pmix_rank_t rank) {
  pmix_proc_t proc;
  std::memset(&proc, 0, sizeof(proc));
  std::memcpy(proc.nspace, nspace.data(), nspace.size());  // size checked by Ingest
  proc.rank = rank;
  return proc;
}

gds::Where NodeWhere(const NodeInfo& node) {
  gds::Where where = gds::Where::NodeId(0);
  where.nodeid = node.id;
  where.hostname = node.host;
  return where;
}

class Writer {
 public:
  Writer(gds::Store& store, std::string_view nspace, const Model& model, const Layout& layout)
      : store_(store),
        nspace_(nspace),
        model_(model),
        layout_(layout),
        job_proc_(MakeProc(nspace, PMIX_RANK_WILDCARD)) {
    HostJobKvs(model, host_job_);
  }

  Status All() {
    PMIX_RETURN_IF_ERROR(Job());
    for (const AppInfo& app : layout_.apps) PMIX_RETURN_IF_ERROR(App(app));
    for (size_t i = 0; i < layout_.table.nodes().size(); ++i) PMIX_RETURN_IF_ERROR(Node(i));
    for (const RankInfo& rank : layout_.ranks) PMIX_RETURN_IF_ERROR(Proc(rank));
    return Sessions();
  }

 private:
  Status Job() {
    kvs_.Clear();
    JobKvs(model_, layout_, nspace_, host_job_, kvs_);
    return Put(job_proc_, gds::Where::Job());
  }
  Status App(const AppInfo& app) {
    kvs_.Clear();
    AppKvs(layout_, app, host_job_, kvs_);
    return Put(job_proc_, gds::Where::App(app.appnum));
  }
  Status Node(size_t index) {
    kvs_.Clear();
    NodeKvs(layout_, index, host_job_, kvs_);
    return Put(job_proc_, NodeWhere(layout_.table.nodes()[index]));
  }
  Status Proc(const RankInfo& rank) {
    kvs_.Clear();
    ProcKvs(model_, layout_, rank, kvs_);
    if (kvs_.empty()) return Status();
    return Put(MakeProc(nspace_, rank.rank), gds::Where::Proc());
  }
  Status Sessions() {
    std::set<uint32_t> ids;
    for (const SessionEntry& session : model_.sessions) ids.insert(session.id);
    if (model_.session_id) ids.insert(*model_.session_id);
    for (uint32_t id : ids) {
      kvs_.Clear();
      SessionKvs(model_, id, host_job_, kvs_);
      PMIX_RETURN_IF_ERROR(Put(job_proc_, gds::Where::Session(id)));
    }
    return Status();
  }
  Status Put(const pmix_proc_t& proc, const gds::Where& where) {
    return store_.Put(proc, where, PMIX_SCOPE_UNDEF, kvs_.view());
  }

  gds::Store& store_;
  std::string_view nspace_;
  const Model& model_;
  const Layout& layout_;
  const pmix_proc_t job_proc_;
  KvSet host_job_;
  KvSet kvs_;  // reused per instance
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
  if (nspace.empty() || nspace.size() > PMIX_MAX_NSLEN ||
      nspace.find('\0') != std::string_view::npos) {
    return Status(Reject("bad namespace", PMIX_NSPACE));
  }
  if (nlocalprocs < 0) return Status(Reject("negative number of local procs", ""));
  if (info.data() == nullptr && !info.empty()) return Status(Reject("NULL info array", ""));
  Result<Model> model = Parse(nspace, info);
  PMIX_RETURN_IF_ERROR(model.status());
  if (model->nodata) {
    Summary summary;
    summary.nodata = true;
    summary.nlocalprocs = nlocalprocs;
    return summary;
  }
  Result<Layout> layout = BuildLayout(*model, ctx);
  PMIX_RETURN_IF_ERROR(layout.status());
  const pmix_proc_t job = MakeProc(nspace, PMIX_RANK_WILDCARD);
  const bool fresh = store.Fetch(job, gds::Where::Job(), PMIX_GDS_VIEW_ALL, "").status().code() ==
                     PMIX_ERR_NOT_FOUND;
  Status status = Writer(store, nspace, *model, *layout).All();
  if (!status.ok()) {
    // Past validation only the store fails (memory, an uncopyable nested
    // value, a node id the namespace already gave another node): leave no
    // half-registered namespace behind -- unless it held data before.
    if (fresh) (void)store.Remove(job);
    return status;
  }
  return MakeSummary(*model, *layout, nlocalprocs);
}

}  // namespace pmix::jobinfo
