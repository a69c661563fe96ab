// Building and registering the job description (see job_info.h).
#include "src/tools/pmixrun/job_info.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>

#include "pmix_server.h"
#include "src/tools/pmixrun/op_wait.h"

namespace pmixrun {
namespace {

constexpr uint32_t kSessionId = 1;
constexpr int kRegisterTimeoutS = 30;

// A growing list of infos that owns what it holds.
class InfoList {
 public:
  InfoList() = default;
  InfoList(const InfoList&) = delete;
  InfoList& operator=(const InfoList&) = delete;
  InfoList(InfoList&& other) noexcept : infos_(std::exchange(other.infos_, {})) {}
  InfoList& operator=(InfoList&&) = delete;
  ~InfoList() {
    for (pmix_info_t& i : infos_) PMIx_Info_destruct(&i);
  }

  void Add(const char* key, const void* data, pmix_data_type_t type) {
    infos_.emplace_back();
    PMIx_Info_construct(&infos_.back());
    (void)PMIx_Info_load(&infos_.back(), key, data, type);
  }
  void Str(const char* key, const std::string& s) { Add(key, s.c_str(), PMIX_STRING); }
  void U32(const char* key, uint32_t v) { Add(key, &v, PMIX_UINT32); }
  void U16(const char* key, uint16_t v) { Add(key, &v, PMIX_UINT16); }
  void Rank(const char* key, pmix_rank_t v) { Add(key, &v, PMIX_PROC_RANK); }

  // Moves `inner` into one info whose value is a data array of infos.
  void Array(const char* key, InfoList&& inner) {
    pmix_data_array_t* arr = PMIx_Data_array_create(inner.infos_.size(), PMIX_INFO);
    auto* dst = static_cast<pmix_info_t*>(arr->array);
    for (size_t i = 0; i < inner.infos_.size(); ++i) dst[i] = inner.infos_[i];  // moved
    inner.infos_.clear();
    infos_.emplace_back();
    pmix_info_t& info = infos_.back();
    PMIx_Info_construct(&info);
    PMIX_LOAD_KEY(info.key, key);
    info.value.type = PMIX_DATA_ARRAY;
    info.value.data.darray = arr;  // owned by the info now
  }

  pmix_info_t* data() { return infos_.data(); }
  size_t size() const { return infos_.size(); }

 private:
  std::vector<pmix_info_t> infos_;
};

std::string Join(const std::vector<std::string>& words, const char* sep) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : sep) + w;
  return out;
}

// PMIx_generate_regex / _ppn result as a string, or "" on failure.
std::string Generated(bool ppn, const std::string& input) {
  char* regex = nullptr;
  pmix_status_t rc =
      ppn ? PMIx_generate_ppn(input.c_str(), &regex) : PMIx_generate_regex(input.c_str(), &regex);
  if (rc != PMIX_SUCCESS || regex == nullptr) return "";
  std::string out(regex);
  std::free(regex);
  return out;
}

void AddParent(const JobLayout& job, InfoList& list) {
  if (!job.parent) return;
  const bool spawned = true;
  list.Add(PMIX_SPAWNED, &spawned, PMIX_BOOL);
  list.Add(PMIX_PARENT_ID, &*job.parent, PMIX_PROC);
}

InfoList ProcArray(const JobLayout& job, pmix_rank_t rank) {
  int first = 0;
  const int app = job.AppOf(static_cast<int>(rank), &first);
  InfoList p;
  p.Rank(PMIX_RANK, rank);
  p.U32(PMIX_APPNUM, static_cast<uint32_t>(app));
  p.U16(PMIX_LOCAL_RANK, static_cast<uint16_t>(rank));
  p.U16(PMIX_NODE_RANK, static_cast<uint16_t>(job.node_rank_base + static_cast<int>(rank)));
  p.Rank(PMIX_GLOBAL_RANK, rank);
  p.Rank(PMIX_APP_RANK, rank - static_cast<pmix_rank_t>(first));
  p.Str(PMIX_HOSTNAME, job.hostname);
  p.U32(PMIX_NODEID, 0);
  p.Str(PMIX_PROCDIR, job.job_dir + "/" + std::to_string(rank));
  if (rank < job.cpus.size() && !job.cpus[rank].empty()) p.Str(PMIX_CPUSET, "hwloc:" + job.cpus[rank]);
  AddParent(job, p);  // process realm attributes (ch. 6.1.4)
  return p;
}

// Session, node and per-app realms, each in its own array.
void AddRealmArrays(const JobLayout& job, InfoList& top) {
  InfoList session;
  session.U32(PMIX_SESSION_ID, kSessionId);
  session.U32(PMIX_UNIV_SIZE, job.univ_size);
  session.U32(PMIX_MAX_PROCS, job.univ_size);
  top.Array(PMIX_SESSION_INFO_ARRAY, std::move(session));
  int first = 0;
  for (size_t a = 0; a < job.apps.size(); ++a) {
    const AppLayout& spec = job.apps[a];
    InfoList app;
    app.U32(PMIX_APPNUM, static_cast<uint32_t>(a));
    app.U32(PMIX_APP_SIZE, static_cast<uint32_t>(spec.nprocs));
    app.Rank(PMIX_APPLDR, static_cast<pmix_rank_t>(first));
    app.Str(PMIX_APP_ARGV, Join(spec.argv, " "));
    app.Str(PMIX_WDIR, spec.cwd);
    top.Array(PMIX_APP_INFO_ARRAY, std::move(app));
    first += spec.nprocs;
  }
  InfoList node;
  node.Str(PMIX_HOSTNAME, job.hostname);
  node.U32(PMIX_NODEID, 0);
  node.U32(PMIX_NODE_SIZE, job.node_size);
  top.Array(PMIX_NODE_INFO_ARRAY, std::move(node));
}

