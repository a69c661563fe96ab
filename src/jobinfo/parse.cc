#include "src/jobinfo/parse.h"

#include <cstring>

#include "src/jobinfo/jobinfo.h"

namespace pmix::jobinfo {
namespace {

class Parser {
 public:
  Parser(std::string_view nspace, Model* model) : nspace_(nspace), model_(model) {}

  // Infos at job level: the top of the array, or inside a job array.
  Status JobLevel(std::span<const pmix_info_t> infos, int depth);

 private:
  using ArrayHandler = Status (Parser::*)(std::span<const pmix_info_t>, int depth);
  using ScalarHandler = Status (Parser::*)(const pmix_info_t&);
  struct ArrayRow {
    const char* key;
    ArrayHandler handler;
  };
  struct ScalarRow {
    const char* key;
    ScalarHandler handler;
  };
  static const ArrayRow kArrays[];
  static const ScalarRow kScalars[];

  Status JobEntry(const pmix_info_t& info, int depth);
  Status Session(std::span<const pmix_info_t> infos, int depth);
  Status SessionEntries(std::span<const pmix_info_t> infos, int depth, SessionEntry& entry);
  Status JobArray(std::span<const pmix_info_t> infos, int depth);
  Status App(std::span<const pmix_info_t> infos, int depth);
  Status Node(std::span<const pmix_info_t> infos, int depth);
  Status Proc(std::span<const pmix_info_t> infos, int depth);
  Result<pmix_rank_t> ProcRank(const pmix_info_t& info) const;

  Status NoData(const pmix_info_t& info);
  Status SessionId(const pmix_info_t& info) { return Read(info, &model_->session_id); }
  Status JobSize(const pmix_info_t& info) { return Read(info, &model_->job_size); }
  Status NodeId(const pmix_info_t& info) { return Read(info, &model_->local_nodeid); }
  Status NumApps(const pmix_info_t& info) { return Read(info, &model_->num_apps); }
  Status Offset(const pmix_info_t& info);
  Status LocalPeers(const pmix_info_t& info);
  Status NodeMap(const pmix_info_t& info) { return ReadMap(info, &model_->node_map); }
  Status ProcMap(const pmix_info_t& info) { return ReadMap(info, &model_->proc_map); }

  static Status Read(const pmix_info_t& info, std::optional<uint32_t>* out);
  static Status ReadMap(const pmix_info_t& info, std::optional<std::string_view>* out);
  // Does a job array describe this namespace (no PMIX_NSPACE, or ours)?
  Result<bool> IsOurJob(std::span<const pmix_info_t> infos) const;

