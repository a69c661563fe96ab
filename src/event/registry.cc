#include "src/event/registry.h"

#include <algorithm>
#include <cstring>

namespace pmix::event {

namespace {

bool SameProc(const pmix_proc_t& a, const pmix_proc_t& b) {
  return std::strncmp(a.nspace, b.nspace, PMIX_MAX_NSLEN) == 0 && a.rank == b.rank;
}

bool SourceInHandlerRange(const HandlerSpec& spec, const pmix_proc_t& source,
                          const pmix_proc_t& self) {
  switch (spec.range) {
    case PMIX_RANGE_PROC_LOCAL:
      return SameProc(source, self);
    case PMIX_RANGE_NAMESPACE:
      return std::strncmp(source.nspace, self.nspace, PMIX_MAX_NSLEN) == 0;
    case PMIX_RANGE_CUSTOM:
      return AnyProcMatches(spec.custom_range, source);
    default:
      return true;
  }
}

// An event that names no affected process matches every handler, as in
// OpenPMIx 4.2.2 (measured): the filter narrows only events that say whom
// they affect.
bool AffectsAny(const HandlerSpec& spec, const Event& event) {
  if (spec.affected.empty() || event.affected.empty()) return true;
  for (const pmix_proc_t& p : event.affected) {
    if (AnyProcMatches(spec.affected, p)) return true;
  }
  return false;
}

}  // namespace

Registry::Category Registry::CategoryOf(const HandlerSpec& spec) {
  if (spec.codes.empty()) return kDefault;
  return spec.codes.size() == 1 ? kSingle : kMulti;
}

Result<size_t> Registry::Add(HandlerSpec spec, pmix_notification_fn_t fn) {
  if (fn == nullptr) return Status(PMIX_ERR_BAD_PARAM);
  if ((spec.first && first_) || (spec.last && last_)) {
    return Status(PMIX_ERR_EVENT_REGISTRATION);
  }
  const size_t id = next_id_++;
  if (spec.first) {
    first_ = id;
  } else if (spec.last) {
    last_ = id;
  } else {
    std::list<size_t>& order = order_[CategoryOf(spec)];
    if (spec.prepend) {
      order.push_front(id);
    } else {
      order.push_back(id);
    }
  }
  handlers_.emplace(id, Handler{id, std::move(spec), fn});
  return id;
}

Status Registry::Remove(size_t id) {
  auto it = handlers_.find(id);
  if (it == handlers_.end()) return PMIX_ERR_BAD_PARAM;
  if (first_ == id) first_.reset();
  if (last_ == id) last_.reset();
  order_[CategoryOf(it->second.spec)].remove(id);
  handlers_.erase(it);
  return Status();
}

const Handler* Registry::Find(size_t id) const {
  auto it = handlers_.find(id);
  return it == handlers_.end() ? nullptr : &it->second;
}

bool Registry::Matches(const Handler& h, const Event& event, const pmix_proc_t& self) {
  const HandlerSpec& spec = h.spec;
  if (spec.codes.empty()) {
    if (event.non_default) return false;
  } else if (std::find(spec.codes.begin(), spec.codes.end(), event.status) == spec.codes.end()) {
    return false;
  }
  return SourceInHandlerRange(spec, event.source, self) && AffectsAny(spec, event);
}

std::vector<size_t> Registry::CategoryChain(Category cat, const Event& event,
                                            const pmix_proc_t& self) const {
  std::vector<size_t> firsts, middle, lasts;
  for (size_t id : order_[cat]) {
    const Handler& h = handlers_.at(id);
    if (!Matches(h, event, self)) continue;
    if (h.spec.first_in_category) {
      firsts.push_back(id);
    } else if (h.spec.last_in_category) {
      lasts.push_back(id);
    } else {
      middle.push_back(id);
    }
  }
  firsts.insert(firsts.end(), middle.begin(), middle.end());
  firsts.insert(firsts.end(), lasts.begin(), lasts.end());
  ApplyBeforeAfter(&firsts);
  return firsts;
}

void Registry::ApplyBeforeAfter(std::vector<size_t>* ids) const {
  const std::vector<size_t> initial = *ids;
  for (size_t id : initial) {
    const HandlerSpec& spec = handlers_.at(id).spec;
    const bool before = !spec.before.empty();
    const std::string& target = before ? spec.before : spec.after;
    if (target.empty() || target == spec.name) continue;
    auto is_target = [&](size_t other) { return handlers_.at(other).spec.name == target; };
    if (std::none_of(ids->begin(), ids->end(), is_target)) continue;
    ids->erase(std::find(ids->begin(), ids->end(), id));
    auto pos = std::find_if(ids->begin(), ids->end(), is_target);
    ids->insert(before ? pos : pos + 1, id);
  }
}

std::vector<size_t> Registry::Chain(const Event& event, const pmix_proc_t& self) const {
  std::vector<size_t> chain;
  auto add_if_matching = [&](const std::optional<size_t>& slot) {
    if (slot && Matches(handlers_.at(*slot), event, self)) chain.push_back(*slot);
  };
  add_if_matching(first_);
  for (Category cat : {kSingle, kMulti, kDefault}) {
    std::vector<size_t> part = CategoryChain(cat, event, self);
    chain.insert(chain.end(), part.begin(), part.end());
  }
  add_if_matching(last_);
  return chain;
}

}  // namespace pmix::event