// A stop directive as the job's data: one rank (PMIX_RANK_WILDCARD: all),
// or an array of ranks.
void AddRanks(InfoList& list, const char* key, const RankSet& ranks) {
  if (ranks.size() == 1) return list.Rank(key, ranks[0]);
  pmix_data_array_t array;
  array.type = PMIX_PROC_RANK;
  array.size = ranks.size();
  array.array = const_cast<pmix_rank_t*>(ranks.data());
  list.Add(key, &array, PMIX_DATA_ARRAY);  // copied by PMIx_Info_load
}

void AddDebug(const JobLayout& job, InfoList& top) {
  const DebugDirectives& d = job.debug;
  if (d.stop_in_init) AddRanks(top, PMIX_DEBUG_STOP_IN_INIT, *d.stop_in_init);
  if (d.stop_in_app) AddRanks(top, PMIX_DEBUG_STOP_IN_APP, *d.stop_in_app);
  if (d.stop_on_exec) AddRanks(top, PMIX_DEBUG_STOP_ON_EXEC, *d.stop_on_exec);
  if (!d.target) return;
  const bool yes = true;
  top.Add(PMIX_DEBUGGER_DAEMONS, &yes, PMIX_BOOL);
  top.Add(PMIX_DEBUG_TARGET, &*d.target, PMIX_PROC);
  top.Str(PMIX_DEBUG_JOB, std::string(d.target->nspace, strnlen(d.target->nspace, PMIX_MAX_NSLEN)));
}

// The job realm, then the realm arrays and one array per process.
pmix_status_t BuildJobInfo(const JobLayout& job, InfoList& top) {
  const int nprocs = job.NumProcs();
  const auto n = static_cast<uint32_t>(nprocs);
  std::vector<std::string> ranks;
  for (int r = 0; r < nprocs; ++r) ranks.push_back(std::to_string(r));
  const std::string peers = Join(ranks, ",");
  const std::string node_map = Generated(false, job.hostname);
  const std::string proc_map = Generated(true, peers);
  if (node_map.empty() || proc_map.empty()) return PMIX_ERR_BAD_PARAM;
  top.Str(PMIX_JOBID, job.nspace);
  top.U32(PMIX_SESSION_ID, kSessionId);
  top.U32(PMIX_JOB_SIZE, n);
  top.U32(PMIX_MAX_PROCS, n);
  top.U32(PMIX_UNIV_SIZE, job.univ_size);
  top.U32(PMIX_NUM_NODES, 1);
  top.U32(PMIX_JOB_NUM_APPS, static_cast<uint32_t>(job.apps.size()));
  top.Str(PMIX_NODE_MAP, node_map);
  top.Str(PMIX_PROC_MAP, proc_map);
  top.U32(PMIX_LOCAL_SIZE, n);
  top.Str(PMIX_LOCAL_PEERS, peers);
  top.Rank(PMIX_LOCALLDR, 0);
  top.Str(PMIX_TMPDIR, job.session_dir);
  top.Str(PMIX_NSDIR, job.job_dir);
  top.Str(PMIX_BINDTO, job.bind_to);
  AddParent(job, top);  // also job-level, where launchers commonly put them
  AddDebug(job, top);
  AddRealmArrays(job, top);
  for (int r = 0; r < nprocs; ++r)
    top.Array(PMIX_PROC_INFO_ARRAY, ProcArray(job, static_cast<pmix_rank_t>(r)));
  return PMIX_SUCCESS;
}

}  // namespace

int JobLayout::NumProcs() const {
  int n = 0;
  for (const AppLayout& app : apps) n += app.nprocs;
  return n;
}

int JobLayout::AppOf(int rank, int* first_rank) const {
  int first = 0;
  for (size_t a = 0; a < apps.size(); ++a) {
    if (rank < first + apps[a].nprocs || a + 1 == apps.size()) {
      *first_rank = first;
      return static_cast<int>(a);
    }
    first += apps[a].nprocs;
  }
  *first_rank = 0;
  return 0;
}

pmix_status_t RegisterJob(const JobLayout& job) {
  auto info = std::make_unique<InfoList>();
  pmix_status_t rc = BuildJobInfo(job, *info);
  if (rc != PMIX_SUCCESS) return rc;
  auto w = OpWait::Make();
  rc = PMIx_server_register_nspace(job.nspace.c_str(), job.NumProcs(), info->data(), info->size(),
                                   OpWait::Done, w.get());
  rc = OpWait::Finish(std::move(w), rc, kRegisterTimeoutS);
  // The library reads the array in place until its callback: if that has not
  // come, it may still read it, so the array is leaked with the waiter.
  if (rc == PMIX_ERR_TIMEOUT) (void)info.release();
  return rc;
}

}  // namespace pmixrun
