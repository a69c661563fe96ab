// pmixrun's publish/lookup datastore (see pubsub_store.h).
#include "src/tools/pmixrun/pubsub_store.h"

#include <algorithm>
#include <cstring>
#include <set>

namespace pmixrun::pubsub {
namespace {

bool SameNspace(const pmix_proc_t& a, const pmix_proc_t& b) {
  return std::strncmp(a.nspace, b.nspace, PMIX_MAX_NSLEN) == 0;
}

bool SameProc(const pmix_proc_t& a, const pmix_proc_t& b) {
  return SameNspace(a, b) && a.rank == b.rank;
}

// The ranges this store serves, narrowest first.
constexpr pmix_data_range_t kRanges[] = {PMIX_RANGE_PROC_LOCAL, PMIX_RANGE_NAMESPACE,
                                         PMIX_RANGE_LOCAL, PMIX_RANGE_SESSION, PMIX_RANGE_GLOBAL};

// PMIX_SUCCESS for a served range (UNDEF becomes SESSION).
pmix_status_t CheckRange(pmix_data_range_t* range) {
  if (*range == PMIX_RANGE_UNDEF) *range = PMIX_RANGE_SESSION;
  if (std::find(std::begin(kRanges), std::end(kRanges), *range) != std::end(kRanges))
    return PMIX_SUCCESS;
  if (*range == PMIX_RANGE_RM || *range == PMIX_RANGE_CUSTOM) return PMIX_ERR_NOT_SUPPORTED;
  return PMIX_ERR_BAD_PARAM;
}

size_t Breadth(pmix_data_range_t range) {
  return static_cast<size_t>(std::find(std::begin(kRanges), std::end(kRanges), range) -
                             std::begin(kRanges));
}

// Whether `other` is within `range` as seen from `self`.
bool InRange(pmix_data_range_t range, const pmix_proc_t& self, const pmix_proc_t& other) {
  switch (range) {
    case PMIX_RANGE_PROC_LOCAL: return SameProc(self, other);
    case PMIX_RANGE_NAMESPACE: return SameNspace(self, other);
    case PMIX_RANGE_LOCAL:  // one node
    case PMIX_RANGE_SESSION:  // one session
    case PMIX_RANGE_GLOBAL: return true;
    default: return false;
  }
}

bool Contains(const std::vector<uint32_t>& ids, uint32_t id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

bool ValidPersistence(pmix_persistence_t p) {
  return p == PMIX_PERSIST_INDEF || p == PMIX_PERSIST_FIRST_READ || p == PMIX_PERSIST_PROC ||
         p == PMIX_PERSIST_APP || p == PMIX_PERSIST_SESSION;
}

LookupResult Failed(pmix_status_t status) {
  LookupResult r;
  r.status = status;
  return r;
}

}  // namespace

ValuePtr CopyValue(const pmix_value_t& v) {
  ValuePtr copy(PMIx_Value_create(1));
  if (copy == nullptr || PMIx_Value_xfer(copy.get(), &v) != PMIX_SUCCESS) return nullptr;
  return copy;
}

bool Store::Duplicate(const Entry& candidate) const {
  for (const auto& e : entries_) {
    if (e->key != candidate.key || e->range != candidate.range) continue;
    // The same range type is the same data range when it covers the same
    // processes: one for PROC_LOCAL, one namespace for NAMESPACE.
    if (InRange(e->range, e->owner.proc, candidate.owner.proc)) return true;
  }
  return false;
}

pmix_status_t Store::Publish(PublishRequest req, std::vector<Answered>* answered) {
  if (req.data.empty() || !ValidPersistence(req.persistence)) return PMIX_ERR_BAD_PARAM;
  if (pmix_status_t rc = CheckRange(&req.range); rc != PMIX_SUCCESS) return rc;
  std::vector<std::unique_ptr<Entry>> adding;
  std::set<std::string> keys;
  for (auto& [key, value] : req.data) {
    if (key.empty() || value == nullptr) return PMIX_ERR_BAD_PARAM;
    auto e = std::make_unique<Entry>(
        Entry{key, std::move(value), req.who, req.range, req.persistence, req.access});
    if (!keys.insert(key).second || Duplicate(*e)) return PMIX_ERR_DUPLICATE_KEY;
    adding.push_back(std::move(e));
  }
  for (auto& e : adding) entries_.push_back(std::move(e));
  AnswerSatisfied(answered);
  return PMIX_SUCCESS;
}

const Store::Entry* Store::Best(const LookupRequest& req, const std::string& key,
                                bool* denied) const {
  const Entry* best = nullptr;
  for (const auto& e : entries_) {
    if (e->key != key || !InRange(req.range, req.who.proc, e->owner.proc) ||
        !InRange(e->range, e->owner.proc, req.who.proc))
      continue;
    const Access& a = e->access;
    if (a.restricted && req.who.uid != e->owner.uid && !Contains(a.uids, req.who.uid) &&
        !Contains(a.gids, req.who.gid)) {
      *denied = true;
      continue;
    }
    if (best == nullptr || Breadth(e->range) < Breadth(best->range)) best = e.get();
  }
  return best;
}

size_t Store::CountFound(const LookupRequest& req) const {
  size_t n = 0;
  bool denied = false;
  for (const std::string& key : req.keys) n += Best(req, key, &denied) != nullptr ? 1 : 0;
  return n;
}

LookupResult Store::Answer(const LookupRequest& req) {
  LookupResult r;
  std::set<const Entry*> read_once;
  size_t denied_keys = 0;
  for (const std::string& key : req.keys) {
    bool denied = false;
    const Entry* e = Best(req, key, &denied);
    if (e == nullptr) {
      denied_keys += denied ? 1 : 0;
      continue;
    }
    ValuePtr value = CopyValue(*e->value);
    if (value == nullptr) return Failed(PMIX_ERR_NOMEM);
    r.found.push_back(Found{key, e->owner.proc, std::move(value)});
    if (e->persistence == PMIX_PERSIST_FIRST_READ) read_once.insert(e);
  }
  std::erase_if(entries_, [&](const auto& e) { return read_once.count(e.get()) > 0; });
  if (r.found.size() == req.keys.size()) {
    r.status = PMIX_SUCCESS;
  } else if (!r.found.empty()) {
    r.status = PMIX_ERR_PARTIAL_SUCCESS;
  } else {
    r.status = denied_keys == req.keys.size() ? PMIX_ERR_NO_PERMISSIONS : PMIX_ERR_NOT_FOUND;
  }
  return r;
}

std::optional<LookupResult> Store::Lookup(LookupRequest req, WaiterId id) {
  if (req.keys.empty()) return Failed(PMIX_ERR_BAD_PARAM);
  if (pmix_status_t rc = CheckRange(&req.range); rc != PMIX_SUCCESS) return Failed(rc);
  req.wait_for = std::min(req.wait_for, req.keys.size());
  if (req.wait_for > 0 && CountFound(req) < req.wait_for) {
    held_.emplace(id, std::move(req));
    return std::nullopt;
  }
  return Answer(req);
}

void Store::AnswerSatisfied(std::vector<Answered>* answered) {
  // In arrival order: a first-read datum goes to the lookup that waited
  // longest.
  for (auto it = held_.begin(); it != held_.end();) {
    if (CountFound(it->second) < it->second.wait_for) {
      ++it;
      continue;
    }
    answered->push_back(Answered{it->first, Answer(it->second)});
    it = held_.erase(it);
  }
}

pmix_status_t Store::Unpublish(const Identity& who, const std::vector<std::string>& keys,
                               std::optional<pmix_data_range_t> range) {
  auto owned = [&](const Entry& e) {
    return SameProc(e.owner.proc, who.proc) && e.owner.uid == who.uid;
  };
  auto mine = [&](const Entry& e) { return owned(e) && (!range || e.range == *range); };
  if (keys.empty()) {
    std::erase_if(entries_, [&](const auto& e) { return mine(*e); });
    return PMIX_SUCCESS;
  }
  pmix_status_t status = PMIX_SUCCESS;
  for (const std::string& key : keys) {
    size_t removed = std::erase_if(entries_, [&](const auto& e) { return e->key == key && mine(*e); });
    if (removed > 0 || status != PMIX_SUCCESS) continue;
    bool others = std::any_of(entries_.begin(), entries_.end(),
                              [&](const auto& e) { return e->key == key && !owned(*e); });
    status = others ? PMIX_ERR_NO_PERMISSIONS : PMIX_ERR_NOT_FOUND;
  }
  return status;
}

template <class Pred>
std::vector<Answered> Store::Drop(Pred gone_entry, const std::string& nspace,
                                  const pmix_proc_t* proc, pmix_status_t status) {
  std::erase_if(entries_, [&](const auto& e) { return gone_entry(*e); });
  std::vector<Answered> out;
  for (auto it = held_.begin(); it != held_.end();) {
    const pmix_proc_t& who = it->second.who.proc;
    bool gone = proc != nullptr ? SameProc(who, *proc)
                                : std::strncmp(who.nspace, nspace.c_str(), PMIX_MAX_NSLEN) == 0;
    if (!gone) {
      ++it;
      continue;
    }
    out.push_back(Answered{it->first, Failed(status)});
    it = held_.erase(it);
  }
  return out;
}

std::vector<Answered> Store::ProcGone(const pmix_proc_t& proc, pmix_status_t status) {
  return Drop(
      [&](const Entry& e) {
        return e.persistence == PMIX_PERSIST_PROC && SameProc(e.owner.proc, proc);
      },
      std::string(), &proc, status);
}

std::vector<Answered> Store::JobGone(const std::string& nspace, pmix_status_t status) {
  return Drop(
      [&](const Entry& e) {
        return (e.persistence == PMIX_PERSIST_PROC || e.persistence == PMIX_PERSIST_APP) &&
               std::strncmp(e.owner.proc.nspace, nspace.c_str(), PMIX_MAX_NSLEN) == 0;
      },
      nspace, nullptr, status);
}

std::vector<Answered> Store::Expire(Clock::time_point now) {
  std::vector<Answered> out;
  for (auto it = held_.begin(); it != held_.end();) {
    if (!it->second.deadline || *it->second.deadline > now) {
      ++it;
      continue;
    }
    out.push_back(Answered{it->first, Failed(PMIX_ERR_TIMEOUT)});
    it = held_.erase(it);
  }
  return out;
}

std::optional<Clock::time_point> Store::NextDeadline() const {
  std::optional<Clock::time_point> next;
  for (const auto& [id, req] : held_)
    if (req.deadline && (!next || *req.deadline < *next)) next = req.deadline;
  return next;
}

}  // namespace pmixrun::pubsub