  std::string_view nspace_;
  Model* model_;
  // The session array being walked (a job array inside it joins it).
  std::optional<uint32_t> enclosing_session_;
};

const Parser::ArrayRow Parser::kArrays[] = {
    {PMIX_SESSION_INFO_ARRAY, &Parser::Session},
    {PMIX_JOB_INFO_ARRAY, &Parser::JobArray},
    {PMIX_APP_INFO_ARRAY, &Parser::App},
    {PMIX_NODE_INFO_ARRAY, &Parser::Node},
    {PMIX_PROC_DATA, &Parser::Proc},
};

// Job-level keys that derivation reads; all but NODATA are also stored.
const Parser::ScalarRow Parser::kScalars[] = {
    {PMIX_SESSION_ID, &Parser::SessionId}, {PMIX_JOB_SIZE, &Parser::JobSize},
    {PMIX_NODEID, &Parser::NodeId},        {PMIX_JOB_NUM_APPS, &Parser::NumApps},
    {PMIX_NPROC_OFFSET, &Parser::Offset},  {PMIX_LOCAL_PEERS, &Parser::LocalPeers},
    {PMIX_NODE_MAP, &Parser::NodeMap},     {PMIX_PROC_MAP, &Parser::ProcMap},
};

Status Fail(const char* what, std::string_view key) { return Reject(what, key); }

Status CheckAll(std::span<const pmix_info_t> infos) {
  for (const pmix_info_t& info : infos) {
    if (!CheckEntry(info).ok()) return Fail("malformed key or unknown value type", KeyOf(info));
  }
  return Status();
}

Status Parser::JobLevel(std::span<const pmix_info_t> infos, int depth) {
  if (depth > kMaxDepth) return Fail("registration arrays nested too deeply", "");
  PMIX_RETURN_IF_ERROR(CheckAll(infos));
  for (const pmix_info_t& info : infos) PMIX_RETURN_IF_ERROR(JobEntry(info, depth));
  return Status();
}

Status Parser::JobEntry(const pmix_info_t& info, int depth) {
  for (const ArrayRow& row : kArrays) {
    if (!KeyIs(info, row.key)) continue;
    auto infos = ReadInfoArray(info.value);
    if (!infos.ok()) return Fail("not a data array of infos", row.key);
    return (this->*row.handler)(*infos, depth + 1);
  }
  if (KeyIs(info, PMIX_REGISTER_NODATA)) return NoData(info);
  for (const ScalarRow& row : kScalars) {
    if (KeyIs(info, row.key)) {
      PMIX_RETURN_IF_ERROR((this->*row.handler)(info));
      break;
    }
  }
  model_->job.push_back(&info);
  return Status();
}

Status Parser::NoData(const pmix_info_t& info) {
  if (PMIX_INFO_TRUE(&info)) model_->nodata = true;
  return Status();
}

Status Parser::Read(const pmix_info_t& info, std::optional<uint32_t>* out) {
  auto value = ReadUint32(info.value);
  if (!value.ok()) return Fail("not an unsigned 32-bit integer", KeyOf(info));
  *out = *value;
  return Status();
}

Status Parser::Offset(const pmix_info_t& info) {
  auto rank = ReadRank(info.value);
  if (!rank.ok()) return Fail("not a rank", KeyOf(info));
  model_->offset = *rank;
  return Status();
}

Status Parser::LocalPeers(const pmix_info_t& info) {
  auto text = ReadText(info.value);
  if (!text.ok()) return Fail("not a string", KeyOf(info));
  model_->local_peers = std::string(*text);
  return Status();
}

Status Parser::ReadMap(const pmix_info_t& info, std::optional<std::string_view>* out) {
  auto text = ReadText(info.value);
  if (!text.ok()) return Fail("map is not a string or regex", KeyOf(info));
  *out = *text;
  return Status();
}

Status Parser::Session(std::span<const pmix_info_t> infos, int depth) {
  if (depth > kMaxDepth) return Fail("registration arrays nested too deeply", "");
  PMIX_RETURN_IF_ERROR(CheckAll(infos));
  const pmix_info_t* id = FindKey(infos, PMIX_SESSION_ID);
  if (id == nullptr) return Fail("session array without session id", PMIX_SESSION_INFO_ARRAY);
  std::optional<uint32_t> session;
  PMIX_RETURN_IF_ERROR(Read(*id, &session));
  SessionEntry entry{*session, {}};
  std::optional<uint32_t> outer = std::exchange(enclosing_session_, session);
  Status status = SessionEntries(infos, depth, entry);
  enclosing_session_ = outer;
  PMIX_RETURN_IF_ERROR(status);
  model_->sessions.push_back(std::move(entry));
  return Status();
}

// A session's own keys; its job arrays (other jobs' are skipped) and node
// arrays are walked.
Status Parser::SessionEntries(std::span<const pmix_info_t> infos, int depth, SessionEntry& entry) {
  for (const pmix_info_t& info : infos) {
    bool job = KeyIs(info, PMIX_JOB_INFO_ARRAY);
    if (!job && !KeyIs(info, PMIX_NODE_INFO_ARRAY)) {
      entry.kvs.push_back(&info);
      continue;
    }
    auto inner = ReadInfoArray(info.value);
    if (!inner.ok()) return Fail("not a data array of infos", KeyOf(info));
    PMIX_RETURN_IF_ERROR(job ? JobArray(*inner, depth + 1) : Node(*inner, depth + 1));
  }
  return Status();
}

Result<bool> Parser::IsOurJob(std::span<const pmix_info_t> infos) const {
  const pmix_info_t* ns = FindKey(infos, PMIX_NSPACE);
  if (ns == nullptr) return true;
  auto text = ReadText(ns->value);
  if (!text.ok()) return Fail("not a string", PMIX_NSPACE);
  return *text == nspace_;
}

Status Parser::JobArray(std::span<const pmix_info_t> infos, int depth) {
  PMIX_RETURN_IF_ERROR(CheckAll(infos));
  auto ours = IsOurJob(infos);
  PMIX_RETURN_IF_ERROR(ours.status());
  if (!*ours) {
    // A session array may describe its other jobs; they are not ours to
    // register. At job level the array can only mean a different job.
    if (enclosing_session_) return Status();
    return Fail("job array names another namespace", PMIX_JOB_INFO_ARRAY);
  }
  if (enclosing_session_ && !model_->session_id) model_->session_id = enclosing_session_;
  std::optional<uint32_t> outer = std::exchange(enclosing_session_, std::nullopt);
  Status status = JobLevel(infos, depth);
  enclosing_session_ = outer;
  return status;
}

Status Parser::App(std::span<const pmix_info_t> infos, int) {
  PMIX_RETURN_IF_ERROR(CheckAll(infos));
  const pmix_info_t* num = FindKey(infos, PMIX_APPNUM);
  if (num == nullptr) return Fail("app array without app number", PMIX_APP_INFO_ARRAY);
  std::optional<uint32_t> appnum;
  PMIX_RETURN_IF_ERROR(Read(*num, &appnum));
  AppEntry entry{*appnum, {}, {}, {}};
  for (const pmix_info_t& info : infos) {
    if (KeyIs(info, PMIX_APPLDR)) {
      if (auto r = ReadRank(info.value); r.ok()) entry.leader = *r;
    } else if (KeyIs(info, PMIX_APP_SIZE)) {
      if (auto n = ReadUint32(info.value); n.ok()) entry.size = *n;
    }
    entry.kvs.push_back(&info);
  }
  model_->apps.push_back(std::move(entry));
  return Status();
}

Status Parser::Node(std::span<const pmix_info_t> infos, int) {
  PMIX_RETURN_IF_ERROR(CheckAll(infos));
  NodeEntry entry;
  entry.kvs.reserve(infos.size());
  for (const pmix_info_t& info : infos) {
    if (KeyIs(info, PMIX_HOSTNAME)) {
      auto text = ReadText(info.value);
      if (!text.ok() || text->empty()) return Fail("bad host name", PMIX_HOSTNAME);
      entry.host = std::string(*text);
    } else if (KeyIs(info, PMIX_NODEID)) {
      std::optional<uint32_t> id;
      PMIX_RETURN_IF_ERROR(Read(info, &id));
      entry.id = id;
    } else if (KeyIs(info, PMIX_HOSTNAME_ALIASES)) {
      if (auto text = ReadText(info.value); text.ok()) entry.aliases = SplitCommas(*text);
    }
    entry.kvs.push_back(&info);
  }
  if (!entry.host && !entry.id) return Fail("node array without id or host", PMIX_NODE_INFO_ARRAY);
  model_->nodes.push_back(std::move(entry));
  return Status();
}

// PMIX_RANK (any integer type) or PMIX_PROCID naming this namespace.
Result<pmix_rank_t> Parser::ProcRank(const pmix_info_t& info) const {
  if (KeyIs(info, PMIX_RANK)) {
    auto rank = ReadRank(info.value);
    if (!rank.ok()) return Fail("bad rank in proc array", PMIX_RANK);
    return *rank;
  }
  const pmix_proc_t* proc = info.value.type == PMIX_PROC ? info.value.data.proc : nullptr;
  if (proc == nullptr || !PMIX_RANK_IS_VALID(proc->rank) ||
      std::string_view(proc->nspace, strnlen(proc->nspace, PMIX_MAX_NSLEN + 1)) != nspace_) {
    return Fail("bad process id in proc array", PMIX_PROCID);
  }
  return proc->rank;
}

Status Parser::Proc(std::span<const pmix_info_t> infos, int) {
  PMIX_RETURN_IF_ERROR(CheckAll(infos));
  ProcEntry entry;
  entry.kvs.reserve(infos.size());
  bool have_rank = false;
  for (const pmix_info_t& info : infos) {
    if (KeyIs(info, PMIX_RANK) || KeyIs(info, PMIX_PROCID)) {
      auto rank = ProcRank(info);
      PMIX_RETURN_IF_ERROR(rank.status());
      entry.rank = *rank;
      have_rank = true;
      continue;  // the rank names the instance; it is not stored as a key
    }
    if (KeyIs(info, PMIX_APPNUM)) {
      if (auto n = ReadUint32(info.value); n.ok()) entry.appnum = *n;
    } else if (KeyIs(info, PMIX_HOSTNAME)) {
      if (auto text = ReadText(info.value); text.ok()) entry.host = std::string(*text);
    } else if (KeyIs(info, PMIX_NODEID)) {
      if (auto n = ReadUint32(info.value); n.ok()) entry.nodeid = *n;
    }
    entry.kvs.push_back(&info);
  }
  if (!have_rank) return Fail("proc array without rank", PMIX_PROC_DATA);
  model_->procs.push_back(std::move(entry));
  return Status();
}

}  // namespace

Result<Model> Parse(std::string_view nspace, std::span<const std::span<const pmix_info_t>> info) {
  Model model;
  Parser parser(nspace, &model);
  for (std::span<const pmix_info_t> part : info) PMIX_RETURN_IF_ERROR(parser.JobLevel(part, 0));
  // One session described and none named: the job runs in it.
  if (!model.session_id && !model.sessions.empty()) {
    bool one = true;
    for (const SessionEntry& s : model.sessions) one = one && s.id == model.sessions[0].id;
    if (one) model.session_id = model.sessions[0].id;
  }
  return model;
}

}  // namespace pmix::jobinfo
