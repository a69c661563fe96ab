// Queries as values, their lookup in a store, and the merging of answers
// (query_answers.h).
#include "src/server/query_answers.h"

#include <cstring>
#include <utility>

#include "src/client/get_rules.h"
#include "src/common/info_lookup.h"

namespace pmix::query {
namespace {

// Bounds for a body read from a socket (a real query has a handful).
constexpr uint32_t kMaxQueries = 4096;
constexpr uint32_t kMaxKeys = 4096;

bool KeyOk(const char* key) {
  if (key == nullptr) return false;
  size_t n = ::strnlen(key, PMIX_MAX_KEYLEN + 1);
  return n > 0 && n <= PMIX_MAX_KEYLEN;
}

bool SameKey(const char* a, std::string_view b) {
  return ::strncmp(a, std::string(b).c_str(), PMIX_MAX_KEYLEN) == 0;
}

// §7.1.2: a process named both ways is the caller's error.
bool ProcNamedTwice(std::span<const pmix_info_t> qual) {
  return FindInfo(qual, PMIX_PROCID) != nullptr &&
         (FindInfo(qual, PMIX_NSPACE) != nullptr || FindInfo(qual, PMIX_RANK) != nullptr);
}

Result<Query> CopyOne(const pmix_query_t& in) {
  if (in.keys == nullptr || in.keys[0] == nullptr) return Status(PMIX_ERR_BAD_PARAM);
  if (in.qualifiers == nullptr && in.nqual > 0) return Status(PMIX_ERR_BAD_PARAM);
  Query out;
  for (char** k = in.keys; *k != nullptr; ++k) {
    if (!KeyOk(*k)) return Status(PMIX_ERR_BAD_PARAM);
    out.keys.emplace_back(*k);
  }
  auto qual = wire::Infos::CopyOf(InfoSpan(in.qualifiers, in.nqual));
  if (!qual.ok()) return qual.status();
  if (ProcNamedTwice(qual->view())) return Status(PMIX_ERR_BAD_PARAM);
  out.qualifiers = std::move(*qual);
  return out;
}

std::optional<pmix_proc_t> ProcQualifier(std::span<const pmix_info_t> qual) {
  const pmix_info_t* id = FindInfo(qual, PMIX_PROCID);
  if (id == nullptr || id->value.type != PMIX_PROC || id->value.data.proc == nullptr)
    return std::nullopt;
  return *id->value.data.proc;
}

}  // namespace

Result<QueryList> CopyQueries(const pmix_query_t* queries, size_t nqueries) {
  if (queries == nullptr || nqueries == 0) return Status(PMIX_ERR_BAD_PARAM);
  QueryList out;
  for (size_t i = 0; i < nqueries; ++i) {
    auto one = CopyOne(queries[i]);
    if (!one.ok()) return one.status();
    out.push_back(std::move(*one));
  }
  return out;
}

Status CheckQueries(const QueryList& queries) {
  if (queries.empty()) return Status(PMIX_ERR_BAD_PARAM);
  for (const Query& q : queries) {
    if (q.keys.empty() || ProcNamedTwice(q.qualifiers.view())) return Status(PMIX_ERR_BAD_PARAM);
    for (const std::string& k : q.keys)
      if (k.empty() || k.size() > PMIX_MAX_KEYLEN) return Status(PMIX_ERR_BAD_PARAM);
  }
  return Status();
}

Result<QueryList> CopyQueries(const QueryList& queries) {
  QueryList out;
  for (const Query& q : queries) {
    auto qual = wire::Infos::CopyOf(q.qualifiers.view());
    if (!qual.ok()) return qual.status();
    out.push_back(Query{q.keys, std::move(*qual)});
  }
  return out;
}

void PackQueries(wire::Writer& w, const QueryList& queries) {
  w.U32(static_cast<uint32_t>(queries.size()));
  for (const Query& q : queries) {
    w.U32(static_cast<uint32_t>(q.keys.size()));
    for (const std::string& k : q.keys) w.Str(k);
    w.InfoArray(q.qualifiers.view());
  }
}

QueryList UnpackQueries(wire::Reader& r) {
  QueryList out;
  uint32_t n = r.U32();
  if (!r.status().ok() || n > kMaxQueries) return {};
  for (uint32_t i = 0; i < n && r.status().ok(); ++i) {
    Query q;
    uint32_t nkeys = r.U32();
    if (nkeys > kMaxKeys) return {};
    for (uint32_t k = 0; k < nkeys && r.status().ok(); ++k) q.keys.push_back(r.String());
    q.qualifiers = r.InfoArray();
    out.push_back(std::move(q));
  }
  return r.status().ok() ? std::move(out) : QueryList{};
}

bool WantsRefresh(const Query& query) {
  return InfoFlag(query.qualifiers.view(), PMIX_QUERY_REFRESH_CACHE);
}

pmix_proc_t QueryTarget(const Query& query, const pmix_proc_t& requester) {
  auto qual = query.qualifiers.view();
  if (auto proc = ProcQualifier(qual)) return *proc;
  pmix_proc_t target;
  auto nspace = InfoString(qual, PMIX_NSPACE);
  PMIx_Load_procid(&target, nspace ? nspace->c_str() : requester.nspace, PMIX_RANK_WILDCARD);
  const pmix_info_t* rank = FindInfo(qual, PMIX_RANK);
  if (rank != nullptr && rank->value.type == PMIX_PROC_RANK) target.rank = rank->value.data.rank;
  return target;
}

std::optional<std::string> QueryNspace(const Query& query) {
  auto qual = query.qualifiers.view();
  if (auto proc = ProcQualifier(qual)) return std::string(proc->nspace);
  return InfoString(qual, PMIX_NSPACE);
}

Result<gds::ValuePtr> LookupInStore(const gds::Store& store, const Query& query,
                                    std::string_view key, const pmix_proc_t& requester,
                                    std::string_view hostname, pmix_gds_view_t view) {
  auto dirs = getrules::ParseGetDirectives(query.qualifiers.view());
  if (!dirs.ok()) return Status(PMIX_ERR_NOT_FOUND);
  pmix_proc_t target = QueryTarget(query, requester);
  getrules::Requester who{requester, hostname};
  auto plan = getrules::PlanLookup(target, key, *dirs, who);
  if (!plan.ok()) return Status(PMIX_ERR_NOT_FOUND);
  for (const auto& step : plan) {
    auto v = store.FetchValue(step.proc(), step.where, view, key);
    if (v.ok()) return std::move(*v);
  }
  return Status(PMIX_ERR_NOT_FOUND);
}

// --- Answers ----------------------------------------------------------------

Answers::Answers(const QueryList& queries) {
  entries_.resize(queries.size());
  for (size_t q = 0; q < queries.size(); ++q) {
    entries_[q].resize(queries[q].keys.size());
    for (size_t k = 0; k < queries[q].keys.size(); ++k) {
      slots_.push_back(Slot{q, k, queries[q].keys[k]});
      entries_[q][k].name = queries[q].keys[k];
    }
  }
}

Answers::Entry& Answers::At(size_t query, size_t key) { return entries_.at(query).at(key); }

Status Answers::Answer(size_t query, size_t key, const pmix_value_t& value) {
  Entry& e = At(query, key);
  pmix_info_t info;
  PMIx_Info_construct(&info);
  PMIX_LOAD_KEY(info.key, e.name.c_str());
  pmix_status_t rc = PMIx_Value_xfer(&info.value, &value);
  Status st = rc == PMIX_SUCCESS ? e.values.Append(info) : Status(rc);
  PMIx_Info_destruct(&info);
  if (st.ok()) e.answered = true;
  return st;
}

bool Answers::Answered(size_t query, size_t key) const {
  return entries_.at(query).at(key).answered;
}

bool Answers::Complete() const {
  for (const Slot& s : slots_)
    if (!Answered(s.query, s.key)) return false;
  return true;
}

Result<Answers::Pending> Answers::Unanswered(const QueryList& queries) const {
  Pending out;
  for (size_t q = 0; q < queries.size(); ++q) {
    Query part;
    for (size_t k = 0; k < queries[q].keys.size(); ++k) {
      if (Answered(q, k)) continue;
      part.keys.push_back(queries[q].keys[k]);
      out.slots.push_back(Slot{q, k, queries[q].keys[k]});
    }
    if (part.keys.empty()) continue;
    auto qual = wire::Infos::CopyOf(queries[q].qualifiers.view());
    if (!qual.ok()) return qual.status();
    part.qualifiers = std::move(*qual);
    out.queries.push_back(std::move(part));
  }
  return out;
}

Status Answers::Absorb(const Pending& pending, pmix_status_t status, const wire::Infos& infos) {
  if (status != PMIX_SUCCESS && status != PMIX_ERR_PARTIAL_SUCCESS) {
    if (status != PMIX_ERR_NOT_FOUND && error_ == PMIX_SUCCESS) error_ = status;
    return Status();
  }
  std::vector<bool> filled(pending.slots.size(), false);
  for (const pmix_info_t& info : infos.view()) {
    std::optional<size_t> pick;
    for (size_t i = 0; i < pending.slots.size(); ++i) {
      if (!SameKey(info.key, pending.slots[i].name)) continue;
      if (!filled[i]) {
        pick = i;
        break;
      }
      if (!pick) pick = i;  // a repeated answer goes with the first slot of its key
    }
    Status st = pick ? At(pending.slots[*pick].query, pending.slots[*pick].key).values.Append(info)
                     : extras_.Append(info);
    PMIX_RETURN_IF_ERROR(st);
    if (pick) {
      filled[*pick] = true;
      At(pending.slots[*pick].query, pending.slots[*pick].key).answered = true;
    }
  }
  if (status == PMIX_SUCCESS && infos.size() > 0) {
    for (const Slot& s : pending.slots) At(s.query, s.key).answered = true;
  }
  return Status();
}

pmix_status_t Answers::Outcome() const {
  size_t answered = 0;
  for (const Slot& s : slots_) answered += Answered(s.query, s.key) ? 1 : 0;
  if (answered == slots_.size() && !slots_.empty()) return PMIX_SUCCESS;
  if (answered > 0 || extras_.size() > 0) return PMIX_ERR_PARTIAL_SUCCESS;
  return error_ != PMIX_SUCCESS ? error_ : PMIX_ERR_NOT_FOUND;
}

Result<wire::Infos> Answers::Merged() const {
  wire::Infos out;
  pmix_status_t outcome = Outcome();
  if (outcome != PMIX_SUCCESS && outcome != PMIX_ERR_PARTIAL_SUCCESS) return out;
  for (const auto& query : entries_)
    for (const Entry& e : query)
      for (const pmix_info_t& info : e.values.view()) PMIX_RETURN_IF_ERROR(out.Append(info));
  for (const pmix_info_t& info : extras_.view()) PMIX_RETURN_IF_ERROR(out.Append(info));
  return out;
}

}  // namespace pmix::query
