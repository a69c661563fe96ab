#include "src/jobinfo/derive.h"

#include "src/jobinfo/info_read.h"

#include <limits>

#include <string>

namespace pmix::jobinfo {
namespace {

// Job-level keys that, given as single infos, describe the server's own
// node (§17.2.3: node-realm values may be passed individually when they
// concern one node).
constexpr const char* kLocalNodeKeys[] = {
    PMIX_NODE_SIZE,
    PMIX_LOCAL_SIZE,
    PMIX_LOCALLDR,
    PMIX_LOCAL_PEERS,
    PMIX_LOCAL_PROCS,
    PMIX_LOCAL_CPUSETS,
    PMIX_AVAIL_PHYS_MEMORY,
    PMIX_NODE_OVERSUBSCRIBED,
    PMIX_HOSTNAME_ALIASES,
    PMIX_TMPDIR,
    PMIX_NSDIR,
};

// Job-level keys that describe the application when the job has only one
// (§17.2.3: "may be provided as an individual pmix_info_t entry").
constexpr const char* kSingleAppKeys[] = {
    PMIX_APP_SIZE,
    PMIX_APPLDR,
    PMIX_WDIR,
    PMIX_APP_ARGV,
    PMIX_APP_MAP_TYPE,
    PMIX_APP_MAP_REGEX,
    PMIX_PROGRAMMING_MODEL,
    PMIX_MODEL_LIBRARY_NAME,
    PMIX_MODEL_LIBRARY_VERSION,
};

// Job-level keys that belong to the job's session.
constexpr const char* kSessionKeys[] = {
    PMIX_UNIV_SIZE,
    PMIX_CLUSTER_ID,
    PMIX_RM_NAME,
    PMIX_RM_VERSION,
};

template <size_t N>
void CopyKeys(const KvSet& from, const char* const (&keys)[N], KvSet& to) {
  for (const char* key : keys) {
    if (const Kv* kv = from.Find(key)) to.Default(*kv);
  }
}

template <class T>
std::string JoinRanks(const T& ranks) {
  std::string out;
  for (pmix_rank_t rank : ranks) {
    if (!out.empty()) out += ',';
    out += std::to_string(rank);
  }
  return out;
}

// PMIX_LOCAL_PEERS / _SIZE / LOCALLDR of a node hosting ranks.
void PeerKvs(const NodeInfo& node, KvSet& out) {
  if (node.ranks.empty()) return;
  out.DefaultString(PMIX_LOCAL_PEERS, JoinRanks(node.ranks));
  out.DefaultUint32(PMIX_LOCAL_SIZE, static_cast<uint32_t>(node.ranks.size()));
  out.DefaultRank(PMIX_LOCALLDR, node.ranks.front());
}

// The value of `key` in the arrays of session `id` (the last one wins).
const pmix_info_t* SessionValue(const Model& model, uint32_t id, const char* key) {
  const pmix_info_t* found = nullptr;
  for (const SessionEntry& session : model.sessions) {
    if (session.id != id) continue;
    for (const pmix_info_t* info : session.kvs) {
      if (KeyIs(*info, key)) found = info;
    }
  }
  return found;
}

}  // namespace

void HostJobKvs(const Model& model, KvSet& out) { out.PutAll(model.job); }

void JobKvs(const Model& model, const Layout& layout, std::string_view nspace,
            const KvSet& host_job, KvSet& out) {
  for (const Kv& kv : host_job.view()) out.Put(kv);
  if (model.session_id) {
    out.DefaultUint32(PMIX_SESSION_ID, *model.session_id);
    const pmix_info_t* univ = SessionValue(model, *model.session_id, PMIX_UNIV_SIZE);
    if (univ != nullptr) out.Default(*univ);
  }
  if (layout.job_size) {
    out.DefaultUint32(PMIX_JOB_SIZE, *layout.job_size);
    out.DefaultUint32(PMIX_MAX_PROCS, *layout.job_size);
  }
  if (!layout.job_nodes.empty()) {
    out.DefaultUint32(PMIX_NUM_NODES, static_cast<uint32_t>(layout.job_nodes.size()));
    std::string list;
    for (size_t index : layout.job_nodes) {
      if (!list.empty()) list += ',';
      list += *layout.table.nodes()[index].host;
    }
    out.DefaultString(PMIX_NODE_LIST, std::move(list));
  }
  if (layout.local) PeerKvs(layout.table.nodes()[*layout.local], out);
  out.DefaultString(PMIX_NSPACE, std::string(nspace));
  out.DefaultString(PMIX_JOBID, std::string(nspace));
  if (layout.num_apps) out.DefaultUint32(PMIX_JOB_NUM_APPS, *layout.num_apps);
}

uint32_t NodeRankOffset(const Model& model) {
  uint32_t offset = 0;
  for (const pmix_info_t* info : model.job) {
    if (!KeyIs(*info, kNodeRankOffsetKey)) continue;
    auto value = ReadUint32(info->value);
    if (value.ok()) offset = *value;
  }
  return offset;
}

void NodeKvs(const Layout& layout, size_t index, const KvSet& host_job, KvSet& out) {
  const NodeInfo& node = layout.table.nodes()[index];
  out.PutAll(node.kvs);
  if (layout.local == index) CopyKeys(host_job, kLocalNodeKeys, out);
  if (node.host) out.DefaultString(PMIX_HOSTNAME, *node.host);
  if (node.id) out.DefaultUint32(PMIX_NODEID, *node.id);
  PeerKvs(node, out);
}

void AppKvs(const Layout& layout, const AppInfo& app, const KvSet& host_job, KvSet& out) {
  out.PutAll(app.kvs);
  bool single = layout.apps.size() == 1;
  if (single) CopyKeys(host_job, kSingleAppKeys, out);
  out.DefaultUint32(PMIX_APPNUM, app.appnum);
  if (app.size) {
    out.DefaultUint32(PMIX_APP_SIZE, *app.size);
  } else if (single && layout.job_size) {
    out.DefaultUint32(PMIX_APP_SIZE, *layout.job_size);
  }
  if (app.leader) out.DefaultRank(PMIX_APPLDR, *app.leader);
  if (app.num_nodes) out.DefaultUint32(PMIX_NUM_NODES, *app.num_nodes);
}

void SessionKvs(const Model& model, uint32_t id, const KvSet& host_job, KvSet& out) {
  for (const SessionEntry& session : model.sessions) {
    if (session.id == id) out.PutAll(session.kvs);
  }
  if (model.session_id == id) CopyKeys(host_job, kSessionKeys, out);
  out.DefaultUint32(PMIX_SESSION_ID, id);
}

}  // namespace pmix::jobinfo
