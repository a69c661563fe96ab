// The handlers one process registered, and the chain an event runs through
// (spec §10.1).
//
// Chain order: the global FIRST handler (PMIX_EVENT_HDLR_FIRST), then the
// single-code handlers, the multi-code handlers, the default handlers
// (ncodes 0; left out when the event carries PMIX_EVENT_NON_DEFAULT), then
// the global LAST handler. Only handlers that match take part: the event's
// code is one of theirs (or they are default handlers), its source is in
// their source range (PMIX_RANGE / PMIX_EVENT_CUSTOM_RANGE; PROC_LOCAL =
// the receiving process itself, NAMESPACE = its namespace, other ranges
// any source), and, when they named affected procs, the event names at
// least one of them as affected or names none (OpenPMIx 4.2.2 delivers an
// event without PMIX_EVENT_AFFECTED_PROC(S) to such handlers too).
//
// Within a category: registration order, with PMIX_EVENT_HDLR_PREPEND
// placing a handler before those registered earlier (APPEND, the default,
// after them); then FIRST_IN_CATEGORY handlers move to the front and
// LAST_IN_CATEGORY ones to the back (each group keeping that order);
// finally a handler naming another with PMIX_EVENT_HDLR_BEFORE/AFTER moves
// immediately before/after it, when that handler is in the same category
// of this chain (otherwise the directive is ignored, as the standard
// says). Moves are applied in the order of the previous steps.
//
// Ids start at 0 and are never reused within one Registry.
// Threads: none; the dispatcher owns it on the progress thread.
#ifndef PMIXX_SRC_EVENT_REGISTRY_H
#define PMIXX_SRC_EVENT_REGISTRY_H

#include <list>
#include <map>
#include <optional>
#include <vector>

#include "pmix_common.h"
#include "src/event/event.h"

namespace pmix::event {

struct Handler {
  size_t id = 0;
  HandlerSpec spec;
  pmix_notification_fn_t fn = nullptr;
};

class Registry {
 public:
  // PMIX_ERR_EVENT_REGISTRATION when spec asks for the global FIRST or
  // LAST position and another handler holds it; PMIX_ERR_BAD_PARAM for a
  // NULL fn.
  Result<size_t> Add(HandlerSpec spec, pmix_notification_fn_t fn);
  // PMIX_ERR_BAD_PARAM for an unknown id. Frees a FIRST/LAST position.
  Status Remove(size_t id);
  const Handler* Find(size_t id) const;
  size_t size() const { return handlers_.size(); }

  // Whether handler `h` takes part in the chain of `event` as received by
  // process `self`.
  static bool Matches(const Handler& h, const Event& event, const pmix_proc_t& self);
  // The ids of the matching handlers in call order.
  std::vector<size_t> Chain(const Event& event, const pmix_proc_t& self) const;

 private:
  enum Category { kSingle = 0, kMulti = 1, kDefault = 2, kCategories = 3 };
  static Category CategoryOf(const HandlerSpec& spec);
  std::vector<size_t> CategoryChain(Category cat, const Event& event,
                                    const pmix_proc_t& self) const;
  void ApplyBeforeAfter(std::vector<size_t>* ids) const;

  std::map<size_t, Handler> handlers_;
  std::list<size_t> order_[kCategories];  // base precedence per category
  std::optional<size_t> first_;
  std::optional<size_t> last_;
  size_t next_id_ = 0;
};

}  // namespace pmix::event

#endif  // PMIXX_SRC_EVENT_REGISTRY_H
