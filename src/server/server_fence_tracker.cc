// The fence bookkeeping of server_fence.h: participant sets and trackers.
#include <algorithm>
#include <cstring>

#include "src/server/server_fence.h"

namespace pmix::server::fence {
namespace {

bool ValidNspace(const char (&nspace)[PMIX_MAX_NSLEN + 1]) {
  size_t len = ::strnlen(nspace, PMIX_MAX_NSLEN + 1);
  return len > 0 && len <= PMIX_MAX_NSLEN;
}

bool ValidRank(pmix_rank_t rank) { return rank < PMIX_RANK_VALID || rank == PMIX_RANK_WILDCARD; }

// Sort order: nspace, then the wildcard before any rank, then rank.
bool Before(const pmix_proc_t& a, const pmix_proc_t& b) {
  int c = std::strncmp(a.nspace, b.nspace, PMIX_MAX_NSLEN);
  if (c != 0) return c < 0;
  bool aw = a.rank == PMIX_RANK_WILDCARD;
  bool bw = b.rank == PMIX_RANK_WILDCARD;
  if (aw != bw) return aw;
  return a.rank < b.rank;
}

bool SameNspace(const pmix_proc_t& a, const pmix_proc_t& b) {
  return std::strncmp(a.nspace, b.nspace, PMIX_MAX_NSLEN) == 0;
}

// Adds the participants of one namespace entry (wildcard or rank).
Status ResolveOne(const pmix_proc_t& proc, const std::optional<NamespaceFacts>& facts,
                  Participants& out) {
  if (!facts) {  // not registered here: nobody of it is local
    out.remote = true;
    return Status();
  }
  if (proc.rank == PMIX_RANK_WILDCARD) {
    for (pmix_rank_t r : facts->local_ranks) out.local.insert(ProcName{NameOf(proc).nspace, r});
    if (facts->job_size > facts->local_ranks.size()) out.remote = true;
    return Status();
  }
  if (facts->local_ranks.count(proc.rank) != 0) {
    out.local.insert(NameOf(proc));
  } else if (facts->job_size != 0 && proc.rank >= facts->job_size) {
    return PMIX_ERR_NOT_FOUND;
  } else {
    out.remote = true;
  }
  return Status();
}

}  // namespace

ProcName NameOf(const pmix_proc_t& proc) {
  return ProcName{std::string(proc.nspace, ::strnlen(proc.nspace, PMIX_MAX_NSLEN)), proc.rank};
}

pmix_proc_t ProcOf(const ProcName& name) {
  pmix_proc_t p{};
  PMIx_Load_procid(&p, name.nspace.c_str(), name.rank);
  return p;
}

Result<std::vector<pmix_proc_t>> Canonicalize(std::span<const pmix_proc_t> procs) {
  if (procs.empty()) return Status(PMIX_ERR_BAD_PARAM);
  std::vector<pmix_proc_t> sorted;
  sorted.reserve(procs.size());
  for (const auto& p : procs) {
    if (!ValidNspace(p.nspace) || !ValidRank(p.rank)) return Status(PMIX_ERR_BAD_PARAM);
    pmix_proc_t copy{};
    PMIx_Load_procid(&copy, p.nspace, p.rank);  // also clears bytes past the name
    sorted.push_back(copy);
  }
  std::sort(sorted.begin(), sorted.end(), Before);
  std::vector<pmix_proc_t> out;
  for (const auto& p : sorted) {
    if (!out.empty() && SameNspace(out.back(), p) &&
        (out.back().rank == PMIX_RANK_WILDCARD || out.back().rank == p.rank))
      continue;  // a duplicate, or covered by the wildcard before it
    out.push_back(p);
  }
  return out;
}

std::string CollectiveKey(std::span<const pmix_proc_t> canonical) {
  std::string key = "fence";
  for (const auto& p : canonical) {
    key += '\n';
    key += NameOf(p).nspace;
    key += p.rank == PMIX_RANK_WILDCARD ? std::string(":*") : ":" + std::to_string(p.rank);
  }
  return key;
}

bool Includes(std::span<const pmix_proc_t> canonical, const ProcName& who) {
  for (const auto& p : canonical) {
    if (who.nspace == NameOf(p).nspace && (p.rank == PMIX_RANK_WILDCARD || p.rank == who.rank))
      return true;
  }
  return false;
}

Result<Participants> Resolve(std::span<const pmix_proc_t> canonical, const NamespaceLookup& lookup) {
  Participants out;
  std::optional<std::string> last;  // canonical order: one lookup per namespace
  std::optional<NamespaceFacts> facts;
  for (const auto& p : canonical) {
    std::string nspace = NameOf(p).nspace;
    if (!last || *last != nspace) {
      facts = lookup(nspace);
      last = nspace;
    }
    PMIX_RETURN_IF_ERROR(ResolveOne(p, facts, out));
  }
  return out;
}

bool Tracker::Ready() const {
  if (contributions.size() < participants.local.size()) return false;  // O(1) while some are missing
  for (const auto& who : participants.local) {
    if (contributions.count(who) == 0) return false;
  }
  return true;
}

Tracker* Table::FindJoinable(std::string_view key, const ProcName& who) {
  for (auto& [id, t] : trackers_) {
    if (!t->host_called && t->key == key && t->contributions.count(who) == 0) return t.get();
  }
  return nullptr;
}

Tracker& Table::Create(std::string key, std::vector<pmix_proc_t> procs, Participants participants) {
  auto t = std::make_unique<Tracker>();
  t->id = next_id_++;
  t->key = std::move(key);
  t->procs = std::move(procs);
  t->participants = std::move(participants);
  Tracker& ref = *t;
  trackers_.emplace(ref.id, std::move(t));
  return ref;
}

Tracker* Table::Find(uint64_t id) {
  auto it = trackers_.find(id);
  return it == trackers_.end() ? nullptr : it->second.get();
}

std::unique_ptr<Tracker> Table::Take(uint64_t id) {
  auto it = trackers_.find(id);
  if (it == trackers_.end()) return nullptr;
  std::unique_ptr<Tracker> t = std::move(it->second);
  trackers_.erase(it);
  return t;
}

std::vector<uint64_t> Table::Ids() const {
  std::vector<uint64_t> ids;
  ids.reserve(trackers_.size());
  for (const auto& entry : trackers_) ids.push_back(entry.first);
  return ids;
}

}  // namespace pmix::server::fence
